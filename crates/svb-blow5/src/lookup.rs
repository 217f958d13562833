//! Finding records by read id. An index that comes with the file (slow5lib's `FILE.idx`, a
//! side file: it may be another file's, or this file's before it was rewritten) only says
//! where a read should be. The record it leads to is read and its own id compared; where the
//! index leads to another record, or does not hold an id, the ids are read from the records
//! themselves (once: every later answer is theirs) and [`Reader::index_note`] says why. So a
//! lookup gives the answer the records give, whatever the index says: a read that is there
//! is found, one that is not is not, and no id ever leads to another read's record.

use std::sync::Arc;

use rayon::prelude::*;

use crate::{Blow5Error, Index, Reader, Record};

/// How a reader finds records by id.
#[derive(Debug, Default)]
pub(crate) struct Lookup {
    /// The index in use (none before the first lookup of a reader given none).
    index: Option<Arc<Index>>,
    /// Whether `index` was read from this reader's records (then its answers are theirs);
    /// otherwise it came with the file, and what it says is checked.
    from_records: bool,
    /// Why an index that came with the file was set aside.
    note: Option<String>,
}

impl Reader {
    /// Finds read ids through `index` (one that came with the file: slow5lib's `FILE.idx`)
    /// instead of reading every record's id on the first lookup. What it says is checked:
    /// see [`find_many`](Reader::find_many).
    pub fn use_index(&mut self, index: Index) {
        self.set_lookup(index, false);
    }

    /// Finds read ids through `index`, read from this file's records
    /// ([`Index::build`] of this reader): used as it is.
    pub(crate) fn use_own_index(&mut self, index: Index) {
        self.set_lookup(index, true);
    }

    fn set_lookup(&mut self, index: Index, from_records: bool) {
        let lookup = self.lookup.get_mut().unwrap_or_else(|e| e.into_inner());
        *lookup = Lookup { index: Some(Arc::new(index)), from_records, note: None };
    }

    /// The index lookups go through now: the one in use, or one read from the records
    /// (the first lookup of a reader given none).
    pub fn index_in_use(&self) -> Result<Arc<Index>, Blow5Error> {
        Ok(self.lookup_index()?.0)
    }

    /// Why the index that came with the file was set aside (it led to another record, or did
    /// not hold a read the records hold), when it was.
    pub fn index_note(&self) -> Option<String> {
        self.lookup.read().unwrap_or_else(|e| e.into_inner()).note.clone()
    }

    /// The record of each of `read_ids` (`None` where the file holds no such read), as the
    /// records themselves say. Through an index that came with the file
    /// ([`use_index`](Reader::use_index)), the records it names are fetched together (an
    /// object's, in one round trip) and each one's id is read and compared; where one is
    /// another read's, or an id is not in the index, the ids are read from every record
    /// instead (once: the reader keeps them) and [`index_note`](Reader::index_note) says
    /// why. An index whose positions are not the file's records (read through
    /// [`Reader::open_indexed`]) is then [`Blow5Error::IndexMisfit`]: the file must be opened
    /// without it.
    pub fn find_many(&self, read_ids: &[String]) -> Result<Vec<Option<usize>>, Blow5Error> {
        let (index, checked) = self.lookup_index()?;
        let places = |index: &Index| -> Vec<Option<usize>> {
            read_ids
                .iter()
                .map(|id| index.get(id).and_then(|(offset, size)| self.record_at(offset, size)))
                .collect()
        };
        let found = places(&index);
        if checked {
            return Ok(found);
        }
        let named: Vec<usize> = found.iter().flatten().copied().collect();
        self.plan(&named);
        let fits = read_ids
            .par_iter()
            .zip(&found)
            .all(|(id, &at)| at.is_some_and(|i| self.read_id(i).is_ok_and(|holds| holds == *id)));
        if fits {
            return Ok(found);
        }
        Ok(places(&*self.ids_from_records(&index)?))
    }

    /// The record of `read_id` (`None` when the file holds none), found as
    /// [`find_many`](Reader::find_many) finds it: only that record is decoded.
    pub fn record_by_id(&self, read_id: &str) -> Result<Option<Record>, Blow5Error> {
        match svb_model::ReadSource::find(self, read_id)? {
            Some(i) => self.record(i).map(Some),
            None => Ok(None),
        }
    }

    /// The index lookups go through, and whether it was read from the records.
    fn lookup_index(&self) -> Result<(Arc<Index>, bool), Blow5Error> {
        {
            let lookup = self.lookup.read().unwrap_or_else(|e| e.into_inner());
            if let Some(index) = &lookup.index {
                return Ok((index.clone(), lookup.from_records));
            }
        }
        let built = Arc::new(Index::build(self)?);
        let mut lookup = self.lookup.write().unwrap_or_else(|e| e.into_inner());
        let index = lookup.index.get_or_insert(built).clone();
        lookup.from_records = true;
        Ok((index, true))
    }

    /// Sets `given` (the index that came with the file) aside for the ids read from the
    /// records, saying why where they differ.
    fn ids_from_records(&self, given: &Index) -> Result<Arc<Index>, Blow5Error> {
        let built = Index::build(self).map_err(|e| Blow5Error::IndexMisfit {
            path: self.path().to_path_buf(),
            what: svb_io::error_chain(&e),
        })?;
        let note = given.difference(&built).map(|what| {
            format!(
                "{}: the index given with it does not fit its records ({what}): the read ids \
                 were read from the records instead",
                self.path().display()
            )
        });
        let built = Arc::new(built);
        let mut lookup = self.lookup.write().unwrap_or_else(|e| e.into_inner());
        *lookup = Lookup { index: Some(built.clone()), from_records: true, note };
        Ok(built)
    }

    /// Says to the reader that records `indices` are read next: an object's are fetched
    /// together (one round trip, not one a record); nothing for a file.
    pub fn plan(&self, indices: &[usize]) {
        if self.source().is_remote() {
            let plan: Vec<std::ops::Range<u64>> = indices
                .iter()
                .filter_map(|&i| self.record_span(i))
                .map(|(at, size)| at..at + size)
                .collect();
            let _ = self.source().prefetch(&plan);
        }
    }
}
