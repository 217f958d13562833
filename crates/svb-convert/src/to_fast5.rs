//! POD5, BLOW5 / SLOW5 and FAST5 into a multi-read FAST5 file ([`to_fast5`]): a POD5 read as
//! the model's read written by `svb_fast5::ont::OntWriter`, as ONT's `pod5 convert to_fast5`
//! (0.3.49) writes it, attribute for attribute and in its types; a BLOW5 record as slow5tools `s2f` writes it, with every auxiliary field FAST5
//! readers take kept (the others named in `Stats::notes`); a
//! FAST5 read with every attribute of its groups as they are.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use svb_fast5::{AttrValue, Attrs, NewRead, ReadGroups};
use svb_model::{Format, ReadSink};

use crate::error::ConvertError;
use crate::run::look_at_inputs;
use crate::run::{Run, Stats};
use crate::windows::{all_reads, fast5_steps, into_sink, ont_steps, Picked, FAST5_WINDOW_READS};
use svb_blow5::ont::{context_and_tracking, CONTEXT_KEYS, RUN_KEYS};

/// A BLOW5 read group's FAST5 groups: the read group's `run_id` and `pore_type` (a FAST5
/// read group's own attributes), and its other attributes split
/// into `context_tags` and `tracking_id` (by svb's key lists where the header has them, else
/// MinKNOW's context keys as slow5tools s2f and blue-crab know them, every other attribute
/// but the file's own and POD5's run fields a tracking id; `.`, slow5lib's empty value,
/// empty).
struct Blow5Run {
    run_id: Option<String>,
    pore_type: Option<String>,
    tracking_id: Attrs,
    context_tags: Attrs,
}

/// Header attributes that are not tracking ids besides POD5's run fields
/// ([`RUN_KEYS`]): a FAST5 read group's own, and the file's.
const NOT_TRACKING: [&str; 4] = ["pore_type", "file_format", "file_version", "file_type"];

/// The auxiliary fields a BLOW5 file must have to become FAST5 (slow5tools s2f's essential
/// fields: what basecallers and ONT's pod5 read of a FAST5 read; s2f may still write a read
/// without them, which pod5 cannot read, where svb refuses).
const ESSENTIAL_AUX: [&str; 5] =
    ["start_time", "read_number", "start_mux", "median_before", "channel_number"];

/// Context tags slow5tools s2f writes beside MinKNOW's ([`CONTEXT_KEYS`]).
const S2F_CONTEXT_KEYS: [&str; 3] = ["filename", "experiment_kit", "user_filename_input"];

impl Blow5Run {
    fn of(attrs: &[(String, String)]) -> Blow5Run {
        let get = |k: &str| attrs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        let (context, tracking) = context_and_tracking(
            attrs,
            |k| CONTEXT_KEYS.contains(&k) || S2F_CONTEXT_KEYS.contains(&k),
            |k| RUN_KEYS.contains(&k) || NOT_TRACKING.contains(&k),
        );
        let attributes = |kv: Vec<(String, String)>| -> Attrs {
            kv.into_iter().map(|(k, v)| (k, AttrValue::Text(v))).collect()
        };
        Blow5Run {
            run_id: get("run_id").filter(|v| *v != ".").map(str::to_string),
            pore_type: get("pore_type").filter(|v| *v != ".").map(str::to_string),
            tracking_id: attributes(tracking),
            context_tags: attributes(context),
        }
    }
}

/// Whether a BLOW5 auxiliary field named `name` has a place in a FAST5 read: a `Raw` attribute
/// readers take ([`svb_fast5::RAW_ATTRIBUTES`]) or the channel.
fn has_fast5_place(name: &str) -> bool {
    name == "channel_number" || svb_fast5::RAW_ATTRIBUTES.contains(&name)
}

