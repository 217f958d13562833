//! Splitting: the reads of many files of one format into many files of that format, each read
//! going to the output its key names (its run, read group, channel or end reason; a part of
//! N reads or one of N files; a table's destination column). A first pass reads every read's
//! key from its metadata alone (a u32 a read in memory); the outputs are then written at
//! most `max_open` at a time, each pass over the inputs writing that many outputs, so open
//! files stay bounded whatever the number of outputs. POD5 chunks of the outputs' compression
//! are copied as stored;
//! BLOW5 records are decoded and written under the input's compression, each output listing
//! only the read groups its records use.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use svb_model::Format;

use crate::error::ConvertError;
use crate::run::settle;
use crate::run::{Run, Stats};
use crate::stored::copy_pod5_reads;
use svb_model::ReadSource;

/// Which output a read goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// Its run (POD5 acquisition id; BLOW5 read group's `run_id`).
    Run,
    /// Its BLOW5 read group (`rg0`, `rg1`, ...; a POD5 run is a read group: its acquisition
    /// id).
    ReadGroup,
    /// Its channel.
    Channel,
    /// Its end reason's label.
    EndReason,
    /// Parts of this many reads, in input order (`part0000`, ...).
    Reads(u64),
    /// This many parts of about equal reads, in input order.
    Files(u64),
    /// The destination a table gives its read id (`read id -> destination`); reads the
    /// table does not list are left out and counted.
    Table(HashMap<String, String>),
    /// The destination a table file gives its read id, the file read a line at a time after
    /// the inputs' read ids are known (memory follows the inputs' reads, not the table's
    /// lines); reads it does not list are left out and counted.
    TableFile(crate::table::TableFile),
}

/// How a split writes its outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions<'a> {
    /// Output file names: this text with [`KEY`] replaced by each output's key (`None`: the
    /// key).
    pub template: Option<&'a str>,
    /// The outputs' format: BLOW5 or SLOW5 text for BLOW5 / SLOW5 inputs (`None`: the inputs'
    /// own).
    pub to: Option<Format>,
    /// BLOW5 outputs' compression (slow5tools split's `-c` / `-s`; default the first input's).
    pub compression: crate::compression::Compression,
    /// Outputs written at a time, each group of them one pass over the inputs (default 128).
    pub max_open: usize,
    /// BLOW5 / SLOW5 outputs keep the inputs' auxiliary fields (default); `false` writes none,
    /// as slow5tools split `--lossless false`.
    pub lossless: bool,
    /// Each input split on its own, as slow5tools split splits each file: its parts named
    /// after it, `STEM_KEY` (before the template's text, when there is one), read groups and
    /// parts numbered from 0 without a prefix (`rg.blow5` by read group: `rg_0.blow5`,
    /// `rg_1.blow5`; in parts of N reads: `rg_0.blow5`, ...). Two inputs of one file stem are
    /// refused before anything is written (their parts would take one name).
    pub per_input: bool,
}

impl Default for SplitOptions<'_> {
    fn default() -> Self {
        SplitOptions {
            template: None,
            to: None,
            compression: Default::default(),
            max_open: 128,
            lossless: true,
            per_input: false,
        }
    }
}

/// What a split wrote.
#[derive(Debug, Default)]
pub struct Split {
    /// Reads and samples written; with [`OnError::Skip`](crate::run::OnError::Skip), what was
    /// left out.
    pub stats: Stats,
    /// Each output: its key, its path and its reads, in key order.
    pub outputs: Vec<(String, PathBuf, u64)>,
    /// Reads a table did not list (left out).
    pub unlisted: u64,
    /// The table's ids that are none of the inputs' reads.
    pub unknown: crate::table::Unknown,
}

/// An output's read groups: (input, the input's group) -> the output's group.
type GroupMap = HashMap<(usize, u32), u32>;

impl Split {
    /// The unlisted reads and the outputs (key, path, reads written), in key order.
    fn finish(&mut self, keys: &Keys, order: &[u32], paths: &[PathBuf], written: &[u64]) {
        self.unlisted = keys.per_input.iter().flatten().filter(|&&k| k == u32::MAX).count() as u64;
        self.outputs = order
            .iter()
            .map(|&k| {
                let k = k as usize;
                (keys.names[k].clone(), paths[k].clone(), written[k])
            })
            .collect();
    }
}

/// A key as a file name: characters other than letters, digits, `-`, `_` and `.` become `_`,
/// and a name that would be hidden (a leading `.`) or empty gets a leading `_`.
fn file_name(key: &str) -> String {
    let name: String = key
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .collect();
    match name.starts_with('.') || name.is_empty() {
        true => format!("_{name}"),
        false => name,
    }
}

