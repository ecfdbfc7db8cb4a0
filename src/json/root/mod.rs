//! Reading a JSON text's root without building its tree. serde_json's tree of an array of a
//! million small objects costs about 50 times the text (a B-tree node per object), and a
//! text whose root is not an object needs no tree to be classified (only objects carry
//! another kind's evidence) or refused by the adapter and the migration. The check below
//! walks the text with serde_json's own parser, as [`serde_json::Value`] is read (the same
//! grammar, recursion limit, number range and messages), keeping nothing.

use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The type of a JSON value, as [`super::type_name`] names a parsed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    /// `a string`, `an array`, `null`... (as [`super::type_with_article`]).
    pub fn with_article(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Bool => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "an array",
            JsonType::Object => "an object",
        }
    }
}

/// A JSON text read as far as its readers need: the tree of an object root, only the type
/// of any other, or of an object whose tree would pass [`tree_cap`] (valid JSON all the
/// same: the text was read to its end).
#[derive(Debug)]
pub enum RootReading {
    Object(Value),
    Other(JsonType),
    /// An object root whose tree would take more than `cap` bytes: it was read and checked,
    /// not kept.
    ObjectOverCap {
        cap: usize,
    },
}

impl RootReading {
    pub fn json_type(&self) -> JsonType {
        match self {
            RootReading::Object(_) | RootReading::ObjectOverCap { .. } => JsonType::Object,
            RootReading::Other(json_type) => *json_type,
        }
    }

    pub fn tree(&self) -> Option<&Value> {
        match self {
            RootReading::Object(value) => Some(value),
            RootReading::Other(_) | RootReading::ObjectOverCap { .. } => None,
        }
    }

    pub fn into_tree(self) -> Option<Value> {
        match self {
            RootReading::Object(value) => Some(value),
            RootReading::Other(_) | RootReading::ObjectOverCap { .. } => None,
        }
    }
}

/// Reads `bytes` as `serde_json::from_slice::<Value>` would, with the same errors, but builds
/// the tree only when the root is an object: an array or a scalar is checked and dropped as
/// it is read, in constant memory (but for the parser's nesting).
/// An object's tree is kept only within [`tree_cap`]; past it the rest of the text is still
/// read (so a valid text is never called invalid) and [`RootReading::ObjectOverCap`] says so.
pub fn read_root(bytes: &[u8]) -> Result<RootReading, serde_json::Error> {
    if may_be_an_object(bytes) {
        let cap = tree_cap(bytes.len());
        return match parse_tree_within(bytes, cap) {
            Ok(Some(value)) => Ok(RootReading::Object(value)),
            Ok(None) => {
                serde_json::from_slice::<Skipped>(bytes).map(|_| RootReading::ObjectOverCap { cap })
            }
            Err(error) => Err(error),
        };
    }
    serde_json::from_slice::<Skipped>(bytes).map(|skipped| RootReading::Other(skipped.0))
}

/// The most a text's tree may take: 32 MiB plus twice the text. With the text itself held and
/// the process's own 20-odd MiB this keeps a one-file command within 64 MiB + 4x the input
/// (docs/hostile-input.md). serde_json's tree of small objects costs about 50 times the
/// text (a B-tree node per object), of ordinary packets 5 to 10 times.
pub fn tree_cap(text_len: usize) -> usize {
    TREE_CAP_BASE.saturating_add(text_len.saturating_mul(2))
}

/// The fixed part of [`tree_cap`].
const TREE_CAP_BASE: usize = 32 << 20;

/// Why a text was read without its tree, in every command and view that says so: "the JSON
/// root is an object whose tree would pass the memory cap (N MiB: 32 MiB + twice the text)".
pub fn over_tree_cap(root: JsonType, cap: usize) -> String {
    format!(
        "the JSON root is {} whose tree would pass the memory cap ({} MiB: {} MiB + twice the text)",
        root.with_article(),
        cap >> 20,
        TREE_CAP_BASE >> 20
    )
}

/// Parses `bytes` as `serde_json::from_slice::<Value>` would (the same tree, the same
/// errors), giving up with `Ok(None)` as soon as the tree's estimated size passes `cap`
/// bytes: what was built is dropped then, so the peak stays near `cap`.
pub fn parse_tree_within(bytes: &[u8], cap: usize) -> Result<Option<Value>, serde_json::Error> {
    // A text whose structure alone passes the cap is refused without building any of it: the
    // inspector's detail asks for a packet's tree from six conversions, and building up to
    // the cap each time held 45 MB at its peak and took seconds.
    if structure_passes(bytes, cap) {
        return Ok(None);
    }
    parse_within_budget(bytes, cap)
}

