//! A FAST5 read's attributes: its groups looked up once, the attributes converters map read
//! and typed, every group's attributes kept.

use std::sync::Arc;

use hdf5_reader::error::Error as Hdf5Error;
use hdf5_reader::group::Group;

use super::*;
use crate::attrs::{value, AttrValue, Attrs};
use crate::Fast5Error;

/// The attribute `name` of `attrs` (a group's attributes, as [`ReadAttributes`] keeps them).
pub fn find<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a AttrValue> {
    attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

impl Reader {
    /// The attributes of the group at `path`, read once for every read that shares it.
    pub(super) fn attrs_at(&self, path: &str) -> Result<Attrs, Fast5Error> {
        let group = self.file.group(path).map_err(self.hdf5(path))?;
        self.attrs_of(&group, path)
    }

    fn attrs_of(&self, group: &Group, path: &str) -> Result<Attrs, Fast5Error> {
        let address = group.address();
        if let Some(a) = self.groups.lock().expect("not poisoned").get(&address) {
            return Ok(a.clone());
        }
        let attrs: Attrs = group
            .attributes()
            .map_err(self.hdf5(path))?
            .iter()
            .map(|a| (a.name.clone(), value(a)))
            .collect();
        self.groups.lock().expect("not poisoned").insert(address, attrs.clone());
        Ok(attrs)
    }

    /// The file's root attributes (`file_version`, ...).
    pub fn root_attributes(&self) -> Result<Attrs, Fast5Error> {
        self.attrs_at("/")
    }

    /// The groups of read `e`, each looked up once (a multi-read file's from its read group,
    /// not from the root, whose thousands of members make every lookup from it a B-tree
    /// walk).
    fn groups(&self, e: &Entry) -> Result<ReadGroups, Fast5Error> {
        // A lookup's group, `None` when the file has none there.
        let found = |looked: Result<Group, Hdf5Error>, path: &str| match looked {
            Ok(g) => Ok(Some(g)),
            Err(Hdf5Error::GroupNotFound(_)) => Ok(None),
            Err(source) => Err(self.hdf5(path)(source)),
        };
        let child = |parent: &Group, name: &str, path: String| {
            Ok(found(parent.group(name), &path)?.map(|g| (g, path)))
        };
        let missing = || Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: e.raw.clone(),
            what: "missing group".into(),
        };
        let (read, raw, shared) = match self.layout {
            Layout::MultiRead => {
                let read = match &e.handle {
                    Some(g) => g.clone(),
                    None => self.file.group(&e.group).map_err(self.hdf5(&e.group))?,
                };
                let raw = found(read.group("Raw"), &e.raw)?.ok_or_else(missing)?;
                (Some(read.clone()), raw, Some(read))
            }
            Layout::SingleRead => {
                let raw = found(self.file.group(&e.raw), &e.raw)?.ok_or_else(missing)?;
                let shared = found(self.file.group(&e.shared), &e.shared)?;
                (None, raw, shared)
            }
        };
        let of_shared = |name: &str| -> Result<Option<(Group, String)>, Fast5Error> {
            let path = format!("{}/{name}", e.shared);
            match &shared {
                Some(g) => child(g, name, path),
                None => Ok(None),
            }
        };
        Ok(ReadGroups {
            channel_id: of_shared("channel_id")?,
            tracking_id: of_shared("tracking_id")?,
            context_tags: of_shared("context_tags")?,
            read,
            raw,
        })
    }

    /// Read `index`'s attributes.
    pub fn read(&self, index: usize) -> Result<ReadAttributes, Fast5Error> {
        let e = self.entry(index)?;
        let groups = self.groups(e)?;
        self.read_in(e, &groups)
    }

    /// Read `index`'s attributes, and its signal into `out` (as
    /// [`signal_into`](Reader::signal_into)), its groups looked up once for both.
    pub fn read_with_signal(
        &self, index: usize, out: &mut Vec<i16>,
    ) -> Result<ReadAttributes, Fast5Error> {
        let e = self.entry(index)?;
        let groups = self.groups(e)?;
        let read = self.read_in(e, &groups)?;
        let path = format!("{}/Signal", e.raw);
        let ds = groups.raw.dataset("Signal").map_err(self.hdf5(path.clone()))?;
        self.signal_of(e, ds, path, out)?;
        Ok(read)
    }

    fn read_in(&self, e: &Entry, groups: &ReadGroups) -> Result<ReadAttributes, Fast5Error> {
        let channel_group = format!("{}/channel_id", e.shared);
        let attrs = |g: &Option<(Group, String)>| -> Result<Option<Attrs>, Fast5Error> {
            g.as_ref().map(|(g, path)| self.attrs_of(g, path)).transpose()
        };
        let raw = self.attrs_of(&groups.raw, &e.raw)?;
        let channel_id = attrs(&groups.channel_id)?.ok_or_else(|| Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: channel_group.clone(),
            what: "missing group".into(),
        })?;
        let none = || Arc::from(Vec::new());
        let tracking_id = attrs(&groups.tracking_id)?.unwrap_or_else(none);
        let context_tags = attrs(&groups.context_tags)?.unwrap_or_else(none);
        let read_group = match &groups.read {
            Some(g) => self.attrs_of(g, &e.group)?,
            None => none(),
        };
        let subgroups = match &groups.read {
            Some(g) => g.member_names().map_err(self.hdf5(e.group.clone()))?.0,
            None => Vec::new(),
        };
        let field = |group: &str, name: &str, what: &str| Fast5Error::Field {
            path: self.path.clone(),
            read: e.read_id.clone(),
            field: format!("{group}/{name}"),
            what: what.to_string(),
        };
        let raw_group = e.raw.as_str();
        fn get<'a>(
            attrs: &'a Attrs, name: &str, missing: impl FnOnce() -> Fast5Error,
        ) -> Result<&'a AttrValue, Fast5Error> {
            find(attrs, name).ok_or_else(missing)
        }
        let uint = |attrs: &Attrs, group: &str, name: &str| {
            let v = get(attrs, name, || field(group, name, "missing"))?;
            v.as_u64().ok_or_else(|| {
                field(group, name, &format!("not a non-negative integer ({})", v.described()))
            })
        };
        let float = |attrs: &Attrs, group: &str, name: &str| {
            let v = get(attrs, name, || field(group, name, "missing"))?;
            v.as_f64()
                .ok_or_else(|| field(group, name, &format!("not a number ({})", v.described())))
        };
        let read_id = match get(&raw, "read_id", || field(raw_group, "read_id", "missing"))? {
            AttrValue::Text(id) => id.clone(),
            v => {
                return Err(field(
                    raw_group,
                    "read_id",
                    &format!("not a string ({})", v.described()),
                ))
            }
        };
        if read_id != e.read_id {
            return Err(field(
                raw_group,
                "read_id",
                &format!("{read_id:?}, not the id its group is named after"),
            ));
        }
        let read_number = {
            let v = get(&raw, "read_number", || field(raw_group, "read_number", "missing"))?;
            v.as_i64().ok_or_else(|| {
                field(raw_group, "read_number", &format!("not an integer ({})", v.described()))
            })?
        };
        let median_before = match find(&raw, "median_before") {
            None => None,
            Some(v) => Some(v.as_f64().ok_or_else(|| {
                field(raw_group, "median_before", &format!("not a number ({})", v.described()))
            })?),
        };
        let end_reason = match find(&raw, "end_reason") {
            None => None,
            Some(AttrValue::Enum { label, value, labels, .. }) => Some(EndReason {
                label: label.clone(),
                value: Some(*value),
                labels: labels.clone(),
            }),
            Some(v @ (AttrValue::Int(_) | AttrValue::UInt(_))) => {
                Some(EndReason { label: None, value: v.as_i64(), labels: Vec::new() })
            }
            Some(AttrValue::Text(s)) => {
                Some(EndReason { label: Some(s.clone()), value: None, labels: Vec::new() })
            }
            Some(v) => {
                return Err(field(
                    raw_group,
                    "end_reason",
                    &format!("not an enum, integer or string ({})", v.described()),
                ))
            }
        };
        let missing = || field(&channel_group, "channel_number", "missing");
        let channel_number = match get(&channel_id, "channel_number", missing)? {
            AttrValue::Text(s) => s.clone(),
            v @ (AttrValue::Int(_) | AttrValue::UInt(_)) => v.to_text(),
            v => {
                return Err(field(
                    &channel_group,
                    "channel_number",
                    &format!("not a string ({})", v.described()),
                ))
            }
        };
        let run_id = match find(&read_group, "run_id").or_else(|| find(&tracking_id, "run_id")) {
            Some(AttrValue::Text(s)) => s.clone(),
            Some(v) => {
                return Err(field(&e.group, "run_id", &format!("not a string ({})", v.described())))
            }
            None => return Err(field(&e.group, "run_id", "missing (and in tracking_id)")),
        };
        let pore_type = match find(&read_group, "pore_type") {
            Some(AttrValue::Text(s)) => Some(s.clone()),
            Some(v) => {
                return Err(field(
                    &e.group,
                    "pore_type",
                    &format!("not a string ({})", v.described()),
                ))
            }
            None => None,
        };
        Ok(ReadAttributes {
            read_id,
            read_number,
            start_time: uint(&raw, raw_group, "start_time")?,
            duration: uint(&raw, raw_group, "duration")?,
            start_mux: uint(&raw, raw_group, "start_mux")?,
            median_before,
            end_reason,
            channel_number,
            digitisation: float(&channel_id, &channel_group, "digitisation")?,
            offset: float(&channel_id, &channel_group, "offset")?,
            range: float(&channel_id, &channel_group, "range")?,
            sampling_rate: float(&channel_id, &channel_group, "sampling_rate")?,
            run_id,
            pore_type,
            raw,
            channel_id,
            tracking_id,
            context_tags,
            read_group,
            subgroups,
        })
    }
}