/// Every read's key: per input, the key index of each read (`u32::MAX`: left out), and the
/// further keys of the reads a table sends to several destinations ([`Several::Each`]).
///
/// [`Several::Each`]: crate::Several::Each
#[derive(Default)]
struct Keys {
    names: Vec<String>,
    of: HashMap<String, u32>,
    per_input: Vec<Vec<u32>>,
    /// Per input: read -> its keys after its first.
    extra: Vec<HashMap<u32, Vec<u32>>>,
}

impl Keys {
    /// With `by` a table file, gives the reads it lists their destinations, the table
    /// streamed (`reads`: the inputs' reads by id); a read sent to two destinations is an
    /// error naming its line, or goes to each, or to the table's own destination for such
    /// reads, as the table's [`Several`](crate::Several) says; a read listed nowhere is left
    /// out, an error or goes to a destination of its own, as its
    /// [`Unlisted`](crate::Unlisted) says. Returns the table's ids that are no read of the
    /// inputs (none for any other `by`).
    fn assign_table(
        &mut self, by: &SplitBy, reads: &crate::table::ReadsById,
    ) -> Result<crate::table::Unknown, ConvertError> {
        use crate::table::{Several, Unlisted};
        let SplitBy::TableFile(table) = by else {
            return Ok(Default::default());
        };
        self.extra.resize_with(self.per_input.len(), HashMap::new);
        // The destinations rows name (a `Several::Into` destination must be none of them).
        let mut named: std::collections::HashSet<u32> = Default::default();
        let several_into = match &table.several {
            Several::Into(u) => Some(self.index(u.clone())),
            _ => None,
        };
        let unknown = table.assign(reads, |input, read, id, dest| {
            let k = self.index(dest.to_string());
            named.insert(k);
            let slot = &mut self.per_input[input as usize][read as usize];
            let before = *slot;
            if before == u32::MAX || before == k {
                *slot = k;
                return Ok(());
            }
            match &table.several {
                Several::Refuse => {
                    let before = &self.names[before as usize];
                    Err(format!("read {id} is sent to {before:?} and to {dest:?}"))
                }
                Several::Each => {
                    let more = self.extra[input as usize].entry(read).or_default();
                    if !more.contains(&k) {
                        more.push(k);
                    }
                    Ok(())
                }
                Several::Into(_) => {
                    *slot = several_into.expect("an Into destination");
                    Ok(())
                }
            }
        })?;
        if table.refuse_unknown && unknown.count > 0 {
            let first: Vec<String> =
                unknown.first.iter().map(|id| svb_io::excerpt(id, 60)).collect();
            return Err(ConvertError::Mapping(format!(
                "{}: {} read ids of the table are no read of the input (first: {})",
                table.path.display(),
                unknown.count,
                first.join(", ")
            )));
        }
        if let Some(u) = several_into {
            if named.contains(&u) {
                return Err(ConvertError::Mapping(format!(
                    "{}: {:?}, the destination of reads sent to several, is one of the \
                     table's destinations",
                    table.path.display(),
                    self.names[u as usize]
                )));
            }
        }
        // The destination of unlisted reads must be one of its own too (slow5tools split
        // refuses `-m` naming a table's destination or `-u`'s), whether or not a read goes
        // there.
        if let Unlisted::Into(m) = &table.unlisted {
            let clash = self.names.iter().position(|n| n == m).map(|k| k as u32);
            let why = match clash {
                Some(k) if several_into == Some(k) => {
                    Some("also the destination of reads sent to several")
                }
                Some(k) if named.contains(&k) => Some("one of the table's destinations"),
                _ => None,
            };
            if let Some(why) = why {
                return Err(ConvertError::Mapping(format!(
                    "{}: {m:?}, the destination of reads in no row, is {why}",
                    table.path.display()
                )));
            }
        }
        let unlisted = self.per_input.iter().flatten().filter(|&&k| k == u32::MAX).count();
        match &table.unlisted {
            Unlisted::LeaveOut => {}
            Unlisted::Refuse if unlisted > 0 => {
                return Err(ConvertError::Mapping(format!(
                    "{}: {unlisted} reads of the inputs are in no row of the table (name a \
                     destination for them, as slow5tools split's -m)",
                    table.path.display()
                )));
            }
            Unlisted::Refuse => {}
            Unlisted::Into(m) if unlisted > 0 => {
                let k = self.index(m.clone());
                for slot in self.per_input.iter_mut().flatten().filter(|k| **k == u32::MAX) {
                    *slot = k;
                }
            }
            Unlisted::Into(_) => {}
        }
        // Destinations no read went to (a `Several::Into` one where no read was sent to
        // several) have no output.
        self.drop_unused();
        Ok(unknown)
    }

