//! Pre-mapping checks of spec section 2: structural limits and the version rule.

use serde_json::Value;

/// Which structural limit a packet broke, with the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitViolation {
    Depth(usize),
    ArrayLength(usize),
}

/// Depth-first, pre-order walk: at each value the depth is checked first (root = 1, each
/// array item or object member = parent + 1), then an array's length; the first violation
/// met wins. Iterative, so hostile nesting cannot overflow the stack.
pub fn limits_violation(
    root: &Value,
    max_depth: Option<usize>,
    max_array: Option<usize>,
) -> Option<LimitViolation> {
    if max_depth.is_none() && max_array.is_none() {
        return None;
    }
    let mut stack: Vec<(&Value, usize)> = vec![(root, 1)];
    while let Some((value, depth)) = stack.pop() {
        if let Some(limit) = max_depth {
            if depth > limit {
                return Some(LimitViolation::Depth(limit));
            }
        }
        match value {
            Value::Array(items) => {
                if let Some(limit) = max_array {
                    if items.len() > limit {
                        return Some(LimitViolation::ArrayLength(limit));
                    }
                }
                stack.extend(items.iter().rev().map(|item| (item, depth + 1)));
            }
            Value::Object(members) => {
                let children: Vec<&Value> = members.values().collect();
                stack.extend(children.into_iter().rev().map(|child| (child, depth + 1)));
            }
            _ => {}
        }
    }
    None
}

/// `MAJOR.MINOR[.anything]` with integer MAJOR and MINOR; returns them when the shape holds.
/// Integers are read as Rust reads unsigned integers (digits, optionally a leading `+`).
pub fn parse_version(version: &str) -> Option<(u64, u64)> {
    let mut parts = version.splitn(3, '.');
    let major = parts.next()?.parse::<u64>().ok()?;
    let minor = parts.next()?.parse::<u64>().ok()?;
    Some((major, minor))
}

/// The adapter's supported range: `>=0.2 <1.0`.
pub(crate) fn version_supported(version: &str) -> bool {
    matches!(parse_version(version), Some((0, minor)) if minor >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions_in_and_out_of_range() {
        for accepted in ["0.2", "0.2.0", "0.3.1", "0.10", "0.2.x", "0.3.0-rc1"] {
            assert!(version_supported(accepted), "{accepted}");
        }
        for rejected in [
            "1.0", "0.1", "v0.2", "0", "", "0.", ".2", "0.2-beta", "1.2", "-0.2", "0.-2",
        ] {
            assert!(!version_supported(rejected), "{rejected}");
        }
    }

    #[test]
    fn depth_counts_the_root_as_one() {
        let value = json!({"a": {"b": 1}});
        assert_eq!(limits_violation(&value, Some(3), None), None);
        assert_eq!(
            limits_violation(&value, Some(2), None),
            Some(LimitViolation::Depth(2))
        );
        assert_eq!(limits_violation(&json!(1), Some(1), None), None);
    }

    #[test]
    fn array_length_and_first_violation_wins() {
        let value = json!({"a": [1, 2, 3], "b": {"c": {"d": 1}}});
        assert_eq!(limits_violation(&value, None, Some(3)), None);
        assert_eq!(
            limits_violation(&value, None, Some(2)),
            Some(LimitViolation::ArrayLength(2))
        );
        // "a" comes first in key order: its array breaks the length limit before "b" is deep.
        assert_eq!(
            limits_violation(&value, Some(3), Some(2)),
            Some(LimitViolation::ArrayLength(2))
        );
        // The inner array is both too deep and too long: its depth is checked first.
        assert_eq!(
            limits_violation(&json!([[1, 2]]), Some(1), Some(1)),
            Some(LimitViolation::Depth(1))
        );
    }
}
