//! [`ReadRow`]: one read of the reads table, whatever the table's version; read ids as text.

use svb_model::ont::{uuid_string, ReadInfo};

/// One read of the reads table: the model's fields of the read ([`ReadInfo`]) and the rows of
/// the signal table that hold its samples.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReadRow {
    /// The read's fields (id, channel, calibration, run, ...).
    pub info: ReadInfo,
    /// Rows of the signal table holding the read's chunks, in signal order.
    pub signal_rows: Vec<u64>,
}

impl ReadRow {
    /// The read of the model's fields `info`, its chunks in signal rows `signal_rows`.
    pub fn of_info(info: ReadInfo, signal_rows: Vec<u64>) -> ReadRow {
        ReadRow { info, signal_rows }
    }

    /// The read id as a hyphenated lowercase UUID.
    pub fn read_id_string(&self) -> String {
        uuid_string(&self.info.read_id)
    }
}