    /// Removes the keys no read has, renumbering the others.
    fn drop_unused(&mut self) {
        let mut used = vec![false; self.names.len()];
        for &k in self.per_input.iter().flatten().filter(|&&k| k != u32::MAX) {
            used[k as usize] = true;
        }
        for more in self.extra.iter().flat_map(HashMap::values) {
            for &k in more {
                used[k as usize] = true;
            }
        }
        if used.iter().all(|&u| u) {
            return;
        }
        let mut new = vec![u32::MAX; self.names.len()];
        let mut names = Vec::new();
        for (k, name) in std::mem::take(&mut self.names).into_iter().enumerate() {
            if used[k] {
                new[k] = names.len() as u32;
                names.push(name);
            }
        }
        self.of = names.iter().enumerate().map(|(k, n)| (n.clone(), k as u32)).collect();
        self.names = names;
        for k in self.per_input.iter_mut().flatten().filter(|k| **k != u32::MAX) {
            *k = new[*k as usize];
        }
        for k in self.extra.iter_mut().flat_map(HashMap::values_mut).flatten() {
            *k = new[*k as usize];
        }
    }

    fn index(&mut self, key: String) -> u32 {
        if let Some(&k) = self.of.get(&key) {
            return k;
        }
        let k = self.names.len() as u32;
        self.of.insert(key.clone(), k);
        self.names.push(key);
        k
    }
}

/// The key of the `n`-th read (0-based, across inputs) of `total` under a positional `by`:
/// `part0000`, ..., or with `bare` numbers (`0`, `1`, ...: slow5tools split's, after the
/// file's stem).
fn positional(by: &SplitBy, n: u64, total: u64, bare: bool) -> Option<String> {
    let part = match *by {
        SplitBy::Reads(per) => n / per.max(1),
        SplitBy::Files(files) => n * files.max(1) / total.max(1),
        _ => return None,
    };
    Some(if bare { part.to_string() } else { format!("part{part:04}") })
}

/// The key of read group `g`: `rg0`, ..., or with `bare` its number alone (slow5tools
/// split's, after the file's stem).
fn group_key(g: u32, bare: bool) -> String {
    if bare {
        g.to_string()
    } else {
        format!("rg{g}")
    }
}

/// The reads of `inputs` (files of `from`) into many files in `dir` by `by`, the format
/// picked here once for the command line, Python and Rust callers: POD5 inputs into POD5 files
/// ([`split_pod5`]), BLOW5 / SLOW5 inputs into BLOW5, or SLOW5 text when `to` says
/// [`Format::Slow5`] (default: the inputs' form; [`split_blow5`]), as `options` say: named by
/// its template, recompressed as its `compression` says (BLOW5 outputs: as slow5tools
/// split's `-c` / `-s`; default the first input's compression, records copied as stored
/// where they keep it), without auxiliary fields where it is not `lossless`. `to` naming
/// another format than the inputs' (a conversion), compression of POD5 or SLOW5 text outputs
/// and FAST5 inputs are refused, saying what to do instead.
///
/// ```no_run
/// use svb_convert::{split, Run, SplitBy};
/// use svb_model::Format;
/// let inputs = ["reads.pod5".into()];
/// let got = split(&inputs, Format::Pod5, "by_channel".as_ref(), &SplitBy::Channel, Default::default(), Run::default())?;
/// for (key, path, reads) in &got.outputs {
///     println!("{key}: {reads} reads in {}", path.display());
/// }
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn split(
    inputs: &[PathBuf], from: Format, dir: &Path, by: &SplitBy, options: SplitOptions<'_>,
    how: Run<'_>,
) -> Result<Split, ConvertError> {
    if options.per_input && inputs.len() > 1 {
        return split_each(inputs, from, dir, by, options, how);
    }
    let refused = |why: &str| Err(ConvertError::Mapping(why.to_string()));
    let stem_template;
    let options = match (options.per_input, inputs) {
        (true, [one]) => {
            let stem = one.file_stem().unwrap_or_default().to_string_lossy();
            stem_template = format!("{stem}_{}", options.template.unwrap_or(KEY));
            SplitOptions { template: Some(&stem_template), ..options }
        }
        _ => options,
    };
    let SplitOptions { to, compression, .. } = options;
    match (from, to) {
        (Format::Fast5, _) => {
            refused("FAST5 inputs: `svb convert` them to POD5 or BLOW5 first, then split")
        }
        (Format::Pod5, None | Some(Format::Pod5)) => {
            if compression != crate::compression::Compression::default() {
                return refused(
                    "a POD5 split copies each read's chunks as they are stored; record and \
                     signal compression are for BLOW5 outputs (`svb convert --decode-fast` \
                     repacks a POD5)",
                );
            }
            if !options.lossless {
                return refused("--lossless false drops BLOW5 auxiliary fields; a POD5 has none");
            }
            split_pod5(inputs, dir, by, options, how)
        }
        (Format::Blow5 | Format::Slow5, None | Some(Format::Blow5 | Format::Slow5)) => {
            let text = to.unwrap_or(from) == Format::Slow5;
            compression.check(to.unwrap_or(from), dir)?;
            split_blow5(inputs, dir, by, text, options, how)
        }
        (_, Some(_)) => refused(
            "splitting keeps the inputs' format (BLOW5 and SLOW5 text either way); `svb \
             convert` changes a format",
        ),
    }
}

