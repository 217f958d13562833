//! `svb subset`: the reads named in a list, from any number of POD5 or BLOW5 files, into one
//! file of the same format, a window of reads at a time (memory holds one window, whatever
//! the inputs' size): VBZ chunks are copied as stored, other signal decoded and compressed
//! on every core.

use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use svb_slow5::blow5;
use svb_vbz::pod5;

use crate::inputs::{Format, Inputs};
use crate::output::{error_chain, Failures, Progress};

/// A read's VBZ chunks as stored: (samples, bytes) each.
type StoredChunks = Vec<(u32, Vec<u8>)>;

/// Reads decoded at once: the memory bound of the copy.
const WINDOW: usize = 256;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  svb subset reads.pod5 --read-ids ids.txt -o picked.pod5\n  \
    cut -f1 summary.tsv | svb subset -r runs/ --read-ids - -o picked.blow5\n  \
    svb subset -r runs/ --read-ids ids.txt -o picked.pod5 --keep-going"
)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The read ids to keep: a file with one per line (the first column of a TSV or CSV; a
    /// `read_id` header is skipped), or `-` for standard input.
    #[arg(long, value_name = "FILE|-")]
    read_ids: String,
    /// The output file (.pod5 or .blow5, the inputs' format), written under a temporary name
    /// and renamed when complete.
    #[arg(short, long)]
    output: PathBuf,
    /// Ids found in no input are listed on stderr but do not make the exit status 1.
    #[arg(long)]
    missing_ok: bool,
    /// Replace the output if it exists.
    #[arg(long)]
    force: bool,
    /// Go on past an input that cannot be read, or a read that cannot be decoded: each is
    /// named on stderr and left out, and the exit status is 1 at the end.
    #[arg(long)]
    keep_going: bool,
}

/// The ids of a list: the first field of each non-empty line, a `read_id` header skipped,
/// duplicates dropped, in the list's order.
pub fn read_id_list(source: &str) -> Result<Vec<String>, String> {
    let reader: Box<dyn BufRead> = if source == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(source).map_err(|e| format!("{source}: {e}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut seen = HashSet::new();
    let mut ids = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("{source}, line {}: {e}", n + 1))?;
        let Some(id) = line
            .split(['\t', ',', ' '])
            .map(str::trim)
            .find(|f| !f.is_empty())
        else {
            continue;
        };
        if n == 0 && id == "read_id" {
            continue;
        }
        if seen.insert(id.to_string()) {
            ids.push(id.to_string());
        }
    }
    Ok(ids)
}

pub fn run(args: &Args) -> Result<bool, String> {
    let (format, files) = args.inputs.expand()?;
    let out_format = Format::of(&args.output).ok_or_else(|| {
        format!(
            "{}: the output must end in .pod5 or .blow5",
            args.output.display()
        )
    })?;
    if out_format != format {
        return Err(format!(
            "{}: subset writes the inputs' format ({}); `svb convert` changes it",
            args.output.display(),
            format.name()
        ));
    }
    if args.output.exists() && !args.force {
        return Err(format!(
            "{} exists (--force replaces it)",
            args.output.display()
        ));
    }
    let wanted = read_id_list(&args.read_ids)?;
    let mut failures = Failures::new(args.keep_going, "subset");
    let found = match format {
        Format::Pod5 => subset_pod5(&files, &wanted, &args.output, &mut failures)?,
        Format::Blow5 => subset_blow5(&files, &wanted, &args.output, &mut failures)?,
    };
    let missing: Vec<&String> = wanted.iter().filter(|id| !found.contains(*id)).collect();
    for id in &missing {
        eprintln!("svb: subset: read id {id} is in no input");
    }
    if !missing.is_empty() {
        eprintln!(
            "svb: subset: {} of {} read ids not found; {} written to {}",
            missing.len(),
            wanted.len(),
            found.len(),
            args.output.display()
        );
    }
    if failures.count > 0 {
        eprintln!(
            "svb: subset: {} inputs or reads left out (--keep-going)",
            failures.count
        );
    }
    Ok((missing.is_empty() || args.missing_ok) && failures.count == 0)
}

