//! [`degrade`]: slow5tools' lossy compression of a BLOW5 or SLOW5 file (and of a POD5 file,
//! into POD5). Every sample's `b`
//! least significant bits are rounded away (to the nearest multiple of 2^b, halves up), and the
//! file is written again, by default with zlib records and ex-zd signal, which store the
//! zeroed bits in nothing: about half the size, with no loss in basecalling or modification
//! calls at the bits slow5tools suggests (Jayasooriya et al., Genome Research 2025). `b` is
//! given, or chosen from the header as slow5tools chooses it ([`suggest_bits`]: device type,
//! sample rate, sequencing kit and experiment type of every read group), each record then
//! checked against that dataset's digitisation and sampling rate.

use std::path::Path;

use svb_blow5::{Header, Record, RecordCompression, SignalCompression};
use svb_model::ont::OntRead;
use svb_model::Format;

use crate::blow5_headers::merged_schema;
use crate::blow5_headers::HeaderRules;
use crate::error::ConvertError;
use crate::run::look_at_inputs;
use crate::run::{Run, Stats};
use crate::windows::{all_reads, into_sink, ont_steps_editing};

/// One of slow5tools' datasets: what its header says and the bits it suggests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dataset {
    /// Its name, as slow5tools logs it ("DNA lsk114 5kHz PromethION").
    pub name: &'static str,
    device_type: &'static str,
    sequencing_kit: &'static str,
    experiment_type: &'static str,
    sample_frequency: &'static str,
    sampling_rate: f32,
    digitisation: f32,
    /// The bits slow5tools eliminates for it.
    pub bits: u8,
}

const fn dataset(
    name: &'static str, device_type: &'static str, digitisation: f32,
    kit: (&'static str, &'static str), frequency: (&'static str, f32), bits: u8,
) -> Dataset {
    Dataset {
        name,
        device_type,
        sequencing_kit: kit.0,
        experiment_type: kit.1,
        sample_frequency: frequency.0,
        sampling_rate: frequency.1,
        digitisation,
        bits,
    }
}

const DNA: &str = "genomic_dna";
const RNA: &str = "rna";
const MINION: f32 = 8192.0;
const PROMETHION: f32 = 2048.0;
const KHZ3: (&str, f32) = ("3000", 3000.0);
const KHZ4: (&str, f32) = ("4000", 4000.0);
const KHZ5: (&str, f32) = ("5000", 5000.0);

/// slow5tools' table (src/degrade.h), in its order: the first whose header matches is taken.
pub const DATASETS: [Dataset; 14] = [
    dataset("DNA lsk114 5kHz MinION", "minion", MINION, ("sqk-lsk114", DNA), KHZ5, 3),
    dataset("DNA lsk114 5kHz GridION", "gridion", MINION, ("sqk-lsk114", DNA), KHZ5, 3),
    dataset("DNA lsk109 4kHz PromethION", "promethion", PROMETHION, ("sqk-lsk109", DNA), KHZ4, 2),
    dataset(
        "DNA lsk109 4kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-lsk109", DNA),
        KHZ4,
        2,
    ),
    dataset("DNA lsk114 4kHz PromethION", "promethion", PROMETHION, ("sqk-lsk114", DNA), KHZ4, 3),
    dataset(
        "DNA lsk114 4kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-lsk114", DNA),
        KHZ4,
        3,
    ),
    dataset("DNA lsk114 5kHz PromethION", "promethion", PROMETHION, ("sqk-lsk114", DNA), KHZ5, 3),
    dataset(
        "DNA lsk114 5kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-lsk114", DNA),
        KHZ5,
        3,
    ),
    dataset("RNA rna002 3kHz PromethION", "promethion", PROMETHION, ("sqk-rna002", RNA), KHZ3, 2),
    dataset(
        "RNA rna002 3kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-rna002", RNA),
        KHZ3,
        2,
    ),
    dataset("RNA rna004 4kHz PromethION", "promethion", PROMETHION, ("sqk-rna004", RNA), KHZ4, 3),
    dataset(
        "RNA rna004 4kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-rna004", RNA),
        KHZ4,
        3,
    ),
    dataset("DNA ulk114 5kHz PromethION", "promethion", PROMETHION, ("sqk-ulk114", DNA), KHZ5, 3),
    dataset(
        "DNA ulk114 5kHz PromethION 2 Solo",
        "p2_solo",
        PROMETHION,
        ("sqk-ulk114", DNA),
        KHZ5,
        3,
    ),
];