/// [`split`] of each input on its own ([`SplitOptions::per_input`]): the file stems checked
/// distinct first, then each input split into its parts (each input's published together);
/// the outputs, reads and what was left out of all of them.
fn split_each(
    inputs: &[PathBuf], from: Format, dir: &Path, by: &SplitBy, options: SplitOptions<'_>,
    mut how: Run<'_>,
) -> Result<Split, ConvertError> {
    let mut stems: HashMap<String, &PathBuf> = HashMap::new();
    for input in inputs {
        let stem = input.file_stem().unwrap_or_default().to_string_lossy().to_lowercase();
        if let Some(first) = stems.insert(stem, input) {
            return Err(ConvertError::Mapping(format!(
                "{} and {} have one file stem: split each on its own, their parts would take \
                 one name",
                first.display(),
                input.display()
            )));
        }
    }
    let mut all = Split::default();
    for input in inputs {
        let run = Run {
            on_error: how.on_error,
            progress: how.progress.as_mut().map(|p| &mut **p as _),
            publish: how.publish,
            interrupted: how.interrupted,
        };
        let one = split(std::slice::from_ref(input), from, dir, by, options, run)?;
        all.stats.reads += one.stats.reads;
        all.stats.samples += one.stats.samples;
        all.stats.samples_uncounted += one.stats.samples_uncounted;
        all.stats.failed.extend(one.stats.failed);
        all.stats.notes.extend(one.stats.notes);
        all.outputs.extend(one.outputs);
        all.unlisted += one.unlisted;
        all.unknown.count += one.unknown.count;
        let room = crate::table::Unknown::KEPT.saturating_sub(all.unknown.first.len());
        all.unknown.first.extend(one.unknown.first.into_iter().take(room));
    }
    Ok(all)
}

