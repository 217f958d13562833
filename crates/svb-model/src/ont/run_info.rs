//! [`RunInfo`]: a run's fields, as ONT's formats hold them.

/// One acquisition (run) as ONT's formats describe it: a row of POD5's run-info table, a
/// BLOW5 read group's attributes (blue-crab's mapping), a FAST5 read's `tracking_id` and
/// `context_tags` (ONT's converter's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunInfo {
    /// The key reads refer to.
    pub acquisition_id: String,
    /// Milliseconds since the Unix epoch.
    pub acquisition_start_time_ms: i64,
    /// Largest ADC value.
    pub adc_max: i16,
    /// Smallest ADC value.
    pub adc_min: i16,
    /// Experiment name.
    pub experiment_name: String,
    /// Flow cell id.
    pub flow_cell_id: String,
    /// Flow cell product code.
    pub flow_cell_product_code: String,
    /// Protocol name.
    pub protocol_name: String,
    /// Protocol run id.
    pub protocol_run_id: String,
    /// Milliseconds since the Unix epoch.
    pub protocol_start_time_ms: i64,
    /// Sample id.
    pub sample_id: String,
    /// Samples per second.
    pub sample_rate: u16,
    /// Sequencing kit.
    pub sequencing_kit: String,
    /// Sequencer position.
    pub sequencer_position: String,
    /// Sequencer position type.
    pub sequencer_position_type: String,
    /// Acquisition software.
    pub software: String,
    /// System name.
    pub system_name: String,
    /// System type.
    pub system_type: String,
    /// Context tags, in stored order.
    pub context_tags: Vec<(String, String)>,
    /// Tracking ids, in stored order.
    pub tracking_id: Vec<(String, String)>,
}

impl RunInfo {
    /// The ADC's steps, `adc_max - adc_min + 1`: what FAST5 and BLOW5 call a read's
    /// digitisation (its calibration range over it is the POD5 scale).
    ///
    /// ```
    /// let mut run = svb_model::ont::RunInfo::default();
    /// (run.adc_min, run.adc_max) = (-4096, 4095);
    /// assert_eq!(run.digitisation(), 8192.0);
    /// ```
    pub fn digitisation(&self) -> f64 {
        f64::from(self.adc_max) - f64::from(self.adc_min) + 1.0
    }
}
