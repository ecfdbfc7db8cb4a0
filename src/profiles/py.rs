//! The few Python semantics the upstream validators rely on (`bool(x)`, `str(x)`, `repr(x)`
//! of values `json.loads` produced), so the Rust checks decide and word things exactly as the
//! Python ones do, quirks included.

use serde_json::Value;

/// Python `bool(x)` for a value from `json.loads`: `"false"` is true, `0`, `""`, `[]`, `{}`
/// and `None` are false.
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
    }
}

/// Python `str(x or "").strip()` on an optional value.
pub(crate) fn str_or_empty_stripped(value: Option<&Value>) -> String {
    match value {
        Some(v) if truthy(v) => str_of(v).trim().to_owned(),
        _ => String::new(),
    }
}

/// Python `str(x)`: strings as they are, everything else as its repr.
pub(crate) fn str_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => repr(other),
    }
}

/// Python `repr(x)` for a value from `json.loads`.
pub(crate) fn repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => float_repr(f),
            _ => n.to_string(),
        },
        Value::String(s) => repr_str(s),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(repr).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", repr_str(k), repr(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
    }
}

/// Python `repr(str)`: single quotes unless the text has a single quote and no double quote.
pub(crate) fn repr_str(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let code = c as u32;
                if code < 0x100 {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code < 0x10000 {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable` for one character, as `repr` uses it: the generated table of
/// what Python 3.11 (Unicode 14.0) does not print (`py_printable.rs`).
fn printable(c: char) -> bool {
    let code = c as u32;
    let table = super::py_printable::NOT_PRINTABLE;
    // The first range ending at or after `code` holds it, if any does.
    let at = table.partition_point(|(_, high)| *high < code);
    table.get(at).is_none_or(|(low, _)| *low > code)
}

/// Python `repr(list_of_str)`, e.g. `['result', 'artifacts']`.
pub(crate) fn repr_str_list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let inner: Vec<String> = items.into_iter().map(repr_str).collect();
    format!("[{}]", inner.join(", "))
}

/// Python `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16.
pub(crate) fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = format!("{f:e}"); // e.g. "-1.5e-7", shortest round-trip digits
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..16).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.abs());
    }
    let shown = format!("{f}");
    if shown.contains('.') {
        shown
    } else {
        format!("{shown}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness_follows_python() {
        assert!(truthy(&json!("false")));
        assert!(truthy(&json!(1)));
        assert!(!truthy(&json!(0)));
        assert!(!truthy(&json!(0.0)));
        assert!(!truthy(&json!("")));
        assert!(!truthy(&json!([])));
        assert!(!truthy(&json!({})));
        assert!(!truthy(&json!(null)));
        assert!(truthy(&json!({"a": 1})));
    }

    #[test]
    fn str_or_empty_strips_and_drops_falsy_values() {
        assert_eq!(str_or_empty_stripped(Some(&json!("  a "))), "a");
        assert_eq!(str_or_empty_stripped(Some(&json!(null))), "");
        assert_eq!(str_or_empty_stripped(Some(&json!({}))), "");
        assert_eq!(str_or_empty_stripped(Some(&json!({"x": 1}))), "{'x': 1}");
        assert_eq!(str_or_empty_stripped(Some(&json!(0))), "");
        assert_eq!(str_or_empty_stripped(None), "");
    }

    #[test]
    fn reprs_match_python() {
        assert_eq!(repr(&json!(null)), "None");
        assert_eq!(repr(&json!([1, "a", true])), "[1, 'a', True]");
        assert_eq!(repr(&json!("it's")), "\"it's\"");
        assert_eq!(repr(&json!("a\nb")), "'a\\nb'");
        assert_eq!(repr(&json!("a\u{200b}b")), "'a\\u200bb'");
        assert_eq!(repr(&json!("\u{a0}\u{7f}\u{1b}")), "'\\xa0\\x7f\\x1b'");
        assert_eq!(repr(&json!("Zürich ✓")), "'Zürich ✓'");
        // Unassigned in Unicode 14 (U+0378), a tag character, the last private-use plane.
        assert_eq!(
            repr(&json!("\u{378}\u{e0001}\u{10fffd} ")),
            "'\\u0378\\U000e0001\\U0010fffd '"
        );
        assert_eq!(repr(&json!(1.5)), "1.5");
        assert_eq!(repr(&json!(1e300)), "1e+300");
        assert_eq!(repr(&json!(0.00001)), "1e-05");
        assert_eq!(repr(&json!(2.0)), "2.0");
        assert_eq!(repr(&json!({"b": [], "a": {}})), "{'a': {}, 'b': []}");
        assert_eq!(
            repr_str_list(["result", "task_id"]),
            "['result', 'task_id']"
        );
    }
}
