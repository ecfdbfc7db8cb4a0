//! JSON plumbing shared by every layer: canonical bytes and digests, RFC 8785 (JCS) text,
//! JSON paths, the duplicate-key scan, lowercase hex, and safe display of untrusted strings
//! (`safe_text`, and `shown_json`: a value in one line, cut the one way).

/// A serde visitor's scalar visits, each returning `$value` (`scalar_visits!((); visit_bool(bool),
/// visit_unit())`): for the visitors here that read any JSON value and keep nothing of a scalar.
macro_rules! scalar_visits {
    ($value:expr; $($visit:ident($($arg:ty)?)),* $(,)?) => {
        $(fn $visit<E: serde::de::Error>(self $(, _: $arg)?) -> Result<Self::Value, E> {
            Ok($value)
        })*
    };
}

mod canonical;
mod duplicates;
mod escape;
mod hex;
mod jcs;
mod line_diff;
mod members;
mod path;
mod root;
mod safe_json;
mod safe_text;
mod shown;
#[cfg(test)]
pub(crate) mod test_depth;
#[cfg(test)]
pub(crate) mod test_fixtures;
mod top_level;
mod type_name;
mod write;

pub use canonical::{
    canonical_bytes, canonical_pretty, canonical_pretty_of, digest_bytes, digest_value, Digest,
};
pub use duplicates::{
    count_duplicate_keys, for_each_duplicate_key, scan_duplicate_keys, scan_duplicate_keys_up_to,
    DuplicateKey, DuplicateKeys, DuplicateKeysIn,
};
pub use escape::{
    hex4, is_high_surrogate, is_low_surrogate, short_escape, surrogate_pair, unpaired_surrogate,
    UnpairedSurrogate,
};
pub use hex::{hex_into, push_hex};
pub use jcs::{
    jcs_bytes, number_text as jcs_number_text, write_jcs, write_jcs_string, JcsContainer, JcsTree,
};
pub use line_diff::{
    all_lines, bounded_line_diff, text_hunks, with_text_hunk_lines, with_text_lines, write_unified,
    DiffLine, LineTag, LINE_DIFF_TIMEOUT,
};
pub use members::for_each_member;
pub use path::{JsonPath, Segment};
pub use root::{
    may_be_an_object, over_tree_cap, parse_tree_within, read_root, tree_cap, tree_fits,
    tree_within_cap, JsonType, RootReading,
};
pub use safe_json::{
    escape_unsafe_in_json, safe_json_bytes, to_safe_json, to_safe_json_pretty, write_safe_json,
};
pub use safe_text::{is_unsafe_char, safe_text};
pub use shown::{char_prefix, shown_json, shown_text, CUT_MARK};
pub use top_level::{read_top_level, TopLevel};
pub use type_name::{type_name, type_with_article};
pub use write::write_json_string;
