//! Checking a migration's result against the target version: required fields, enum values,
//! oneof members, formats, and fields of the other version left behind. Each check is a row
//! of a static [`RuleTable`](crate::rules::RuleTable); failures are [`Finding`]s with JSON paths.

mod checker;
mod v03;
mod v10;

pub use v03::V03_CHECKS;
pub use v10::V10_CHECKS;

use super::model::ObjectKind;
use super::walk::collect;
use crate::json::JsonPath;
use crate::rules::Finding;
use checker::Checker;
use serde_json::{Map, Value};

/// Checks `value` (rooted at an object of `root` kind) against v1.0.
pub(crate) fn check_v10(value: &Value, root: ObjectKind) -> Vec<Finding> {
    run(value, root, v10::check_object)
}

/// Checks `value` against the v0.3 JSON-RPC dialect.
pub(crate) fn check_v03(value: &Value, root: ObjectKind) -> Vec<Finding> {
    run(value, root, v03::check_object)
}

fn run(
    value: &Value,
    root: ObjectKind,
    check_object: fn(ObjectKind, &Map<String, Value>, &JsonPath, &mut Checker),
) -> Vec<Finding> {
    let mut checker = Checker::default();
    for node in collect(value, root) {
        if let Some(obj) = node.path.lookup(value).and_then(Value::as_object) {
            check_object(node.kind, obj, &node.path, &mut checker);
        }
    }
    checker.findings
}
