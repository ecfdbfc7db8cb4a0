//! The step that reads members written with their proto names under their JSON names, in
//! both directions (`proto-field-names`, `to03-proto-field-names`); which members those are
//! is `migrate::proto_names`'s answer, the one detection also asks.

use crate::migrate::model::Dialect;
use crate::migrate::proto_names::{camel_case_members, has_proto_names};
use crate::migrate::step::StepCtx;
use serde_json::Value;

/// The steps `proto-field-names` and `to03-proto-field-names`: every member written with
/// its proto name gets its JSON name, each named: a note in ProtoJSON (v0.3 REST, v1.0), a
/// warning in the v0.3 JSON-RPC dialect, whose schema names only the JSON names.
pub(crate) fn read_proto_names_step(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if !has_proto_names(doc) {
        return;
    }
    let json_rpc = ctx.detection.dialect == Dialect::JsonRpc;
    for name in camel_case_members(doc) {
        let message = format!(
            "read `{}` (proto name) as `{}`; written with the JSON name",
            crate::json::safe_text(&name.written),
            name.json
        );
        if json_rpc {
            ctx.warn(&name.path, message);
        } else {
            ctx.note(&name.path, message);
        }
        ctx.changed(Some(name.was.clone()), Some(name.path));
    }
}
