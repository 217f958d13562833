//! The tables of a POD5 file assembled into a reader: each checked as lib_pod5 checks it,
//! every read's signal rows checked against the signal table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use svb_io::Source;

use super::{Reader, TableVersion};
use crate::columns::TableError;
use crate::container::Footer;
use crate::error::{Pod5Error, TableKind};
use crate::ipc;
use crate::read::ReadRow;
use crate::reads;
use crate::run_info::{self};
use crate::schema;
use crate::signal::SignalTable;

use super::Signal;

/// The parsed tables a reader is built from (the signal table parsed, or its footer kept to
/// parse it when a read's signal is first asked for).
pub(super) struct Tables {
    pub(super) signal: Signal,
    pub(super) reads: ipc::IpcFile,
    pub(super) run_info: Option<ipc::IpcFile>,
}

/// The error of a table of `path`: a row's, or the whole table's.
pub(super) fn table_error(path: &Path, table: TableKind) -> impl Fn(TableError) -> Pod5Error + '_ {
    move |(row, what): TableError| match row {
        Some(row) => Pod5Error::Row { path: path.to_path_buf(), table, row, what },
        None => Pod5Error::Table { path: path.to_path_buf(), table, what },
    }
}

/// The writer's version in the footer: which layout the tables have (lib_pod5 migrates by
/// it).
pub(super) fn footer_version(path: &Path, footer: &Footer) -> Result<(u16, u16, u16), Pod5Error> {
    schema::parse_version(&footer.pod5_version).ok_or_else(|| Pod5Error::Container {
        path: path.to_path_buf(),
        offset: 0,
        what: format!(
            "footer pod5_version {:?} is not a version number (as 0.3.49)",
            footer.pod5_version
        ),
    })
}

/// A table's schema must carry the footer's file identifier when it carries one.
pub(super) fn check_identifier(
    path: &Path, footer: &Footer, table: TableKind, file: &ipc::IpcFile,
) -> Result<(), Pod5Error> {
    check_identifier_of(path, &footer.file_identifier, "the footer's", table, file)
}

/// A table's schema must carry the file identifier `want` (`whose` it is) when it carries one.
pub(super) fn check_identifier_of(
    path: &Path, want: &str, whose: &str, table: TableKind, file: &ipc::IpcFile,
) -> Result<(), Pod5Error> {
    match file.schema.metadata().get("MINKNOW:file_identifier") {
        Some(id) if id != want => Err(table_error(path, table)((
            None,
            format!("file identifier {id} differs from {whose} {want}"),
        ))),
        _ => Ok(()),
    }
}

impl Reader {
    /// The reader over parsed tables. With `drop_unwritten`, a read whose signal rows are not
    /// all in the signal table (a writer killed before it wrote them) is left out and counted
    /// (the second value) instead of failing the open.
    pub(super) fn from_tables(
        path: PathBuf, src: Source, footer: Footer, version: (u16, u16, u16), tables: Tables,
        keep: &dyn Fn(&[u8; 16]) -> bool, drop_unwritten: bool,
    ) -> Result<(Self, usize), Pod5Error> {
        let table_err = |table: TableKind| table_error(&path, table);
        let missing = |table: TableKind| table_err(table)((None, "missing from the footer".into()));
        let Tables { signal, reads: reads_file, run_info } = tables;
        schema::check_reads(&reads_file.schema, version)
            .map_err(|what| table_err(TableKind::Reads)((None, what)))?;
        let table_version = if reads_file.schema.column_with_name("pore").is_some() {
            TableVersion::V0
        } else {
            TableVersion::V1OrLater
        };
        // A reads table without sample counts (version 0) takes them from the signal table:
        // parsed now.
        let signal = match (&signal.footer, reads_file.schema.column_with_name("num_samples")) {
            (Some(f), None) if signal.table().is_none() => {
                Signal::parsed(f.parse(&src).map_err(table_err(TableKind::Signal))?)
            }
            _ => signal,
        };
        let samples = |r| signal.table().and_then(|t| t.samples(r));
        let (mut reads, embedded_runs) = reads::parse_reads(&reads_file.batches, samples, keep)
            .map_err(table_err(TableKind::Reads))?;
        let mut run_infos = match run_info {
            Some(f) => {
                check_identifier(&path, &footer, TableKind::RunInfo, &f)?;
                schema::check_run_info(&f.schema)
                    .map_err(|what| table_err(TableKind::RunInfo)((None, what)))?;
                run_info::parse_run_infos_batches(&f.batches)
                    .map_err(table_err(TableKind::RunInfo))?
            }
            None if schema::has_run_info_table(version) => {
                return Err(missing(TableKind::RunInfo));
            }
            None => Vec::new(),
        };
        for r in embedded_runs {
            if !run_infos.iter().any(|x| x.acquisition_id == r.acquisition_id) {
                run_infos.push(r);
            }
        }

        let mut rows = Vec::new();
        let mut dropped = 0;
        if let (true, Some(table)) = (drop_unwritten, signal.table()) {
            let before = reads.len();
            reads.retain(|read| read.signal_rows.iter().all(|&row| table.get(row).is_some()));
            dropped = before - reads.len();
        }
        let mut by_id = HashMap::with_capacity(reads.len());
        for (i, read) in reads.iter().enumerate() {
            by_id.entry(read.info.read_id).or_insert(i);
            // Against a table parsed at open; a deferred one checks every read when parsed.
            let Some(table) = signal.table() else { continue };
            check_layout(read, table, &mut rows).map_err(|what| Pod5Error::Row {
                path: path.clone(),
                table: TableKind::Reads,
                row: i as u64,
                what: format!("read {}: {what}", read.read_id_string()),
            })?;
        }
        Ok((Reader { path, src, footer, reads, by_id, signal, run_infos, table_version }, dropped))
    }
}

/// A read's signal rows must exist, have a sample count, be distinct, and their sample
/// counts add up to `num_samples`. `sorted` is scratch space, reused across reads.
pub(super) fn check_layout(
    read: &ReadRow, signal: &SignalTable, sorted: &mut Vec<u64>,
) -> Result<(), String> {
    let mut total = 0u64;
    for &row in &read.signal_rows {
        let Some(r) = signal.get(row) else {
            return Err(format!(
                "signal row {row} is past the signal table ({} rows)",
                signal.rows()
            ));
        };
        let Some(n) = r.samples else {
            return Err(format!("signal row {row} is null or has no sample count"));
        };
        total += u64::from(n);
    }
    if total != read.info.num_samples {
        return Err(format!(
            "num_samples is {}, its signal rows hold {total}",
            read.info.num_samples
        ));
    }
    sorted.clear();
    sorted.extend_from_slice(&read.signal_rows);
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("signal row {} is listed twice", w[0]));
    }
    Ok(())
}
