//! A list of JSON paths held as one string and the offsets where each path ends: a packet's
//! repeated keys can number 500k, and a `String` each cost about 56 bytes of heap (a 24-byte
//! handle and a 32-byte allocation for a path like `$.k123456`) where this costs its text
//! and four bytes. The inspector keeps every packet's check, so this is what it holds.

/// Paths in order; compares, prints and serializes like the `Vec<String>` it replaces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathList {
    text: String,
    /// End of each path in `text` (the start is the previous end, or 0).
    ends: Vec<u32>,
}

impl PathList {
    pub fn new() -> PathList {
        PathList::default()
    }

    /// Appends a path. Packets are capped far below 4 GiB, and so is the text of their paths;
    /// a path past that bound is not kept rather than wrapping an offset.
    pub fn push(&mut self, path: &str) {
        let Ok(end) = u32::try_from(self.text.len() + path.len()) else {
            return;
        };
        self.text.push_str(path);
        self.ends.push(end);
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let path = &self.text[start..end as usize];
            start = end as usize;
            path
        })
    }

    /// The paths as owned strings (what a manifest entry records).
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_owned).collect()
    }

    /// Whether this holds exactly `paths`, in order.
    pub(crate) fn same_as(&self, paths: &[String]) -> bool {
        self.len() == paths.len() && self.iter().zip(paths).all(|(mine, theirs)| mine == theirs)
    }

    /// Gives back the capacity the pushes left over.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl serde::Serialize for PathList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::PathList;

    #[test]
    fn keeps_paths_in_order_and_compares_with_owned_strings() {
        let mut list = PathList::new();
        assert!(list.is_empty());
        list.push("$.a");
        list.push("");
        list.push("$[\"b c\"]");
        assert_eq!(list.len(), 3);
        assert_eq!(
            list.iter().collect::<Vec<_>>(),
            vec!["$.a", "", "$[\"b c\"]"]
        );
        let owned = list.to_vec();
        assert!(list.same_as(&owned));
        assert!(!list.same_as(&owned[..2]));
        assert!(!list.same_as(&["$.a".into(), "".into(), "$.b".into()]));
        assert_eq!(
            serde_json::to_string(&list).ok().as_deref(),
            Some(r#"["$.a","","$[\"b c\"]"]"#)
        );
    }
}