/// Read groups' attributes, as a BLOW5 header holds them.
type Groups = [Vec<(String, String)>];

/// Read group `group`'s attribute `key` as slow5lib keeps it: absent is `None`, `.` the empty
/// text.
fn attribute<'a>(groups: &'a Groups, group: usize, key: &str) -> Option<&'a str> {
    let (_, value) = groups.get(group)?.iter().find(|(k, _)| k == key)?;
    Some(crate::blow5_headers::attribute_value(value))
}

/// Whether every read group's `key` is `want`.
fn every_group_says(groups: &Groups, key: &str, want: &str) -> bool {
    (0..groups.len()).all(|g| attribute(groups, g, key) == Some(want))
}

impl Dataset {
    /// Whether `header` is this dataset's, as slow5tools decides it: device type, sequencing
    /// kit and experiment type in every read group, and the sample frequency (or, where the
    /// first read group has none, the sample rate; where it has both, both).
    fn is_of(&self, groups: &Groups) -> bool {
        let frequency = match attribute(groups, 0, "sample_frequency") {
            None => every_group_says(groups, "sample_rate", self.sample_frequency),
            Some(_) => {
                every_group_says(groups, "sample_frequency", self.sample_frequency)
                    && (attribute(groups, 0, "sample_rate").is_none()
                        || every_group_says(groups, "sample_rate", self.sample_frequency))
            }
        };
        every_group_says(groups, "device_type", self.device_type)
            && frequency
            && every_group_says(groups, "sequencing_kit", self.sequencing_kit)
            && every_group_says(groups, "experiment_type", self.experiment_type)
    }

    /// Whether a read of this `digitisation` and `sampling_rate` is of this dataset (compared
    /// as slow5tools compares a record's: with the table's 32-bit floats).
    fn holds(&self, digitisation: f64, sampling_rate: f64) -> bool {
        digitisation == f64::from(self.digitisation)
            && sampling_rate == f64::from(self.sampling_rate)
    }
}

/// The dataset `header` is, as slow5tools recognises it, and so the bits to eliminate; `None`
/// when it is none of [`DATASETS`] (bits must then be given).
pub fn suggest_bits(header: &Header) -> Option<&'static Dataset> {
    suggest_for(&header.read_groups)
}

fn suggest_for(groups: &Groups) -> Option<&'static Dataset> {
    DATASETS.iter().find(|d| d.is_of(groups))
}

/// Rounds each sample to the nearest multiple of 2^`bits` (a remainder of half or more rounds
/// up), which zeroes its `bits` least significant bits; `bits` 0 leaves them. slow5lib's
/// rounding, except at the top of the range: where rounding up would pass `i16::MAX` (which
/// slow5lib wraps to a negative sample) the sample rounds down instead.
///
/// ```
/// let mut s = [5i16, 6, -5, -6, 32767];
/// svb_convert::round_low_bits(&mut s, 2);
/// assert_eq!(s, [4, 8, -4, -4, 32764]); // halves round up: -6 to -4
/// ```
pub fn round_low_bits(samples: &mut [i16], bits: u8) {
    if bits == 0 {
        return;
    }
    let bits = u32::from(bits.min(16));
    let mask = (1i32 << bits) - 1;
    let half = 1i32 << (bits - 1);
    for s in samples {
        let x = i32::from(*s);
        let down = x & !mask;
        let rounded = if x & mask < half { down } else { down + (1 << bits) };
        *s = i16::try_from(rounded).unwrap_or(down as i16);
    }
}

/// What a degrade wrote.
#[derive(Debug)]
pub struct Degraded {
    /// Reads and samples written.
    pub stats: Stats,
    /// The bits eliminated.
    pub bits: u8,
    /// The dataset the header was recognised as, when the bits were chosen from it.
    pub dataset: Option<&'static Dataset>,
}