/// Splits POD5 `inputs` into `dir` (`KEY.pod5` each, or `template` with [`KEY`] replaced by
/// the key: `"run_{key}"` gives `run_KEY.pod5`) by `by`, `max_open` outputs at a time;
/// an output that exists is replaced only as `how.publish` says (every output is
/// checked before any is written). The outputs appear together once every one is complete,
/// or none does ([`svb_io::publish_all`]): an error or an interruption publishes nothing.
pub fn split_pod5(
    inputs: &[PathBuf], dir: &Path, by: &SplitBy, options: SplitOptions<'_>, mut how: Run<'_>,
) -> Result<Split, ConvertError> {
    let SplitOptions { template, max_open, per_input: bare, .. } = options;
    let on_error = how.on_error;
    let mut result = Split::default();
    let mut keys = Keys::default();
    let mut opened_paths = Vec::new();
    // The readers of streams, which cannot be opened again for pass 2.
    let mut kept = Vec::new();
    let mut by_id = crate::table::ReadsById::default();
    // Pass 1: the keys, from the reads tables alone.
    let mut counts = Vec::new();
    for path in inputs {
        let r = svb_pod5::Reader::open(path).map_err(ConvertError::from);
        if let Some(r) =
            settle(vec![r], on_error, &mut result.stats.failed, ConvertError::of(path))?.pop()
        {
            counts.push(r.len() as u64);
            let input = opened_paths.len() as u32;
            opened_paths.push(path.clone());
            let mut per = Vec::with_capacity(r.len());
            for (i, read) in r.reads().iter().enumerate() {
                let key = match by {
                    SplitBy::Run | SplitBy::ReadGroup => Some(read.info.run_info.to_string()),
                    SplitBy::Channel => Some(read.info.channel.to_string()),
                    SplitBy::EndReason => Some(read.info.end_reason.to_string()),
                    SplitBy::Table(t) => t.get(&read.read_id_string()).cloned(),
                    SplitBy::TableFile(_) => {
                        by_id.insert_uuid(read.info.read_id, (input, i as u32));
                        None
                    }
                    SplitBy::Reads(_) | SplitBy::Files(_) => Some(String::new()),
                };
                per.push(key);
            }
            let per = per.into_iter().map(|k| k.map_or(u32::MAX, |k| keys.index(k))).collect();
            keys.per_input.push(per);
            kept.push(crate::reopen::keep_stream(path, r));
        }
    }
    result.unknown = keys.assign_table(by, &by_id)?;
    let total: u64 = counts.iter().sum();
    if matches!(by, SplitBy::Reads(_) | SplitBy::Files(_)) {
        keys = positional_keys(&keys.per_input, by, total, bare);
    }
    let paths =
        output_paths(dir, &keys.names, template, "pod5", &opened_paths, how.publish.on_existing)?;
    let publish = how.publish;
    let signal_encoding = crate::stored::pod5_copy_encoding(&opened_paths);
    let mut written = vec![0u64; keys.names.len()];
    let mut done = 0u64;
    // The complete outputs, published together at the end (all or nothing).
    let mut staged = Vec::with_capacity(keys.names.len());
    // Pass 2, max_open outputs at a time.
    let order = sorted_keys(&keys.names);
    for batch in order.chunks(max_open.max(1)) {
        let mut writers: HashMap<u32, svb_pod5::Writer> = HashMap::new();
        for &k in batch {
            let options = svb_pod5::WriteOptions {
                signal_encoding,
                publish,
                ..svb_pod5::WriteOptions::default()
            };
            writers.insert(k, svb_pod5::Writer::create(&paths[k as usize], options)?);
        }
        for (input, (path, kept)) in opened_paths.iter().zip(&kept).enumerate() {
            let in_file = ConvertError::of(path);
            let r = crate::reopen::reopen(kept, path, |p| svb_pod5::Reader::open(p))
                .map_err(|e| in_file(e.into()))?;
            for (k, picked) in reads_of_batch(&keys, input, batch) {
                let w = writers.get_mut(&k).expect("opened");
                for window in crate::windows::weighed(&picked, |&i| r.weight(i)) {
                    let before = result.stats.reads;
                    copy_pod5_reads(&r, window, w, false, on_error, &mut result.stats, &in_file)?;
                    written[k as usize] += result.stats.reads - before;
                    done += window.len() as u64;
                    how.report(done, total)?;
                }
            }
        }
        for (_, w) in writers {
            staged.push(w.finish_staged()?.1);
        }
    }
    publish_parts(staged)?;
    result.finish(&keys, &order, &paths, &written);
    Ok(result)
}