/// Copies the wanted reads of POD5 `files` into `out`; returns the ids found.
fn subset_pod5(
    files: &[PathBuf],
    wanted: &[String],
    out: &Path,
    failures: &mut Failures,
) -> Result<HashSet<String>, String> {
    let mut ids = HashSet::with_capacity(wanted.len());
    for id in wanted {
        let uuid = pod5::parse_uuid(id).ok_or_else(|| format!("read id {id:?} is not a UUID"))?;
        ids.insert(uuid);
    }
    let mut w =
        pod5::Writer::create(out, pod5::WriteOptions::default()).map_err(|e| error_chain(&e))?;
    let mut found = HashSet::new();
    let mut progress = Progress::new(files.len() as u64, "subset");
    for path in files {
        progress.inc(1);
        let Some(r) = failures.check(pod5::Reader::open(path).map_err(|e| error_chain(&e)))? else {
            continue;
        };
        let picked: Vec<usize> = (0..r.len())
            .filter(|&i| ids.contains(&r.reads()[i].read_id))
            .collect();
        let vbz = r.signal_encoding() == pod5::SignalEncoding::Vbz;
        for window in picked.chunks(WINDOW) {
            for &i in window {
                let read = &r.reads()[i];
                let run = r.run_info_of(read).ok_or_else(|| {
                    format!(
                        "{}: read {} names run {}, which the file lacks",
                        path.display(),
                        read.read_id_string(),
                        read.run_info
                    )
                })?;
                w.add_run_info(run).map_err(|e| error_chain(&e))?;
            }
            let in_file =
                |e: &dyn std::error::Error| format!("{}: {}", path.display(), error_chain(e));
            if vbz {
                // VBZ chunks copied as stored (checked as they are added, not recompressed).
                let stored: Vec<Result<StoredChunks, pod5::Pod5Error>> = window
                    .par_iter()
                    .map(|&i| {
                        r.chunks(i)
                            .iter()
                            .enumerate()
                            .map(|(c, info)| Ok((info.samples as u32, r.chunk_bytes(i, c)?)))
                            .collect()
                    })
                    .collect();
                for (&i, chunks) in window.iter().zip(stored) {
                    let added = chunks.map_err(|e| in_file(&e)).and_then(|chunks| {
                        let refs: Vec<(u32, &[u8])> =
                            chunks.iter().map(|(n, b)| (*n, b.as_slice())).collect();
                        w.add_read_vbz_chunks(&r.reads()[i], &refs)
                            .map_err(|e| in_file(&e))
                    });
                    if failures.check(added)?.is_some() {
                        found.insert(r.reads()[i].read_id_string());
                    }
                }
            } else {
                let decoded: Vec<Result<(&pod5::Read, Vec<i16>), String>> = window
                    .par_iter()
                    .map(|&i| {
                        let s = r.decode_signal(i).map_err(|e| in_file(&e))?;
                        Ok((&r.reads()[i], s))
                    })
                    .collect();
                let mut reads = Vec::with_capacity(decoded.len());
                for d in decoded {
                    reads.extend(failures.check(d)?);
                }
                w.add_reads(&reads).map_err(|e| in_file(&e))?;
                found.extend(reads.iter().map(|(read, _)| read.read_id_string()));
            }
        }
    }
    progress.finish();
    w.finish().map_err(|e| error_chain(&e))?;
    Ok(found)
}

/// Copies the wanted records of BLOW5 `files` into `out` (their read groups merged, their
/// auxiliary fields the same in every file); returns the ids found.
fn subset_blow5(
    files: &[PathBuf],
    wanted: &[String],
    out: &Path,
    failures: &mut Failures,
) -> Result<HashSet<String>, String> {
    let ids: HashSet<&str> = wanted.iter().map(String::as_str).collect();
    // Each through its slow5lib index (built and written when missing): only the wanted
    // records are read.
    let mut readers: Vec<blow5::Reader> = Vec::new();
    let mut indexes: Vec<blow5::Index> = Vec::new();
    let mut paths: Vec<&PathBuf> = Vec::new();
    for p in files {
        if let Some((r, index)) = failures.check(crate::blow5::open_with_index(p))? {
            readers.push(r);
            indexes.push(index);
            paths.push(p);
        }
    }
    let Some(first) = readers.first().map(blow5::Reader::header) else {
        return Err("no input could be read".into());
    };
    let files = paths;
    let mut schema = blow5::Schema::of(first);
    // Per file, its read groups' indices in the output.
    let mut group_maps = Vec::new();
    for (r, path) in readers.iter().zip(&files) {
        if r.header().aux != schema.aux {
            return Err(format!(
                "{}: its auxiliary fields differ from {}'s; subset them apart",
                path.display(),
                files[0].display()
            ));
        }
        let map: Vec<u32> = r
            .header()
            .read_groups
            .iter()
            .map(|g| {
                let at = schema
                    .read_groups
                    .iter()
                    .position(|x| x == g)
                    .unwrap_or_else(|| {
                        schema.read_groups.push(g.clone());
                        schema.read_groups.len() - 1
                    });
                at as u32
            })
            .collect();
        group_maps.push(map);
    }
    let options = blow5::WriteOptions {
        record_compression: first.record_compression,
        signal_compression: first.signal_compression,
        ..blow5::WriteOptions::default()
    };
    let mut w = blow5::Writer::create(out, schema, options).map_err(|e| error_chain(&e))?;
    let mut found = HashSet::new();
    let mut progress = Progress::new(files.len() as u64, "subset");
    for (((r, index), path), map) in readers.iter().zip(&indexes).zip(&files).zip(&group_maps) {
        progress.inc(1);
        let mut picked: Vec<usize> = wanted
            .iter()
            .filter_map(|id| index.get(id))
            .filter_map(|(offset, size)| r.record_at(offset, size))
            .collect();
        picked.sort_unstable();
        picked.dedup();
        for window in picked.chunks(WINDOW) {
            let decoded: Vec<Result<blow5::Record, String>> = window
                .par_iter()
                .map(|&i| {
                    r.record(i)
                        .expect("index in range")
                        .map_err(|e| error_chain(&e))
                })
                .collect();
            let mut kept = Vec::with_capacity(decoded.len());
            for d in decoded {
                if let Some(mut rec) = failures.check(d)? {
                    if ids.contains(rec.read_id.as_str()) {
                        rec.read_group = map[rec.read_group as usize];
                        kept.push(rec);
                    }
                }
            }
            w.add_records(&kept)
                .map_err(|e| format!("{}: {}", path.display(), error_chain(&e)))?;
            found.extend(kept.into_iter().map(|rec| rec.read_id));
        }
    }
    progress.finish();
    w.finish().map_err(|e| error_chain(&e))?;
    Ok(found)
}
