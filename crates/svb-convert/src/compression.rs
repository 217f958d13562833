//! [`Compression`]: how an output is compressed, whatever its format, each choice or the
//! format's default, and the SLOW5 rule.

use std::path::Path;

use svb_blow5::{RecordCompression, SignalCompression};
use svb_io::zstd_frame::Profile as ZstdProfile;
use svb_model::Format;

use crate::error::ConvertError;
use crate::run::Run;

/// How an output is compressed, whatever its format: each `None` takes the format's default
/// (BLOW5: slow5tools' zstd records and SVB-ZD signal). SLOW5 text has no compression: any
/// choice here is refused for it ([`Compression::check`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compression {
    /// BLOW5 record compression.
    pub records: Option<RecordCompression>,
    /// BLOW5 signal compression.
    pub signal: Option<SignalCompression>,
    /// zstd's decode-fast profile (raw literals: larger files that every reader decodes
    /// faster): a POD5 output's chunks, a BLOW5 output's zstd records.
    pub decode_fast: bool,
    /// FAST5 signal compression (default VBZ, as MinKNOW and `pod5 convert to_fast5`).
    pub fast5_signal: Option<svb_fast5::SignalFilter>,
    /// Samples a POD5 output's signal chunk holds at most (default 102,400, as lib_pod5;
    /// `pod5 convert --signal-chunk-size`).
    pub pod5_chunk_samples: Option<usize>,
    /// A POD5 output's signal compression (default VBZ; PDZ, ONT's second; or uncompressed).
    pub pod5_signal: Option<svb_pod5::SignalEncoding>,
    /// How a SLOW5 text output writes floating-point values (default exact; slow5lib's six
    /// decimals, as slow5tools writes them).
    pub float_text: svb_blow5::FloatText,
}

impl Compression {
    /// `Err` when `to` cannot be written with these choices (SLOW5 text, which has no
    /// compression, with any of them), naming `out`.
    pub fn check(&self, to: Format, out: &Path) -> Result<(), ConvertError> {
        let refused = |what: &str| Err(ConvertError::Mapping(format!("{}: {what}", out.display())));
        if to != Format::Pod5 && self.pod5_chunk_samples.is_some() {
            return refused("the signal chunk size is a .pod5 output's");
        }
        if to != Format::Pod5 && self.pod5_signal.is_some() {
            return refused(
                "POD5 signal compression (vbz, pdz, uncompressed) is for .pod5 outputs",
            );
        }
        if self.decode_fast && self.pod5_signal.is_some_and(|s| s != svb_pod5::SignalEncoding::Vbz)
        {
            return refused("the decode-fast profile is VBZ's (a POD5 output's) or zstd records'");
        }
        if self.pod5_chunk_samples.is_some_and(|n| n == 0 || n > u32::MAX as usize) {
            return refused("a signal chunk holds 1 to 4294967295 samples");
        }
        if to != Format::Slow5 && self.float_text != svb_blow5::FloatText::Exact {
            return refused("the float text form is a .slow5 output's");
        }
        let compressed = Compression { float_text: svb_blow5::FloatText::Exact, ..*self };
        if to == Format::Slow5 && compressed != Compression::default() {
            return refused(
                "SLOW5 text has no compression; record and signal compression and the \
                 decode-fast profile are for .blow5 and .pod5 outputs, FAST5 signal \
                 compression for .fast5",
            );
        }
        let blow5_or_pod5 = self.records.is_some() || self.signal.is_some() || self.decode_fast;
        if to == Format::Fast5 && blow5_or_pod5 {
            return refused(
                "a FAST5 output's signal is compressed by its HDF5 filter (VBZ, gzip or none); \
                 record and signal compression and the decode-fast profile are for .blow5 and \
                 .pod5 outputs",
            );
        }
        if to != Format::Fast5 && self.fast5_signal.is_some() {
            return refused("FAST5 signal compression is for .fast5 outputs");
        }
        Ok(())
    }

    /// A BLOW5 writer's `options` (a copy's: the input's compression) with these choices
    /// over them: record and signal compression where chosen, zstd's decode-fast profile
    /// where asked.
    pub(crate) fn over(&self, options: svb_blow5::WriteOptions) -> svb_blow5::WriteOptions {
        svb_blow5::WriteOptions {
            record_compression: self.records.unwrap_or(options.record_compression),
            signal_compression: self.signal.unwrap_or(options.signal_compression),
            zstd_profile: match self.decode_fast {
                true => ZstdProfile::DecodeFast,
                false => options.zstd_profile,
            },
            float_text: self.float_text,
            ..options
        }
    }

    fn profile(&self) -> ZstdProfile {
        match self.decode_fast {
            true => ZstdProfile::DecodeFast,
            false => ZstdProfile::Standard,
        }
    }

    /// The BLOW5 / SLOW5 writer's options for `to` (`Format::Slow5`: text).
    pub(crate) fn blow5(&self, to: Format, how: &Run<'_>) -> svb_blow5::WriteOptions {
        let options = match to {
            Format::Slow5 => svb_blow5::WriteOptions::slow5(),
            _ => {
                let default = svb_blow5::WriteOptions::default();
                svb_blow5::WriteOptions {
                    record_compression: self.records.unwrap_or(default.record_compression),
                    signal_compression: self.signal.unwrap_or(default.signal_compression),
                    zstd_profile: self.profile(),
                    ..default
                }
            }
        };
        svb_blow5::WriteOptions { publish: how.publish, float_text: self.float_text, ..options }
    }

    /// The FAST5 writer's options (its signal filter, VBZ by default), published as `how`
    /// says: what [`to_fast5_files`](crate::to_fast5_files) takes.
    pub fn fast5(&self, how: &Run<'_>) -> svb_fast5::WriteOptions {
        svb_fast5::WriteOptions {
            signal: self.fast5_signal.unwrap_or_default(),
            publish: how.publish,
        }
    }

    /// The POD5 writer's options.
    pub(crate) fn pod5(&self, how: &Run<'_>) -> svb_pod5::WriteOptions {
        let default = svb_pod5::WriteOptions::default();
        svb_pod5::WriteOptions {
            zstd_profile: self.profile(),
            chunk_samples: self.pod5_chunk_samples.unwrap_or(default.chunk_samples),
            signal_encoding: self.pod5_signal.unwrap_or(default.signal_encoding),
            publish: how.publish,
            ..default
        }
    }
}