/// Splits BLOW5 or SLOW5 `inputs` into `dir` (`KEY.blow5` or `KEY.slow5` as `text` says, or
/// the options' template with [`KEY`] replaced, as [`split_pod5`] names them) by `by`, the
/// options' `max_open` outputs at a time: each output lists the read groups its records use
/// (in the order first used; a demultiplexed file's parts all of its own), its records under
/// the options' record and signal compression, each the first input's where not given
/// (slow5tools' zlib and SVB-ZD when that is text), their auxiliary fields kept unless the
/// options drop them; records already stored so are copied as they are.
pub fn split_blow5(
    inputs: &[PathBuf], dir: &Path, by: &SplitBy, text: bool, options: SplitOptions<'_>,
    mut how: Run<'_>,
) -> Result<Split, ConvertError> {
    let SplitOptions { template, compression, max_open, lossless, per_input: bare, .. } = options;
    let on_error = how.on_error;
    let mut result = Split::default();
    let mut opened = Vec::new();
    let mut kept = Vec::new();
    // Pass 1: each record's key and (input, read group), from its fields alone.
    let mut per_input_keys: Vec<Vec<Option<String>>> = Vec::new();
    let mut per_input_groups: Vec<Vec<u32>> = Vec::new();
    let mut by_id = crate::table::ReadsById::default();
    for path in inputs {
        // Positioned reads: records copied as stored are never read into memory.
        let r =
            svb_blow5::Reader::open_with(path, svb_io::Access::ReadAt).map_err(ConvertError::from);
        let in_file = ConvertError::of(path);
        let Some(r) = settle(vec![r], on_error, &mut result.stats.failed, &in_file)?.pop() else {
            continue;
        };
        let table = matches!(by, SplitBy::TableFile(_));
        // Each record's key, read group, and read id when a table file is to be looked up.
        type Fields = (Option<String>, u32, Option<String>);
        // A file of one read group split by position, run or read group: every record's key
        // and group are known without reading it (the records are read once, when copied).
        let one_group = r.header().read_groups.len() == 1;
        let known = match by {
            SplitBy::Reads(_) | SplitBy::Files(_) => Some(String::new()),
            SplitBy::Run => r.header().attribute(0, "run_id").map(str::to_owned),
            SplitBy::ReadGroup => Some(group_key(0, bare)),
            _ => None,
        };
        let fields: Vec<Result<Fields, ConvertError>> = match known.filter(|_| one_group) {
            Some(key) => (0..r.len()).map(|_| Ok((Some(key.clone()), 0, None))).collect(),
            None => (0..r.len())
                .into_par_iter()
                .map_init(svb_blow5::Record::default, |rec, i| {
                    r.fields_into(i, rec)?;
                    let aux = |name: &str| {
                        rec.aux.iter().find(|(n, _)| n == name).map(|(_, v)| match v {
                            svb_blow5::AuxValue::Text(t) => t.clone(),
                            svb_blow5::AuxValue::Enum(_, Some(l)) => l.clone(),
                            svb_blow5::AuxValue::Enum(i, None) => i.to_string(),
                            svb_blow5::AuxValue::Int(x) => x.to_string(),
                            svb_blow5::AuxValue::UInt(x) => x.to_string(),
                            other => format!("{other:?}"),
                        })
                    };
                    let g = rec.read_group;
                    let key = match by {
                        SplitBy::Run => {
                            r.header().attribute(g as usize, "run_id").map(str::to_owned)
                        }
                        SplitBy::ReadGroup => Some(group_key(g, bare)),
                        SplitBy::Channel => aux("channel_number"),
                        SplitBy::EndReason => aux("end_reason"),
                        SplitBy::Table(t) => t.get(&rec.read_id).cloned(),
                        SplitBy::TableFile(_) => None,
                        SplitBy::Reads(_) | SplitBy::Files(_) => Some(String::new()),
                    };
                    Ok((key, g, table.then(|| rec.read_id.clone())))
                })
                .collect(),
        };
        let fields = fields.into_iter().collect::<Result<Vec<_>, _>>().map_err(&in_file)?;
        let input = per_input_keys.len() as u32;
        for (i, (_, _, id)) in fields.iter().enumerate() {
            if let Some(id) = id {
                by_id.insert(id, (input, i as u32));
            }
        }
        per_input_keys.push(fields.iter().map(|(k, _, _)| k.clone()).collect());
        per_input_groups.push(fields.iter().map(|(_, g, _)| *g).collect());
        opened.push((r.header().clone(), path.clone()));
        // A stream's reader is kept: it cannot be opened again for pass 2.
        kept.push(crate::reopen::keep_stream(path, r));
    }
    let Some((first, _)) = opened.first() else {
        return Err(result.stats.nothing_opened("split"));
    };
    if let Some((_, p)) = opened.iter().find(|(h, _)| h.aux != first.aux) {
        return Err(ConvertError::of(p)(ConvertError::Mapping(format!(
            "its auxiliary fields differ from {}'s; split them apart",
            opened[0].1.display()
        ))));
    }
    let mut keys = Keys::default();
    for per in &per_input_keys {
        let per = per.iter().map(|k| k.clone().map_or(u32::MAX, |k| keys.index(k))).collect();
        keys.per_input.push(per);
    }
    drop(per_input_keys);
    result.unknown = keys.assign_table(by, &by_id)?;
    drop(by_id);
    let total: u64 = keys.per_input.iter().map(|p| p.len() as u64).sum();
    if matches!(by, SplitBy::Reads(_) | SplitBy::Files(_)) {
        keys = positional_keys(&keys.per_input, by, total, bare);
    }
    let ext = if text { "slow5" } else { "blow5" };
    let paths: Vec<PathBuf> = opened.iter().map(|(_, p)| p.clone()).collect();
    let out_paths = output_paths(dir, &keys.names, template, ext, &paths, how.publish.on_existing)?;
    let mut written = vec![0u64; keys.names.len()];
    let mut progress = crate::windows::Progress { done: 0, total };
    // The complete outputs, published together at the end (all or nothing).
    let mut staged = Vec::with_capacity(keys.names.len());
    let order = sorted_keys(&keys.names);
    // A demultiplexed file's parts keep its header's read groups, as slow5tools split -x
    // writes them; other parts list those their records use.
    let whole_header = matches!(by, SplitBy::TableFile(t) if t.refuse_unknown) && opened.len() == 1;
    for batch in order.chunks(max_open.max(1)) {
        // Each output's read groups: those of its records, in the order first used.
        let per_batch: Vec<Vec<(u32, Vec<usize>)>> =
            (0..keys.per_input.len()).map(|input| reads_of_batch(&keys, input, batch)).collect();
        let mut writers: HashMap<u32, (svb_blow5::Writer, GroupMap)> = HashMap::new();
        for (n, &k) in batch.iter().enumerate() {
            let mut map = HashMap::new();
            let mut groups = Vec::new();
            if whole_header {
                groups = opened[0].0.read_groups.clone();
                map = (0..groups.len() as u32).map(|g| ((0, g), g)).collect();
            }
            for (input, (of_input, gs)) in per_batch.iter().zip(&per_input_groups).enumerate() {
                for &i in &of_input[n].1 {
                    let g = gs[i];
                    map.entry((input, g)).or_insert_with(|| {
                        let attrs = &opened[input].0.read_groups[g as usize];
                        let at = groups.iter().position(|x| x == attrs).unwrap_or_else(|| {
                            groups.push(attrs.clone());
                            groups.len() - 1
                        });
                        at as u32
                    });
                }
            }
            let aux = if lossless { first.aux.clone() } else { Vec::new() };
            let schema = svb_blow5::Schema { read_groups: groups, aux };
            let path = &out_paths[k as usize];
            let options = compression.over(crate::blow5_headers::blow5_options_like(
                path,
                first,
                how.publish,
            ));
            let w = svb_blow5::Writer::create(path, schema, options)?;
            writers.insert(k, (w, map));
        }
        for (input, ((_, path), of_input)) in opened.iter().zip(per_batch).enumerate() {
            let in_file = ConvertError::of(path);
            let r = crate::reopen::reopen(&kept[input], path, crate::stored::open_for_copy)
                .map_err(|e| in_file(e.into()))?;
            for (k, picked) in of_input {
                let (w, map) = writers.get_mut(&k).expect("opened");
                let gs = &per_input_groups[input];
                // Records whose read group keeps its number are copied as stored (not where
                // the auxiliary fields are dropped: they are in the records).
                let same_group = |&i: &usize| map[&(input, gs[i])] == gs[i];
                if w.stores_like(r.header()) && lossless && picked.iter().all(same_group) {
                    for window in crate::windows::weighed(&picked, |&i| r.weight(i)) {
                        let stats = &mut result.stats;
                        let reads = stats.reads;
                        let keep = |_: &str| Ok(true);
                        let check = crate::stored::Check::Head;
                        crate::stored::copy_stored_records(
                            &r, window, check, w, keep, on_error, stats, &in_file,
                        )?;
                        written[k as usize] += stats.reads - reads;
                        progress.done += window.len() as u64;
                        how.report(progress.done, progress.total)?;
                    }
                    continue;
                }
                // Else decoded and written through the window loop, each record moved to its
                // group's number in the output.
                let convert = |r: &svb_blow5::Reader, i: usize| {
                    let mut rec = r.record(i)?;
                    rec.read_group = map[&(input, rec.read_group)];
                    if !lossless {
                        rec.aux.clear();
                    }
                    Ok(rec)
                };
                let steps = crate::windows::every_read(convert);
                let reads = result.stats.reads;
                crate::windows::reader_into_sink(
                    &*r,
                    path,
                    &picked,
                    steps,
                    w,
                    &mut progress,
                    &mut how,
                    &mut result.stats,
                )?;
                written[k as usize] += result.stats.reads - reads;
            }
        }
        for (_, (w, _)) in writers {
            staged.push(w.finish_staged()?.1);
        }
    }
    publish_parts(staged)?;
    result.finish(&keys, &order, &out_paths, &written);
    Ok(result)
}

