//! The JSON type of a value, in words, for messages.

use serde_json::Value;

/// `string`, `number`, `object`... as in "expected string, found number".
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `a string`, `an object`, `null`... as in "handoff must be an object, found a string".
pub fn type_with_article(value: &Value) -> &'static str {
    super::JsonType::of(value).with_article()
}
