//! A packet's name inside its directory's manifest, and the order entries are written in.

use std::fmt;

/// A packet's name inside its directory's manifest: the file name, and for NDJSON streams
/// the 1-based line number (`stream.ndjson:12`). Ordered by file name, then line number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PacketKey {
    pub file: String,
    pub line: Option<usize>,
}

impl PacketKey {
    pub fn file(file: impl Into<String>) -> PacketKey {
        PacketKey {
            file: file.into(),
            line: None,
        }
    }

    /// Parses `name` or `name:LINE`; the suffix counts as a line number only after an
    /// `.ndjson`/`.jsonl` name, so a file name with a colon stays a file name. (The one name
    /// this cannot tell apart, a single-packet file literally called `x.ndjson:3`, is never
    /// reached by a directory walk: its extension is not one the walk reads.)
    pub fn parse(text: &str) -> PacketKey {
        if let Some((file, line)) = text.rsplit_once(':') {
            // Streams' lines, and bundles' events (`BUNDLE:SEQ`).
            let stream = file.ends_with(".ndjson")
                || file.ends_with(".jsonl")
                || file.ends_with(".tar.gz")
                || file.ends_with(".tgz");
            if let (true, Ok(line)) = (stream, line.parse::<usize>()) {
                return PacketKey {
                    file: file.to_owned(),
                    line: Some(line),
                };
            }
        }
        PacketKey::file(text)
    }
}

impl fmt::Display for PacketKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_lines_only_on_streams() {
        assert_eq!(PacketKey::parse("a.jsonl:3").line, Some(3));
        assert_eq!(PacketKey::parse("odd:3.json").line, None);
        assert_eq!(PacketKey::parse("a.json:3"), PacketKey::file("a.json:3"));
    }
}
