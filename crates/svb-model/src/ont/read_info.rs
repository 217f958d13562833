//! [`ReadInfo`]: a read's fields as ONT's formats hold them (POD5's reads table row, but where
//! its signal is stored).

use std::sync::Arc;

/// A read's fields as ONT's formats hold them: POD5's reads table row without its signal's
/// place, what a BLOW5 record's primary and auxiliary fields (blue-crab's mapping) and a FAST5
/// read's groups (ONT's converter's) map to and from. A field a file does not hold takes
/// ONT's writer's value for an unknown one ([`ReadInfo::new`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadInfo {
    /// The read's UUID (16 bytes; [`ReadInfo::read_id_string`] formats it).
    pub read_id: [u8; 16],
    /// MinKNOW's read number.
    pub read_number: u32,
    /// Sample index of the read's start since the acquisition began.
    pub start_sample: u64,
    /// Current level before the read (pA).
    pub median_before: f32,
    /// Number of samples (from the `num_samples` column; version 0 files lack it and get the
    /// sum of the signal rows' counts).
    pub num_samples: u64,
    /// Channel (the 32-bit column of newer writers when present).
    pub channel: u32,
    /// Well.
    pub well: u8,
    /// Pore type.
    pub pore_type: Arc<str>,
    /// Calibration: picoamps = (adc + offset) * scale.
    pub calibration_offset: f32,
    /// Calibration scale.
    pub calibration_scale: f32,
    /// Why the read ended.
    pub end_reason: Arc<str>,
    /// Whether the end was forced.
    pub end_reason_forced: bool,
    /// The acquisition id of the read's run (key into its [`RunInfo`](crate::ont::RunInfo)).
    pub run_info: Arc<str>,
    /// MinKNOW events (table version 1 and later).
    pub num_minknow_events: Option<u64>,
    /// Tracked scaling scale (version 1+).
    pub tracked_scaling_scale: Option<f32>,
    /// Tracked scaling shift (version 1+).
    pub tracked_scaling_shift: Option<f32>,
    /// Predicted scaling scale (version 1+).
    pub predicted_scaling_scale: Option<f32>,
    /// Predicted scaling shift (version 1+).
    pub predicted_scaling_shift: Option<f32>,
    /// Reads since the last mux change (version 1+).
    pub num_reads_since_mux_change: Option<u32>,
    /// Seconds since the last mux change (version 1+).
    pub time_since_mux_change: Option<f32>,
    /// Open pore level (version 3+).
    pub open_pore_level: Option<f32>,
    /// Expected open pore level (pod5 0.3.49 writers).
    pub expected_open_pore_level: Option<f32>,
    /// Selected read level (pod5 0.3.49 writers).
    pub selected_read_level: Option<f32>,
}

impl ReadInfo {
    /// A read of id `read_id` in run `run_info` (its acquisition id), every other field as
    /// ONT's writer fills an unknown one: no samples, read number, start, channel and well 0,
    /// pore type `not_set`, calibration offset 0 and scale 1, end reason `unknown` (not
    /// forced), median before and the levels and scalings NaN, the counters 0. Set the public
    /// fields that are known.
    ///
    /// ```
    /// use svb_model::ont::ReadInfo;
    /// let mut read = ReadInfo::new([7; 16], "run-1");
    /// read.channel = 412;
    /// assert_eq!(&*read.end_reason, "unknown");
    /// assert_eq!(read.read_id_string(), "07070707-0707-0707-0707-070707070707");
    /// ```
    pub fn new(read_id: [u8; 16], run_info: impl Into<Arc<str>>) -> ReadInfo {
        ReadInfo {
            read_id,
            read_number: 0,
            start_sample: 0,
            median_before: f32::NAN,
            num_samples: 0,
            channel: 0,
            well: 0,
            pore_type: Arc::from("not_set"),
            calibration_offset: 0.0,
            calibration_scale: 1.0,
            end_reason: Arc::from("unknown"),
            end_reason_forced: false,
            run_info: run_info.into(),
            num_minknow_events: Some(0),
            tracked_scaling_scale: Some(f32::NAN),
            tracked_scaling_shift: Some(f32::NAN),
            predicted_scaling_scale: Some(f32::NAN),
            predicted_scaling_shift: Some(f32::NAN),
            num_reads_since_mux_change: Some(0),
            time_since_mux_change: Some(0.0),
            open_pore_level: Some(f32::NAN),
            expected_open_pore_level: Some(f32::NAN),
            selected_read_level: Some(f32::NAN),
        }
    }

    /// The read id as a hyphenated lowercase UUID.
    pub fn read_id_string(&self) -> String {
        super::uuid_string(&self.read_id)
    }
}

/// Whether MinKNOW marks an end reason forced (blue-crab's table): what a format that does
/// not carry the flag (a BLOW5 record, a FAST5 read) gives.
///
/// ```
/// assert!(svb_model::ont::forced("mux_change"));
/// assert!(!svb_model::ont::forced("signal_positive"));
/// ```
pub fn forced(end_reason: &str) -> bool {
    matches!(end_reason, "mux_change" | "unblock_mux_change" | "data_service_unblock_mux_change")
}
