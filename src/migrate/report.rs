//! The report `migrate --format json` prints, written straight out instead of built as one
//! `serde_json::Value`: a step that touches 60k parts has 60k path changes, and as `Value`
//! objects (a B-tree node each) they cost more than the result itself. The text is the same
//! byte for byte as [`Migration::report`] pretty-printed: keys come in byte order because
//! each small piece goes through a `Value` on its own, and the big ones (the result, the
//! lists) are written in the order a `Value` would write them.

use super::stepper::{Migration, StepRun};
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// Writes [`Migration::report`] as pretty JSON (two-space indent, as
/// `serde_json::to_string_pretty` writes it) into `out`.
pub fn write_report(migration: &Migration, out: impl std::io::Write) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::pretty(out);
    Report(migration).serialize(&mut serializer)
}

/// A small piece serialized through a `Value`, so its object keys come out sorted as in the
/// report built as one `Value` (a derived `Serialize` writes fields in declaration order).
struct Sorted<'a, T>(&'a T);

impl<T: Serialize> Serialize for Sorted<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::to_value(self.0)
            .map_err(S::Error::custom)?
            .serialize(serializer)
    }
}

/// A list whose elements go through [`Sorted`] one at a time.
struct EachSorted<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for EachSorted<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&Sorted(item))?;
        }
        seq.end()
    }
}

struct Report<'a>(&'a Migration);

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let migration = self.0;
        // Keys in byte order, as a `Value` object holds them.
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("detected", &Sorted(&migration.detection))?;
        map.serialize_entry("direction", &Sorted(&migration.direction))?;
        map.serialize_entry("findings", &EachSorted(&migration.findings))?;
        map.serialize_entry::<str, Value>("result", &migration.result)?;
        map.serialize_entry("steps", &Steps(&migration.steps))?;
        map.serialize_entry("warnings", &EachSorted(&migration.warnings))?;
        map.end()
    }
}

struct Steps<'a>(&'a [StepRun]);

impl Serialize for Steps<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for run in self.0 {
            seq.serialize_element(&Step(run))?;
        }
        seq.end()
    }
}

/// One step as [`Migration::report`] lists it.
struct Step<'a>(&'a StepRun);

impl Serialize for Step<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let run = self.0;
        let mut map = serializer.serialize_map(Some(8))?;
        map.serialize_entry("advisory", &run.step.advisory)?;
        map.serialize_entry("after_digest", &Sorted(&run.after_digest()))?;
        map.serialize_entry("before_digest", &Sorted(&run.before_digest()))?;
        map.serialize_entry("choice", &Sorted(&run.choice))?;
        map.serialize_entry("id", run.step.id)?;
        map.serialize_entry("lossy", &run.step.lossy)?;
        map.serialize_entry("paths", &EachSorted(&run.changes))?;
        map.serialize_entry("title", run.step.title)?;
        map.end()
    }
}
