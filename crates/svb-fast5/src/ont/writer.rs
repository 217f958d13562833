//! The model's reads as `pod5 convert to_fast5` (0.3.49) writes POD5 reads into FAST5
//! ([`read_of`], [`OntWriter`]).

use std::sync::Arc;

use svb_model::ont::{OntRead, RunInfo};
use svb_model::{Format, ReadSink};

use crate::{end_reasons, AttrValue, Attrs, NewRead};

/// A run's groups as `pod5 convert to_fast5` writes them, made once and shared by its reads:
/// the `tracking_id` and `context_tags` attributes (text, in stored order) and the read
/// group's `run_id` (the tracking ids' `run_id`, which pod5 writes; else the acquisition id,
/// which ONT's FAST5 -> POD5 made of the run id).
#[derive(Debug, Clone)]
pub struct RunGroups {
    run_id: String,
    tracking_id: Attrs,
    context_tags: Attrs,
}

impl RunGroups {
    /// The groups of `run`.
    pub fn of(run: &RunInfo) -> RunGroups {
        let attrs = |kv: &[(String, String)]| -> Attrs {
            kv.iter().map(|(k, v)| (k.clone(), AttrValue::Text(v.clone()))).collect()
        };
        let run_id = run
            .tracking_id
            .iter()
            .find(|(k, _)| k == "run_id")
            .map_or_else(|| run.acquisition_id.clone(), |(_, v)| v.clone());
        RunGroups {
            run_id,
            tracking_id: attrs(&run.tracking_id),
            context_tags: attrs(&run.context_tags),
        }
    }
}

/// `read` (of a run whose groups are `groups`) as `pod5 convert to_fast5` writes a POD5
/// read: its attribute order and types, the calibration and rate as pod5 computes them from
/// the read and its run, the fields older POD5 tables lack as lib_pod5's migration fills them;
/// its samples moved in.
pub fn read_of(read: OntRead, groups: &RunGroups) -> NewRead {
    let OntRead { info, run, signal } = read;
    let read_id = info.read_id_string();
    let text = |s: &str| AttrValue::Text(s.to_string());
    let (labels, values): (Vec<String>, Vec<i64>) = end_reasons().into_iter().unzip();
    let at = labels.iter().position(|l| **l == *info.end_reason).unwrap_or(0);
    let float = |v: Option<f32>, missing: f64| v.map_or(missing, f64::from);
    let named = |list: Vec<(&str, AttrValue)>| -> Vec<(String, AttrValue)> {
        list.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    };
    let digitisation = run.digitisation();
    NewRead {
        read: named(vec![("run_id", text(&groups.run_id)), ("pore_type", text(&info.pore_type))]),
        channel_id: named(vec![
            ("digitisation", AttrValue::Float(digitisation)),
            ("offset", AttrValue::Float(f64::from(info.calibration_offset))),
            ("range", AttrValue::Float(digitisation * f64::from(info.calibration_scale))),
            ("sampling_rate", AttrValue::Float(f64::from(run.sample_rate))),
            ("channel_number", text(&info.channel.to_string())),
        ]),
        raw: named(vec![
            ("start_time", AttrValue::UInt(info.start_sample)),
            ("duration", AttrValue::UInt(signal.len() as u64)),
            ("read_number", AttrValue::Int(i64::from(info.read_number as i32))),
            ("start_mux", AttrValue::UInt(u64::from(info.well))),
            ("read_id", text(&read_id)),
            ("median_before", AttrValue::Float(f64::from(info.median_before))),
            (
                "end_reason",
                AttrValue::Enum {
                    label: Some(labels[at].clone()),
                    value: values[at],
                    labels,
                    values,
                },
            ),
            ("num_minknow_events", AttrValue::UInt(info.num_minknow_events.unwrap_or(0))),
            (
                "tracked_scaling_scale",
                AttrValue::Float(float(info.tracked_scaling_scale, f64::NAN)),
            ),
            (
                "tracked_scaling_shift",
                AttrValue::Float(float(info.tracked_scaling_shift, f64::NAN)),
            ),
            (
                "predicted_scaling_scale",
                AttrValue::Float(float(info.predicted_scaling_scale, f64::NAN)),
            ),
            (
                "predicted_scaling_shift",
                AttrValue::Float(float(info.predicted_scaling_shift, f64::NAN)),
            ),
            (
                "num_reads_since_mux_change",
                AttrValue::UInt(u64::from(info.num_reads_since_mux_change.unwrap_or(0))),
            ),
            ("time_since_mux_change", AttrValue::Float(float(info.time_since_mux_change, 0.0))),
        ]),
        read_id,
        tracking_id: groups.tracking_id.clone(),
        context_tags: groups.context_tags.clone(),
        signal,
    }
}

/// A FAST5 output of the model's reads ([`OntRead`]) as `pod5 convert to_fast5` writes them
/// ([`read_of`]), over any writer of FAST5 reads (`W`: a [`Writer`](crate::Writer), or
/// several files of one output): each run's groups made once, when its first read comes.
pub struct OntWriter<W> {
    inner: W,
    /// The groups of each run seen, with the run they were made of.
    runs: Vec<(Arc<RunInfo>, RunGroups)>,
}

impl<W> OntWriter<W> {
    /// The model's reads written into `inner`.
    pub fn new(inner: W) -> OntWriter<W> {
        OntWriter { inner, runs: Vec::new() }
    }

    /// The writer the reads went into (to finish it as it is finished).
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// Where the groups of `run` are in `runs`, made the first time a read names it.
    fn groups_of(&mut self, run: &Arc<RunInfo>) -> usize {
        match self.runs.iter().position(|(r, _)| Arc::ptr_eq(r, run) || **r == **run) {
            Some(at) => at,
            None => {
                self.runs.push((Arc::clone(run), RunGroups::of(run)));
                self.runs.len() - 1
            }
        }
    }
}

impl<W: ReadSink<Read = NewRead>> ReadSink for OntWriter<W> {
    type Error = W::Error;
    type Read = OntRead;

    fn format(&self) -> Format {
        Format::Fast5
    }

    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn samples(read: &OntRead) -> u64 {
        read.signal.len() as u64
    }

    fn check(&self, read: &OntRead) -> Result<(), W::Error> {
        // The groups without the samples: what a FAST5 writer checks of a read.
        let groups = RunGroups::of(&read.run);
        let empty =
            OntRead { info: read.info.clone(), run: Arc::clone(&read.run), signal: Vec::new() };
        self.inner.check(&read_of(empty, &groups))
    }

    fn add_reads(&mut self, reads: Vec<OntRead>) -> Result<(), W::Error> {
        let mut out = Vec::with_capacity(reads.len());
        for read in reads {
            let at = self.groups_of(&read.run);
            out.push(read_of(read, &self.runs[at].1));
        }
        self.inner.add_reads(out)
    }

    fn finish(self) -> Result<u64, W::Error> {
        self.inner.finish()
    }
}
