//! [`ReadRow`]: one read of the reads table, whatever the table's version; read ids as text.

use std::sync::Arc;

use svb_model::ont::{uuid_string, ReadInfo};

/// One read of the reads table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReadRow {
    /// The read's UUID (16 bytes; [`ReadRow::read_id_string`] formats it).
    pub read_id: [u8; 16],
    /// Rows of the signal table holding the read's chunks, in signal order.
    pub signal_rows: Vec<u64>,
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
    /// The acquisition id of the read's run (key into [`RunInfo`](crate::RunInfo)).
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

impl ReadRow {
    /// A read to write: its id and the acquisition id of its run (a [`RunInfo`](crate::RunInfo) added to the
    /// writer), every other field as ONT's writer fills an unknown one: no samples, read
    /// number, start, channel and well 0, pore type `not_set`, calibration offset 0 and scale
    /// 1, end reason `unknown` (not forced), median before and the levels and scalings NaN,
    /// the counters 0. Set the public fields that are known.
    ///
    /// ```
    /// use svb_pod5::ReadRow;
    /// let mut read = ReadRow::new([7; 16], "run-1");
    /// read.channel = 412;
    /// read.num_samples = 4000;
    /// assert_eq!(&*read.end_reason, "unknown");
    /// ```
    pub fn new(read_id: [u8; 16], run_info: impl Into<Arc<str>>) -> ReadRow {
        ReadRow::of_info(ReadInfo::new(read_id, run_info), Vec::new())
    }

    /// The read of the model's fields `info`, its chunks in signal rows `signal_rows`. Every
    /// field is named, so a field added to either fails to compile here until it is copied.
    pub fn of_info(info: ReadInfo, signal_rows: Vec<u64>) -> ReadRow {
        let ReadInfo {
            read_id,
            read_number,
            start_sample,
            median_before,
            num_samples,
            channel,
            well,
            pore_type,
            calibration_offset,
            calibration_scale,
            end_reason,
            end_reason_forced,
            run_info,
            num_minknow_events,
            tracked_scaling_scale,
            tracked_scaling_shift,
            predicted_scaling_scale,
            predicted_scaling_shift,
            num_reads_since_mux_change,
            time_since_mux_change,
            open_pore_level,
            expected_open_pore_level,
            selected_read_level,
        } = info;
        ReadRow {
            signal_rows,
            read_id,
            read_number,
            start_sample,
            median_before,
            num_samples,
            channel,
            well,
            pore_type,
            calibration_offset,
            calibration_scale,
            end_reason,
            end_reason_forced,
            run_info,
            num_minknow_events,
            tracked_scaling_scale,
            tracked_scaling_shift,
            predicted_scaling_scale,
            predicted_scaling_shift,
            num_reads_since_mux_change,
            time_since_mux_change,
            open_pore_level,
            expected_open_pore_level,
            selected_read_level,
        }
    }

    /// The read's fields as the model holds them ([`ReadInfo`]): all but its signal rows.
    pub fn info(&self) -> ReadInfo {
        ReadInfo {
            read_id: self.read_id,
            read_number: self.read_number,
            start_sample: self.start_sample,
            median_before: self.median_before,
            num_samples: self.num_samples,
            channel: self.channel,
            well: self.well,
            pore_type: Arc::clone(&self.pore_type),
            calibration_offset: self.calibration_offset,
            calibration_scale: self.calibration_scale,
            end_reason: Arc::clone(&self.end_reason),
            end_reason_forced: self.end_reason_forced,
            run_info: Arc::clone(&self.run_info),
            num_minknow_events: self.num_minknow_events,
            tracked_scaling_scale: self.tracked_scaling_scale,
            tracked_scaling_shift: self.tracked_scaling_shift,
            predicted_scaling_scale: self.predicted_scaling_scale,
            predicted_scaling_shift: self.predicted_scaling_shift,
            num_reads_since_mux_change: self.num_reads_since_mux_change,
            time_since_mux_change: self.time_since_mux_change,
            open_pore_level: self.open_pore_level,
            expected_open_pore_level: self.expected_open_pore_level,
            selected_read_level: self.selected_read_level,
        }
    }

    /// This read with `signal_rows` in place of its own: what the writer queues for the reads
    /// table, without copying the row list it replaces.
    pub(crate) fn with_rows(&self, signal_rows: Vec<u64>) -> ReadRow {
        ReadRow::of_info(self.info(), signal_rows)
    }

    /// The read id as a hyphenated lowercase UUID.
    pub fn read_id_string(&self) -> String {
        uuid_string(&self.read_id)
    }
}