/// A BLOW5 record's groups as slow5tools s2f writes them, with every auxiliary field that has
/// a place in FAST5 kept ([`has_fast5_place`]: s2f writes fewer): `Raw` holds those scalar
/// fields but `channel_number` (in its own type's kind; an enum with the header's labels,
/// numbered in their order; slow5lib's missing enum value left out), then `duration` and
/// `read_id`; `channel_id` the channel and the record's calibration and rate as they are.
/// Other fields (POD5's newer levels, array fields) have no attribute FAST5 readers take, and
/// are left out, the conversion saying which.
fn groups_of_blow5(rec: svb_blow5::Record, header: &svb_blow5::Header, run: &Blow5Run) -> NewRead {
    use svb_blow5::{AuxValue, FieldType};
    let mut raw = Vec::with_capacity(rec.aux.len() + 2);
    let mut channel = Vec::with_capacity(5);
    for (name, v) in &rec.aux {
        if !has_fast5_place(name) {
            continue;
        }
        let value = match v {
            AuxValue::Int(x) => AttrValue::Int(*x),
            AuxValue::UInt(x) => AttrValue::UInt(*x),
            AuxValue::Float(x) => AttrValue::Float(*x),
            AuxValue::Text(t) => AttrValue::Text(t.clone()),
            AuxValue::Char(c) => AttrValue::Text(char::from(*c).to_string()),
            AuxValue::Enum(i, label) => {
                let labels = header
                    .aux
                    .iter()
                    .find(|f| f.name == *name)
                    .and_then(|f| match &f.ty {
                        FieldType::Enum(labels) => Some(labels.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                if label.is_none() {
                    continue;
                }
                let values = (0..labels.len() as i64).collect();
                AttrValue::Enum { label: label.clone(), value: i64::from(*i), labels, values }
            }
            AuxValue::Array(_) => continue,
        };
        match name.as_str() {
            "channel_number" => channel.push((name.clone(), value)),
            _ => raw.push((name.clone(), value)),
        }
    }
    raw.push(("duration".into(), AttrValue::UInt(rec.raw_signal.len() as u64)));
    raw.push(("read_id".into(), AttrValue::Text(rec.read_id.clone())));
    channel.extend([
        ("digitisation".to_string(), AttrValue::Float(rec.digitisation)),
        ("offset".to_string(), AttrValue::Float(rec.offset)),
        ("range".to_string(), AttrValue::Float(rec.range)),
        ("sampling_rate".to_string(), AttrValue::Float(rec.sampling_rate)),
    ]);
    let read = [("run_id", &run.run_id), ("pore_type", &run.pore_type)]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), AttrValue::Text(v.clone()))))
        .collect();
    NewRead {
        read,
        raw,
        channel_id: channel,
        tracking_id: run.tracking_id.clone(),
        context_tags: run.context_tags.clone(),
        read_id: rec.read_id,
        signal: rec.raw_signal,
    }
}

/// A FAST5 read's groups, every attribute as the file holds it.
fn groups_of_fast5(read: svb_fast5::ReadAttributes, signal: Vec<i16>) -> NewRead {
    let mut own = vec![("run_id".to_string(), AttrValue::Text(read.run_id.clone()))];
    if let Some(p) = &read.pore_type {
        own.push(("pore_type".into(), AttrValue::Text(p.clone())));
    }
    NewRead {
        read: own,
        raw: read.raw.to_vec(),
        channel_id: read.channel_id.to_vec(),
        tracking_id: read.tracking_id,
        context_tags: read.context_tags,
        read_id: read.read_id,
        signal,
    }
}

/// The reads of `inputs` (files of `from`) written into one multi-read FAST5 file `out`
/// under `options` (default: VBZ signal), in input order: POD5 reads as `pod5 convert
/// to_fast5` maps them, BLOW5 / SLOW5 records as slow5tools `s2f` maps them (every
/// auxiliary field kept, each read group's attributes its tracking ids and context tags),
/// FAST5 reads with every attribute they hold. A failed input or read stops it, or is left
/// out, as `how` says.
///
/// ```no_run
/// use svb_convert::{to_fast5, Run};
/// use svb_model::Format;
/// let stats = to_fast5(&["reads.pod5".into()], Format::Pod5, "reads.fast5".as_ref(), Default::default(), Run::default())?;
/// println!("{} reads", stats.reads);
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn to_fast5(
    inputs: &[PathBuf], from: Format, out: &Path, options: svb_fast5::WriteOptions, how: Run<'_>,
) -> Result<Stats, ConvertError> {
    to_fast5_files(inputs, from, out, options, None, how).map(|(stats, _)| stats)
}

