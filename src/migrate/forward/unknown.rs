//! After every rename: members neither v0.3 nor v1.0 defines are dropped, each named.

use crate::json::safe_text;
use crate::migrate::members::unknown_to_both;
use crate::migrate::model::shown;
use crate::migrate::step::StepCtx;
use crate::migrate::walk::collect;
use serde_json::Value;

pub fn drop_unknown_members(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for node in collect(doc, ctx.detection.object) {
        let Some(Value::Object(obj)) = node.path.lookup_mut(doc) else {
            continue;
        };
        let unknown: Vec<String> = obj
            .keys()
            .filter(|key| unknown_to_both(node.kind, key))
            .cloned()
            .collect();
        for key in unknown {
            let Some(value) = obj.remove(&key) else {
                continue;
            };
            let path = node.path.key(&key);
            ctx.warn(
                &path,
                format!(
                    "dropped `{}` = {}: neither v0.3 nor v1.0 defines it on a {}, and strict v1.0 parsers reject unknown fields",
                    safe_text(&key),
                    shown(&value),
                    node.kind.label()
                ),
            );
            ctx.changed(Some(path), None);
        }
    }
}
