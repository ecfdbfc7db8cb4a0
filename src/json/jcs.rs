//! RFC 8785 JSON Canonicalization Scheme (JCS): object members sorted by the UTF-16 code units
//! of their names, no whitespace, strings escaped as ECMAScript's JSON.stringify does, and
//! numbers written as ECMAScript's Number.prototype.toString writes an IEEE double.
//!
//! This differs from `json::canonical_bytes` (serde_json's order, by UTF-8 bytes, and its own
//! number text), which the inspector's golden digests use; UAIX integrity and bundle content
//! hashes need RFC 8785. One writer: [`write_jcs`] walks any [`JcsTree`].

use serde_json::{Number, Value};

/// A JSON tree RFC 8785 can be written from: `serde_json::Value` here, the bundle fast path's
/// borrowed `Node` in `bundle::fast`. The walk (arrays in order, members in the order the
/// tree gives, commas and colons) is [`write_jcs`]'s, once; a tree supplies its scalars'
/// text, its members in JCS order (UTF-16 order of their names) and how a name is written.
pub trait JcsTree: Sized {
    /// A member name as the tree holds it.
    type Name: ?Sized;
    /// The members of an object, already in JCS order.
    type Members<'a>: Iterator<Item = (&'a Self::Name, &'a Self)>
    where
        Self: 'a;
    /// Writes the JCS text of a scalar and answers `None`; for an array or an object, writes
    /// nothing and answers what to walk.
    fn write_scalar(&self, out: &mut String) -> Option<JcsContainer<'_, Self>>;
    /// Writes a member name as a JCS string literal.
    fn write_name(name: &Self::Name, out: &mut String);
}

/// What [`write_jcs`] walks.
pub enum JcsContainer<'a, T: JcsTree + 'a> {
    Array(&'a [T]),
    Object(T::Members<'a>),
}

/// The RFC 8785 canonical bytes of `value`.
pub fn jcs_bytes(value: &Value) -> Vec<u8> {
    let mut out = String::with_capacity(256);
    write_jcs(value, &mut out);
    out.into_bytes()
}

/// Appends the RFC 8785 text of `tree` (for callers that build a larger canonical text).
pub fn write_jcs<T: JcsTree>(tree: &T, out: &mut String) {
    match tree.write_scalar(out) {
        None => {}
        Some(JcsContainer::Array(items)) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_jcs(item, out);
            }
            out.push(']');
        }
        Some(JcsContainer::Object(members)) => {
            out.push('{');
            for (index, (name, item)) in members.enumerate() {
                if index > 0 {
                    out.push(',');
                }
                T::write_name(name, out);
                out.push(':');
                write_jcs(item, out);
            }
            out.push('}');
        }
    }
}

/// Appends `text` as an RFC 8785 string literal.
pub fn write_jcs_string(text: &str, out: &mut String) {
    write_string(text, out);
}

impl JcsTree for Value {
    type Name = String;
    type Members<'a> = ValueMembers<'a>;

    fn write_scalar(&self, out: &mut String) -> Option<JcsContainer<'_, Value>> {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(number) => out.push_str(&number_text(number)),
            Value::String(text) => write_string(text, out),
            Value::Array(items) => return Some(JcsContainer::Array(items)),
            Value::Object(map) => {
                return Some(JcsContainer::Object(if in_utf16_order(map) {
                    ValueMembers::InOrder(map.iter())
                } else {
                    let mut members: Vec<(&String, &Value)> = map.iter().collect();
                    members.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
                    ValueMembers::Sorted(members.into_iter())
                }))
            }
        }
        None
    }

    fn write_name(name: &String, out: &mut String) {
        write_string(name, out);
    }
}

/// A `Value` object's members in JCS order: the map's own order where it already is, else
/// sorted (see [`in_utf16_order`]).
pub enum ValueMembers<'a> {
    InOrder(serde_json::map::Iter<'a>),
    Sorted(std::vec::IntoIter<(&'a String, &'a Value)>),
}

impl<'a> Iterator for ValueMembers<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            ValueMembers::InOrder(members) => members.next(),
            ValueMembers::Sorted(members) => members.next(),
        }
    }
}

/// Whether the map already iterates in UTF-16 order, so no sort is needed: its keys ascend by
/// bytes (serde_json's map order, unless a feature made it insertion order) and none holds a
/// character at or above U+E000 (lead byte 0xEE or more), the only place where UTF-8 byte
/// order and UTF-16 code-unit order part.
fn in_utf16_order(map: &serde_json::Map<String, Value>) -> bool {
    let mut previous: Option<&str> = None;
    for key in map.keys() {
        if key.bytes().any(|b| b >= 0xEE) || previous.is_some_and(|p| p >= key.as_str()) {
            return false;
        }
        previous = Some(key);
    }
    true
}

/// JSON.stringify's escaping: `"` and `\`, the short forms \b \t \n \f \r, other controls as
/// lowercase \u00xx; everything else (including U+007F and non-ASCII) as it is.
fn write_string(text: &str, out: &mut String) {
    out.push('"');
    // Every byte that needs escaping is ASCII, so runs between them are whole UTF-8 text.
    let mut start = 0;
    for (index, &byte) in text.as_bytes().iter().enumerate() {
        let escaped = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..index]);
        if escaped.is_empty() {
            out.push_str(&format!("\\u{byte:04x}"));
        } else {
            out.push_str(escaped);
        }
        start = index + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Every JSON number is an IEEE double in JCS; integers beyond 2^53 lose precision exactly
/// as they would in ECMAScript.
pub fn number_text(number: &Number) -> String {
    let float = match (number.as_i64(), number.as_u64()) {
        (Some(i), _) if i.unsigned_abs() <= 1 << 53 => return i.to_string(),
        (_, Some(u)) if u <= 1 << 53 => return u.to_string(),
        _ => number.as_f64().unwrap_or(0.0),
    };
    es_number(float)
}

/// ECMAScript Number::toString(x) for a finite double.
fn es_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".into();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest digits that round-trip, as ECMAScript requires.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n = exponent.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let e_sign = if e < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{first}e{e_sign}{}", e.abs())
        } else {
            format!("{first}.{rest}e{e_sign}{}", e.abs())
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jcs(text: &str) -> String {
        let value: Value = serde_json::from_str(text).unwrap();
        String::from_utf8(jcs_bytes(&value)).unwrap()
    }

    #[test]
    fn rfc8785_section_3_2_2_example() {
        let input = r#"{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}"#;
        assert_eq!(
            jcs(input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn members_sort_by_utf16_code_units() {
        let input = r#"{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}"#;
        let out = jcs(input);
        let order: Vec<&str> = [
            "Carriage", "One", "Control", "Latin", "Euro", "Emoji", "Hebrew",
        ]
        .to_vec();
        let positions: Vec<usize> = order.iter().map(|w| out.find(w).unwrap()).collect();
        assert!(positions.windows(2).all(|p| p[0] < p[1]), "{out}");
    }

    #[test]
    fn numbers_follow_ecmascript() {
        for (input, expected) in [
            ("0", "0"),
            ("-0.0", "0"),
            ("1.0", "1"),
            ("100", "100"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("123456789012345680000", "123456789012345680000"),
            ("0.000001", "0.000001"),
            ("0.0000001", "1e-7"),
            ("-1.5e-9", "-1.5e-9"),
            ("9007199254740993", "9007199254740992"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ] {
            assert_eq!(jcs(input), expected, "{input}");
        }
    }
}