/// [`to_fast5`], the output cut into files of `reads_per_file` reads as `pod5 convert
/// to_fast5 --file-read-count` cuts it (`None`: one file, `out`): `out`'s name with the
/// file's number before its extension (`reads.fast5` -> `reads.0.fast5`, `reads.1.fast5`,
/// ...), every file published once the last is complete, or none. Returns the files written.
///
/// ```no_run
/// use svb_convert::{to_fast5_files, Run};
/// use svb_model::Format;
/// let (stats, files) = to_fast5_files(&["reads.pod5".into()], Format::Pod5, "reads.fast5".as_ref(), Default::default(), Some(4000), Run::default())?;
/// println!("{} reads in {} files", stats.reads, files.len());
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn to_fast5_files(
    inputs: &[PathBuf], from: Format, out: &Path, options: svb_fast5::WriteOptions,
    reads_per_file: Option<usize>, how: Run<'_>,
) -> Result<(Stats, Vec<PathBuf>), ConvertError> {
    if reads_per_file == Some(0) {
        return Err(ConvertError::Mapping(format!(
            "{}: a FAST5 file of 0 reads each",
            out.display()
        )));
    }
    let options = svb_fast5::WriteOptions { publish: how.publish, ..options };
    if reads_per_file.is_some() {
        // The parts take other names than `out`: what a killed writer of `out` itself left
        // is removed here, as creating `out` would have.
        let _ = svb_io::remove_stale_partials_of(out);
    }
    let parts = Parts {
        out: out.to_path_buf(),
        inputs: inputs.to_vec(),
        options,
        per_file: reads_per_file,
        current: None,
        staged: Vec::new(),
        ids: Default::default(),
        added: 0,
    };
    let on_error = how.on_error;
    match from {
        Format::Fast5 => {
            let open = |p: &Path| svb_fast5::Reader::open(p);
            let (looked, stats) = look_at_inputs(inputs, out, on_error, open, |_, _| Ok(()))?;
            let convert = |r: &svb_fast5::Reader, i: usize| {
                let mut signal = Vec::new();
                let read = r.read_with_signal(i, &mut signal)?;
                Ok(groups_of_fast5(read, signal))
            };
            write_windows(all_reads(looked), open, stats, parts, how, convert)
        }
        Format::Pod5 => {
            // The model's reads (a POD5 file's runs checked against earlier inputs'), as
            // `pod5 convert to_fast5` writes them.
            let open = |p: &Path| svb_pod5::Reader::open(p);
            let (looked, stats) = look_at_inputs(inputs, out, on_error, open, |_, _| Ok(()))?;
            let mut parts = parts;
            // The single output is started before any read is converted (its name checked
            // first).
            if parts.per_file.is_none() {
                parts.writer()?;
            }
            let mut sink = svb_fast5::ont::OntWriter::new(parts);
            let steps = ont_steps::<svb_pod5::Reader>(FAST5_WINDOW_READS);
            let stats = into_sink(&all_reads(looked), open, stats, how, steps, &mut sink)?;
            let files = sink.into_inner().publish()?;
            Ok((stats, files))
        }
        Format::Blow5 | Format::Slow5 => {
            let open = |p: &Path| svb_blow5::Reader::open(p);
            let mut left_out: Vec<String> = Vec::new();
            let look = |r: &svb_blow5::Reader, _: &Path| {
                for f in &r.header().aux {
                    if !has_fast5_place(&f.name) && !left_out.contains(&f.name) {
                        left_out.push(f.name.clone());
                    }
                }
                let has = |f: &&str| r.header().aux.iter().any(|a| a.name == **f);
                match ESSENTIAL_AUX.iter().find(|f| !has(f)) {
                    Some(field) => Err(ConvertError::Mapping(format!(
                        "no {field} field: every FAST5 read holds one in its Raw group, and \
                         FAST5 readers (ONT's pod5 convert, basecallers) need it, so no FAST5 read \
                         is written without it (slow5tools s2f may write one, which ONT's pod5 \
                         then cannot read)"
                    ))),
                    None => Ok(()),
                }
            };
            let (looked, mut stats) = look_at_inputs(inputs, out, on_error, open, look)?;
            if !left_out.is_empty() {
                stats.notes.push(format!(
                    "the auxiliary fields {} have no attribute FAST5 readers take (slow5tools f2s \
                     refuses a Raw attribute it does not know) and are left out",
                    left_out.join(", ")
                ));
            }
            // Each read group's groups, made at its first record.
            let runs = std::sync::Mutex::new(HashMap::<(PathBuf, u32), Arc<Blow5Run>>::new());
            let convert = |r: &svb_blow5::Reader, i: usize| {
                let mut rec = svb_blow5::Record::default();
                r.record_into(i, &mut rec)?;
                let key = (r.path().to_path_buf(), rec.read_group);
                let known = runs.lock().expect("not poisoned").get(&key).cloned();
                let run = match known {
                    Some(run) => run,
                    None => {
                        let attrs =
                            r.header().read_groups.get(rec.read_group as usize).ok_or_else(
                                || {
                                    ConvertError::Mapping(format!(
                                        "record {}: read group {} is not in the header",
                                        rec.read_id, rec.read_group
                                    ))
                                },
                            )?;
                        let run = Arc::new(Blow5Run::of(attrs));
                        runs.lock().expect("not poisoned").entry(key).or_insert(run).clone()
                    }
                };
                Ok(groups_of_blow5(rec, r.header(), &run))
            };
            write_windows(all_reads(looked), open, stats, parts, how, convert)
        }
    }
}