/// Publishes a split's complete outputs together: all or, when one cannot be (a file
/// appeared at its name meanwhile), none of those it would have created
/// ([`svb_io::publish_all`]).
fn publish_parts(staged: Vec<svb_io::Staged>) -> Result<(), ConvertError> {
    svb_io::publish_all(staged).map_err(|(path, e)| ConvertError::Output {
        path,
        source: std::io::Error::new(e.kind(), format!("{e}; no output of the split was published")),
    })
}

/// The reads of input `input` whose keys are in `batch`, grouped by key in `batch`'s order,
/// each group in read order (a read of several keys in each of theirs): one pass over the
/// reads.
fn reads_of_batch(keys: &Keys, input: usize, batch: &[u32]) -> Vec<(u32, Vec<usize>)> {
    let mut slot = vec![usize::MAX; keys.names.len()];
    for (n, &k) in batch.iter().enumerate() {
        slot[k as usize] = n;
    }
    let mut groups: Vec<(u32, Vec<usize>)> = batch.iter().map(|&k| (k, Vec::new())).collect();
    let more = keys.extra.get(input);
    for (i, &k) in keys.per_input[input].iter().enumerate() {
        let extra = more.and_then(|m| m.get(&(i as u32))).map_or(&[][..], Vec::as_slice);
        for &k in std::iter::once(&k).chain(extra) {
            if let Some(&n) = slot.get(k as usize).filter(|&&n| n != usize::MAX) {
                groups[n].1.push(i);
            }
        }
    }
    groups
}