/// Whether [`parse_tree_within`] would give the tree of `bytes` within `cap` (JSON whose
/// tree stays within it), found without building any of it: a reader that needs only some
/// of a packet's members decides as the tree's readers would whether it reads them at all.
pub fn tree_fits(bytes: &[u8], cap: usize) -> bool {
    if structure_passes(bytes, cap) {
        return false;
    }
    let budget = Budget {
        left: std::cell::Cell::new(cap),
        passed: std::cell::Cell::new(false),
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let costed = CostedValue(&budget).deserialize(&mut deserializer);
    costed.is_ok() && deserializer.end().is_ok() && !budget.passed.get()
}

/// [`parse_tree_within`] without the look at the structure first.
fn parse_within_budget(bytes: &[u8], cap: usize) -> Result<Option<Value>, serde_json::Error> {
    let budget = Budget {
        left: std::cell::Cell::new(cap),
        passed: std::cell::Cell::new(false),
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let parsed = BudgetedValue(&budget).deserialize(&mut deserializer);
    if budget.passed.get() {
        return Ok(None);
    }
    let value = parsed?;
    deserializer.end()?;
    Ok(Some(value))
}

/// Whether the tree of `bytes` would pass `cap` on its structure alone: each non-empty
/// object, member and array element costs at least what [`parse_within_budget`] charges for
/// it (string bytes, which escapes make shorter, are not counted), so `true` is never said of
/// a text whose tree fits. Past the nesting serde_json parses (128) it says `false` and leaves
/// the text to the parser.
fn structure_passes(bytes: &[u8], cap: usize) -> bool {
    // No byte adds more than `MAX_BYTE_COST`, so a text that short cannot pass: every
    // ordinary packet (a stream's lines are a few hundred bytes against a cap over 32 MiB) is
    // spared the walk, which was a fiftieth of `check`'s CPU on the realistic mix.
    !too_short_to_pass(bytes, cap) && structure_walk_passes(bytes, cap)
}

/// Whether `bytes` are too short for [`structure_walk_passes`] to reach `cap`.
fn too_short_to_pass(bytes: &[u8], cap: usize) -> bool {
    bytes.len().saturating_mul(MAX_BYTE_COST) <= cap
}

/// [`structure_passes`], byte by byte.
fn structure_walk_passes(bytes: &[u8], cap: usize) -> bool {
    // Whether each open container is an array.
    let mut arrays: Vec<bool> = Vec::new();
    let mut cost = 0usize;
    let mut index = 0;
    let next_is = |index: usize, close: u8| {
        bytes[index..]
            .iter()
            .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
            == Some(&close)
    };
    while let Some(&byte) = bytes.get(index) {
        index += 1;
        match byte {
            b'"' => {
                // To the closing quote, stepping over escapes.
                while let Some(&byte) = bytes.get(index) {
                    index += 1;
                    match byte {
                        b'\\' => index += 1,
                        b'"' => break,
                        _ => {}
                    }
                }
            }
            b'{' | b'[' => {
                if arrays.len() >= 128 {
                    return false;
                }
                let is_array = byte == b'[';
                arrays.push(is_array);
                if !next_is(index, if is_array { b']' } else { b'}' }) {
                    cost = cost.saturating_add(if is_array { ELEMENT_COST } else { OBJECT_COST });
                }
            }
            b'}' | b']' => {
                arrays.pop();
            }
            b',' if arrays.last() == Some(&true) => cost = cost.saturating_add(ELEMENT_COST),
            b':' => cost = cost.saturating_add(MEMBER_COST + STRING_COST),
            _ => {}
        }
        if cost > cap {
            return true;
        }
    }
    false
}

/// The tree of `bytes` when they are JSON and it stays within [`tree_cap`]; `None` otherwise.
/// For readers that use a tree when there is one and read on without it.
pub fn tree_within_cap(bytes: &[u8]) -> Option<Value> {
    parse_tree_within(bytes, tree_cap(bytes.len()))
        .ok()
        .flatten()
}

/// The budget a tree is built within: bytes left, and whether it ran out.
struct Budget {
    left: std::cell::Cell<usize>,
    passed: std::cell::Cell<bool>,
}

impl Budget {
    /// Spends `bytes` of the budget; an error (which stops the parse) when it runs out.
    fn spend<E: serde::de::Error>(&self, bytes: usize) -> Result<(), E> {
        match self.left.get().checked_sub(bytes) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => {
                self.passed.set(true);
                Err(E::custom("the tree would pass its memory cap"))
            }
        }
    }
}

/// What a tree's parts cost, near enough (x86-64, serde_json's default `Map`, a B-tree): a
/// non-empty object allocates a B-tree leaf of about 640 bytes, each member 56 more in
/// interior nodes and slack, an array element 32 (its `Value`) doubled by the vector's growth,
/// a string its bytes plus the allocator's rounding.
const OBJECT_COST: usize = 640;
const MEMBER_COST: usize = 56;
const ELEMENT_COST: usize = 64;
const STRING_COST: usize = 24;
/// The most one byte of text adds to [`structure_passes`]' cost (an opening brace; a colon
/// adds `MEMBER_COST + STRING_COST`, a comma `ELEMENT_COST`).
const MAX_BYTE_COST: usize = OBJECT_COST;
const _: () = assert!(MAX_BYTE_COST >= MEMBER_COST + STRING_COST && MAX_BYTE_COST >= ELEMENT_COST);

/// A `Value` read within a [`Budget`]: serde_json's own `Value` visitor, step for step, with
/// each part paid for before it is kept.
struct BudgetedValue<'b>(&'b Budget);

