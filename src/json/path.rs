//! JSON paths in the `$.a.b[0]["odd key"]` notation used in every explanation and finding.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// A path from the document root. Displays as `$`, `$.task.kind`, `$.events[0]`,
/// `$["key with spaces"]`. Keys are shown with control characters escaped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsonPath(Vec<Segment>);

impl JsonPath {
    pub fn root() -> JsonPath {
        JsonPath(Vec::new())
    }

    /// Builds a path from dotted keys, e.g. `JsonPath::keys(&["task", "kind"])`.
    pub fn keys(keys: &[&str]) -> JsonPath {
        JsonPath(
            keys.iter()
                .map(|key| Segment::Key((*key).to_owned()))
                .collect(),
        )
    }

    pub fn key(&self, key: &str) -> JsonPath {
        let mut next = self.clone();
        next.0.push(Segment::Key(key.to_owned()));
        next
    }

    pub fn index(&self, index: usize) -> JsonPath {
        let mut next = self.clone();
        next.0.push(Segment::Index(index));
        next
    }

    pub fn push_key(&mut self, key: &str) {
        self.0.push(Segment::Key(key.to_owned()));
    }

    pub fn push_index(&mut self, index: usize) {
        self.0.push(Segment::Index(index));
    }

    pub fn pop(&mut self) {
        self.0.pop();
    }

    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// Looks the path up in a value.
    pub fn lookup<'v>(&self, value: &'v serde_json::Value) -> Option<&'v serde_json::Value> {
        self.0
            .iter()
            .try_fold(value, |current, segment| match segment {
                Segment::Key(key) => current.as_object()?.get(key),
                Segment::Index(index) => current.as_array()?.get(*index),
            })
    }

    /// Looks the path up in a value, for editing in place.
    pub fn lookup_mut<'v>(
        &self,
        value: &'v mut serde_json::Value,
    ) -> Option<&'v mut serde_json::Value> {
        self.0
            .iter()
            .try_fold(value, |current, segment| match segment {
                Segment::Key(key) => current.as_object_mut()?.get_mut(key),
                Segment::Index(index) => current.as_array_mut()?.get_mut(*index),
            })
    }
}

fn is_plain_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphabetic() || first == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.0 {
            match segment {
                Segment::Key(key) if is_plain_identifier(key) => write!(f, ".{key}")?,
                Segment::Key(key) => {
                    // A JSON string literal, then made terminal-safe.
                    let quoted = serde_json::to_string(key).unwrap_or_default();
                    write!(f, "[{}]", super::safe_text(&quoted))?
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

impl JsonPath {
    /// Reads a path back from its displayed form (`$.a[0]["b c"]`): how saved `check` results
    /// give their paths to `report`. `None` when the text is not a displayed path.
    pub fn parse(text: &str) -> Option<JsonPath> {
        let mut rest = text.strip_prefix('$')?;
        let mut path = JsonPath::root();
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                let key = &after[..end];
                if !is_plain_identifier(key) {
                    return None;
                }
                path.push_key(key);
                rest = &after[end..];
            } else if let Some(after) = rest.strip_prefix("[\"") {
                // A JSON string literal: find its closing quote (not escaped), then `]`.
                let mut escaped = false;
                let mut close = None;
                for (at, c) in after.char_indices() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' => escaped = true,
                        '"' => {
                            close = Some(at);
                            break;
                        }
                        _ => {}
                    }
                }
                let close = close?;
                let key: String = serde_json::from_str(&rest[1..close + 3]).ok()?;
                path.push_key(&key);
                rest = after[close + 1..].strip_prefix(']')?;
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']')?;
                path.push_index(after[..end].parse().ok()?);
                rest = &after[end + 1..];
            } else {
                return None;
            }
        }
        Some(path)
    }
}

impl serde::Serialize for JsonPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn displays_in_dotted_and_bracket_form() {
        assert_eq!(JsonPath::root().to_string(), "$");
        assert_eq!(JsonPath::keys(&["task", "kind"]).to_string(), "$.task.kind");
        assert_eq!(
            JsonPath::keys(&["events"]).index(0).key("data").to_string(),
            "$.events[0].data"
        );
        assert_eq!(JsonPath::root().key("a b").to_string(), "$[\"a b\"]");
        assert_eq!(JsonPath::root().key("").to_string(), "$[\"\"]");
        assert_eq!(
            JsonPath::root().key("x\u{1b}[2J").to_string(),
            "$[\"x\\u001b[2J\"]"
        );
        assert_eq!(JsonPath::root().key("assay_g4").to_string(), "$.assay_g4");
    }

    #[test]
    fn parse_reads_back_what_display_writes() {
        let paths = [
            JsonPath::root(),
            JsonPath::keys(&["task", "kind"]),
            JsonPath::keys(&["events"]).index(12).key("data"),
            JsonPath::root().key("a b").key("").index(0).key("q\"]x"),
        ];
        for path in paths {
            assert_eq!(JsonPath::parse(&path.to_string()), Some(path));
        }
        for bad in ["", "a", "$.", "$[x]", "$[\"a", "$.a b"] {
            assert_eq!(JsonPath::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn looks_up_values() {
        let value = json!({"a": [{"b": 1}]});
        assert_eq!(
            JsonPath::keys(&["a"]).index(0).key("b").lookup(&value),
            Some(&json!(1))
        );
        assert_eq!(JsonPath::keys(&["a", "b"]).lookup(&value), None);
        assert_eq!(JsonPath::root().lookup(&value), Some(&value));
    }

    #[test]
    fn lookup_mut_edits_in_place() {
        let mut value = json!({"a": [{"b": 1}]});
        *JsonPath::keys(&["a"])
            .index(0)
            .key("b")
            .lookup_mut(&mut value)
            .unwrap() = json!(2);
        assert_eq!(value, json!({"a": [{"b": 2}]}));
        assert!(JsonPath::keys(&["a", "b"]).lookup_mut(&mut value).is_none());
    }
}