/// The keys of a positional split (`--reads`, `--files`), read by read across inputs.
fn positional_keys(per_input: &[Vec<u32>], by: &SplitBy, total: u64, bare: bool) -> Keys {
    let mut keys = Keys::default();
    let mut n = 0u64;
    for per in per_input {
        let mut out = Vec::with_capacity(per.len());
        for _ in per {
            let key = positional(by, n, total, bare).expect("a positional split");
            out.push(keys.index(key));
            n += 1;
        }
        keys.per_input.push(out);
    }
    keys
}

/// Key indices in key order (numbers by their value: `2` before `10`).
fn sorted_keys(names: &[String]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    let number = |k: u32| names[k as usize].parse::<u64>().ok();
    order.sort_by(|&a, &b| match (number(a), number(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => names[a as usize].cmp(&names[b as usize]),
    });
    order
}

/// The placeholder of an output file name template that a key replaces.
pub const KEY: &str = "{key}";

/// A template of output names must name the key (else every output has one name) and stay
/// in the output directory.
fn check_template(template: &str) -> Result<(), ConvertError> {
    let bad = |what: &str| Err(ConvertError::Mapping(format!("the template {template:?} {what}")));
    if !template.contains(KEY) {
        return bad("has no {key}: every output would have its name");
    }
    if template.contains(['/', '\\']) || template.starts_with('.') {
        return bad("is not a plain file name (no /, \\, or leading .)");
    }
    Ok(())
}

/// The file name of key `name`: `template` with `{key}` replaced by the key as a file name
/// (`NAME.EXT` without a template), `.EXT` added when the template does not end with it.
fn output_name(template: Option<&str>, name: &str, ext: &str) -> String {
    let key = file_name(name);
    match template {
        None => format!("{key}.{ext}"),
        Some(t) => {
            let named = t.replace(KEY, &key);
            match named.ends_with(&format!(".{ext}")) {
                true => named,
                false => format!("{named}.{ext}"),
            }
        }
    }
}

/// Each key's output path in `dir`, all checked before anything is written: two keys with
/// one file name, an output that is an input, and an existing output (without
/// `OnExisting::Replace`) are errors.
fn output_paths(
    dir: &Path, names: &[String], template: Option<&str>, ext: &str, inputs: &[PathBuf],
    on_existing: svb_io::OnExisting,
) -> Result<Vec<PathBuf>, ConvertError> {
    if let Some(t) = template {
        check_template(t)?;
    }
    // An object store's prefix is no folder: nothing is made for it here.
    if !svb_io::is_url(dir) {
        std::fs::create_dir_all(dir)
            .map_err(|source| ConvertError::Output { path: dir.to_path_buf(), source })?;
    }
    // Names that differ only by case are one file on a case-insensitive file system.
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut paths = Vec::with_capacity(names.len());
    for name in names {
        let path = dir.join(output_name(template, name, ext));
        if let Some(other) = seen.insert(path.to_string_lossy().to_lowercase(), name) {
            return Err(ConvertError::Mapping(format!(
                "the keys {other:?} and {name:?} both make the file name {} (file names \
                 that differ only by case are one file on some file systems)",
                path.display()
            )));
        }
        crate::run::check_output(inputs, &path)?;
        if path.exists() && on_existing != svb_io::OnExisting::Replace {
            return Err(ConvertError::Output {
                path,
                source: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "exists (--force replaces it)",
                ),
            });
        }
        paths.push(path);
    }
    Ok(paths)
}
