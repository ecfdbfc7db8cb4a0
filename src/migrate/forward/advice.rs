//! Phase F: what changes outside the JSON (paths, headers, media types). Advice only: these
//! steps never edit the object; they say what the code around it must change.

use crate::json::JsonPath;
use crate::migrate::model::Dialect;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::StepCtx;
use serde_json::Value;

fn is_request(ctx: &StepCtx<'_>) -> bool {
    matches!(
        ctx.detection.object,
        ObjectKind::JsonRpcRequest | ObjectKind::SendMessageParams
    )
}

pub fn http_path_drop_v1(_doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if ctx.detection.dialect == Dialect::Rest {
        ctx.note(
            &JsonPath::root(),
            "HTTP+JSON paths lose the /v1 prefix (POST /v1/message:send -> POST /message:send, \
             GET /v1/tasks/{id} -> GET /tasks/{id}); GET /v1/card becomes GET \
             /extendedAgentCard; every path may take a /{tenant} prefix",
        );
    }
}

pub fn headers(_doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if is_request(ctx) {
        ctx.note(
            &JsonPath::root(),
            "send `A2A-Version: 1.0` (an absent or empty value is read as 0.3) and rename the \
             `X-A2A-Extensions` header to `A2A-Extensions`",
        );
    }
}

pub fn content_type(_doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if ctx.detection.dialect == Dialect::Rest {
        ctx.note(
            &JsonPath::root(),
            "HTTP+JSON bodies SHOULD be sent as `application/a2a+json`; JSON-RPC stays \
             `application/json`",
        );
    }
}