/// The reads of the BLOW5 or SLOW5 file `input` with each sample's `bits` least significant
/// bits rounded away ([`round_low_bits`]) into `out`, as `slow5tools degrade` makes it (byte
/// for byte, for the same choices): its header as it is, records compressed with `records`
/// and `signal` (default zlib and ex-zd, slow5tools' defaults), or SLOW5 text for a `.slow5`
/// output. `bits` (1 to 16) is chosen from the header when `None` ([`suggest_bits`]), and then
/// every record must have that dataset's digitisation and sampling rate. Published as
/// `how.publish` says; a record that fails stops it, or is left out, as `how.on_error` says.
///
/// ```no_run
/// use svb_convert::{degrade, Run};
/// let got = degrade("reads.blow5".as_ref(), "small.blow5".as_ref(), None, None, None, Run::default())?;
/// println!("{} bits of {} reads", got.bits, got.stats.reads);
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn degrade(
    input: &Path, out: &Path, bits: Option<u8>, records: Option<RecordCompression>,
    signal: Option<SignalCompression>, how: Run<'_>,
) -> Result<Degraded, ConvertError> {
    if let Some(b) = bits {
        if !(1..=16).contains(&b) {
            return Err(ConvertError::Mapping(format!("{b} bits: eliminate 1 to 16")));
        }
    }
    let to = Format::of_output(out)?;
    let from = svb_reads::detect(input)?;
    if from == Format::Pod5 || to == Format::Pod5 {
        if from != to || records.is_some() || signal.is_some() {
            return Err(ConvertError::Mapping(format!(
                "{}: a POD5 is degraded into a POD5 (VBZ, which has no compression to choose); \
                 BLOW5 or SLOW5 into BLOW5 or SLOW5",
                out.display()
            )));
        }
        return degrade_pod5(input, out, bits, how);
    }
    if !matches!(to, Format::Blow5 | Format::Slow5) || from == Format::Fast5 {
        return Err(ConvertError::Mapping(format!(
            "{}: degrade writes BLOW5 or SLOW5 text (.blow5, .slow5) of BLOW5 or SLOW5, and POD5 \
             of POD5",
            out.display()
        )));
    }
    // SLOW5 text has no compression: the rule every operation's output follows.
    let decode_fast = false;
    crate::compression::Compression { records, signal, decode_fast, ..Default::default() }
        .check(to, out)?;
    let open = |p: &Path| svb_blow5::Reader::open(p);
    let mut header = None;
    let look = |r: &svb_blow5::Reader, _: &Path| {
        header = Some(r.header().clone());
        Ok(())
    };
    let inputs = [input.to_path_buf()];
    let (looked, stats) = look_at_inputs(&inputs, out, how.on_error, open, look)?;
    let header = header.expect("the input was looked at");
    let in_file = ConvertError::of(input);
    let (dataset, bits) = match bits {
        Some(b) => (None, b),
        None => {
            let d = suggest_bits(&header).ok_or_else(|| {
                in_file(ConvertError::Mapping(
                    "its header is none of the datasets whose bits are known (device_type, \
                     sample_frequency or sample_rate, sequencing_kit, experiment_type in every \
                     read group); give the bits (--bits)"
                        .into(),
                ))
            })?;
            (Some(d), d.bits)
        }
    };
    let headers = [(&header, input)];
    let (schema, _) = merged_schema(&headers, HeaderRules::default())?;
    let options = match to {
        Format::Slow5 => svb_blow5::WriteOptions::slow5(),
        _ => svb_blow5::WriteOptions {
            record_compression: records.unwrap_or(RecordCompression::Zlib),
            signal_compression: signal.unwrap_or(SignalCompression::ExZd),
            ..svb_blow5::WriteOptions::default()
        },
    };
    let options =
        svb_blow5::WriteOptions { publish: how.publish, ..options }.versioned_like(header.version);
    let mut w = svb_blow5::Writer::create(out, schema, options)?;
    let convert = |_: usize, r: &svb_blow5::Reader, i: usize| {
        let mut rec = Record::default();
        r.record_into(i, &mut rec)?;
        if let Some(d) = dataset {
            if !d.holds(rec.digitisation, rec.sampling_rate) {
                return Err(ConvertError::Mapping(format!(
                    "read {}: digitisation {} and sampling rate {} are not {}'s ({} and {})",
                    rec.read_id,
                    rec.digitisation,
                    rec.sampling_rate,
                    d.name,
                    d.digitisation,
                    d.sampling_rate
                )));
            }
        }
        round_low_bits(&mut rec.raw_signal, bits);
        Ok(rec)
    };
    let steps = crate::windows::every_read(convert);
    let looked = crate::windows::all_reads(looked);
    let stats = crate::windows::into_sink(&looked, open, stats, how, steps, &mut w)?;
    w.finish()?;
    Ok(Degraded { stats, bits, dataset })
}