impl<'de> serde::de::DeserializeSeed<'de> for BudgetedValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BudgetedValue<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Value, E> {
        self.0.spend(value.len() + STRING_COST)?;
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Value, E> {
        self.0.spend(value.len() + STRING_COST)?;
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element_seed(BudgetedValue(self.0))? {
            self.0.spend(ELEMENT_COST)?;
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let first = if members.is_empty() { OBJECT_COST } else { 0 };
            self.0
                .spend(first + MEMBER_COST + key.len() + STRING_COST)?;
            let value = map.next_value_seed(BudgetedValue(self.0))?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

/// A value read within a [`Budget`] as [`BudgetedValue`] reads it, paying for each part as
/// it would, keeping nothing.
struct CostedValue<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for CostedValue<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CostedValue<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    scalar_visits!((); visit_bool(bool), visit_i64(i64), visit_u64(u64), visit_f64(f64),
        visit_none(), visit_unit());

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<(), E> {
        self.0.spend(value.len() + STRING_COST)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(CostedValue(self.0))?.is_some() {
            self.0.spend(ELEMENT_COST)?;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut first = OBJECT_COST;
        while let Some(key_length) = map.next_key_seed(KeyLength)? {
            self.0
                .spend(std::mem::take(&mut first) + MEMBER_COST + key_length + STRING_COST)?;
            map.next_value_seed(CostedValue(self.0))?;
        }
        Ok(())
    }
}

/// A key read for its length (what [`BudgetedValue`] pays for it), not kept.
struct KeyLength;

impl<'de> DeserializeSeed<'de> for KeyLength {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyLength {
    type Value = usize;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<usize, E> {
        Ok(key.len())
    }
}

/// Whether the text's first byte after white space opens an object: only such a text can
/// parse into an object (or fail to parse at all), so a caller holding a tree it could build
/// on demand builds it only then.
pub fn may_be_an_object(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        == Some(&b'{')
}

/// A value read and dropped, remembering only its type. It asks serde_json for any value
/// (`deserialize_any`, as `Value` does), so numbers are parsed and range-checked and strings
/// unescaped exactly as for a tree; `deserialize_ignored_any` would skip numbers unchecked.
pub(super) struct Skipped(pub(super) JsonType);

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

pub(super) struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skipped;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Bool))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_str<E>(self, _: &str) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::String))
    }

    fn visit_string<E>(self, _: String) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::String))
    }

    fn visit_none<E>(self) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skipped, D::Error> {
        Deserialize::deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skipped, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(Skipped(JsonType::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skipped, A::Error> {
        while map.next_key::<Skipped>()?.is_some() {
            map.next_value::<Skipped>()?;
        }
        Ok(Skipped(JsonType::Object))
    }
}

#[cfg(test)]
mod tests;