/// The FAST5 files of a conversion: one, or one every `per_file` reads.
struct Parts {
    out: PathBuf,
    inputs: Vec<PathBuf>,
    options: svb_fast5::WriteOptions,
    per_file: Option<usize>,
    current: Option<svb_fast5::Writer>,
    staged: Vec<svb_io::Staged>,
    /// The ids of the files completed (each file refuses an id twice itself).
    ids: std::collections::HashSet<String>,
    /// The reads added to all the files.
    added: u64,
}

impl Parts {
    /// The next file's path: `out`, or `out` numbered.
    fn next_path(&self) -> PathBuf {
        match self.per_file {
            None => self.out.clone(),
            Some(_) => {
                let stem = self.out.file_stem().unwrap_or_default().to_string_lossy();
                let ext = self.out.extension().unwrap_or_default().to_string_lossy();
                self.out.with_file_name(format!("{stem}.{}.{ext}", self.staged.len()))
            }
        }
    }

    /// The file being written, started when none is.
    fn writer(&mut self) -> Result<&mut svb_fast5::Writer, ConvertError> {
        if self.current.is_none() {
            let path = self.next_path();
            crate::run::check_output(&self.inputs, &path)?;
            self.current = Some(svb_fast5::Writer::create(&path, self.options)?);
        }
        Ok(self.current.as_mut().expect("started"))
    }

    /// Completes the file being written (without its name yet).
    fn close(&mut self) -> Result<(), ConvertError> {
        if let Some(w) = self.current.take() {
            self.staged.push(w.finish_staged()?.1);
        }
        Ok(())
    }

    /// Completes the last file (one file of no reads where there is to be one file) and
    /// publishes them all; returns their paths.
    fn publish(mut self) -> Result<Vec<PathBuf>, ConvertError> {
        if self.per_file.is_none() {
            self.writer()?;
        }
        self.close()?;
        let paths = self.staged.iter().map(|s| s.destination().to_path_buf()).collect();
        svb_io::publish_all(self.staged)
            .map_err(|(path, source)| ConvertError::Output { path, source })?;
        Ok(paths)
    }
}

/// The files of one conversion as one output: reads go to the file being written until it
/// holds `per_file`, then to the next.
impl ReadSink for Parts {
    type Error = ConvertError;
    type Read = NewRead;

    fn format(&self) -> Format {
        Format::Fast5
    }

    fn len(&self) -> u64 {
        self.added
    }

    fn samples(read: &NewRead) -> u64 {
        read.signal.len() as u64
    }

    fn check(&self, read: &NewRead) -> Result<(), ConvertError> {
        let r = read.as_groups();
        match self.current.as_ref() {
            Some(w) => w.check(&r)?,
            None => svb_fast5::check_read(&r)?,
        }
        Ok(())
    }

    fn add_reads(&mut self, reads: Vec<NewRead>) -> Result<(), ConvertError> {
        let mut reads: Vec<ReadGroups<'_>> = reads.iter().map(NewRead::as_groups).collect();
        let mut reads = &mut reads[..];
        while !reads.is_empty() {
            let per_file = self.per_file.unwrap_or(usize::MAX);
            if let Some(r) = reads.iter().find(|r| self.ids.contains(r.read_id)) {
                return Err(ConvertError::Mapping(format!(
                    "read {}: is in an earlier file of this output already",
                    r.read_id
                )));
            }
            let w = self.writer()?;
            let take = reads.len().min(per_file - w.len());
            w.add_reads(&reads[..take])?;
            let full = w.len() == per_file;
            if self.per_file.is_some() {
                self.ids.extend(reads[..take].iter().map(|r| r.read_id.to_string()));
            }
            self.added += take as u64;
            if full {
                self.close()?;
            }
            reads = &mut reads[take..];
        }
        Ok(())
    }

    fn finish(self) -> Result<u64, ConvertError> {
        let added = self.added;
        self.publish().map(|_| added)
    }
}

/// Writes the reads `convert` makes of each input's reads into `parts`, a window at a time.
fn write_windows<R: svb_model::ReadSource + Sync, E: Into<ConvertError>>(
    readers: Picked<R>, open: impl Fn(&Path) -> Result<R, E>, stats: Stats, mut parts: Parts,
    how: Run<'_>, convert: impl Fn(&R, usize) -> Result<NewRead, ConvertError> + Sync,
) -> Result<(Stats, Vec<PathBuf>), ConvertError> {
    let steps = fast5_steps(|_: usize, r: &R, i: usize| convert(r, i));
    // The single output is started before any read is converted (its name checked first).
    if parts.per_file.is_none() {
        parts.writer()?;
    }
    let stats = into_sink(&readers, open, stats, how, steps, &mut parts)?;
    drop(readers);
    let files = parts.publish()?;
    Ok((stats, files))
}