/// [`degrade`] of a POD5 file into a POD5 file: every read's samples rounded, compressed with
/// VBZ again, every field and run kept; the dataset (when `bits` is `None`) recognised from
/// the runs as blue-crab writes them into a BLOW5 header, each read checked against its
/// digitisation (the run's ADC range) and sample rate.
fn degrade_pod5(
    input: &Path, out: &Path, bits: Option<u8>, how: Run<'_>,
) -> Result<Degraded, ConvertError> {
    let on_error = how.on_error;
    let open = |p: &Path| svb_pod5::Reader::open(p);
    let inputs = [input.to_path_buf()];
    let (looked, mut stats) = look_at_inputs(&inputs, out, on_error, open, |_, _| Ok(()))?;
    let in_file = ConvertError::of(input);
    let Some(r) = looked[0].reopen(open, on_error, &mut stats.failed)? else {
        return Err(stats.failed.remove(0));
    };
    let groups: Vec<Vec<(String, String)>> = r
        .run_infos()
        .iter()
        .map(svb_blow5::ont::read_group_of)
        .collect::<Result<_, _>>()
        .map_err(|e| in_file(e.into()))?;
    let (dataset, bits) = match bits {
        Some(b) => (None, b),
        None => {
            let d = suggest_for(&groups).ok_or_else(|| {
                in_file(ConvertError::Mapping(
                    "its runs are none of the datasets whose bits are known (device type, \
                     sample rate, sequencing kit, experiment type of every run); give the bits \
                     (--bits)"
                        .into(),
                ))
            })?;
            (Some(d), d.bits)
        }
    };
    let mut w = svb_pod5::Writer::create(
        out,
        svb_pod5::WriteOptions { publish: how.publish, ..svb_pod5::WriteOptions::default() },
    )?;
    // Every run of the input, reads or not, in its order.
    for run in r.run_infos() {
        w.add_run_info(run).map_err(|e| in_file(e.into()))?;
    }
    drop(r);
    // Each read checked against its run's digitisation and sample rate.
    let check = |read: &OntRead| match dataset {
        Some(d) if !d.holds(read.run.digitisation(), f64::from(read.run.sample_rate)) => {
            Err(ConvertError::Mapping(format!(
                "read {}: digitisation {} and sample rate {} are not {}'s ({} and {})",
                read.info.read_id_string(),
                read.run.digitisation(),
                read.run.sample_rate,
                d.name,
                d.digitisation,
                d.sampling_rate
            )))
        }
        _ => Ok(()),
    };
    let mut failed = Vec::new();
    let edit = |samples: &mut [i16]| round_low_bits(samples, bits);
    let steps = ont_steps_editing(usize::MAX, edit, check, how.on_error, &mut failed);
    let mut stats = into_sink(&all_reads(looked), open, stats, how, steps, &mut w)?;
    stats.failed.append(&mut failed);
    w.finish()?;
    Ok(Degraded { stats, bits, dataset })
}

#[cfg(test)]
mod tests {
    use super::round_low_bits;

    /// slow5lib's round_to_power_of_2, as C computes it in int, truncated to int16_t.
    fn slow5lib(x: i16, b: u32) -> i16 {
        let x = i32::from(x);
        let mask = (1i32 << b) - 1;
        let r = if x & mask < (1 << (b - 1)) { x & !mask } else { (x & !mask) + (1 << b) };
        r as i16
    }

    #[test]
    fn rounding_is_slow5libs_below_the_top_of_the_range() {
        for b in 1..=16u32 {
            for x in i16::MIN..=i16::MAX {
                let mut got = [x];
                round_low_bits(&mut got, b as u8);
                let want = slow5lib(x, b);
                let wrapped =
                    i32::from(x) > 0 && want < 0 && b < 16 || (b == 16 && x > 0 && want != 0);
                if wrapped {
                    // slow5lib wraps past i16::MAX; the largest multiple below is kept.
                    assert!(got[0] >= 0 && got[0] <= x, "{x} {b}: {}", got[0]);
                    assert_eq!(i32::from(got[0]) & ((1 << b) - 1), 0);
                } else {
                    assert_eq!(got[0], want, "{x} {b}");
                }
            }
        }
    }
}
