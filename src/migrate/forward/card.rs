//! Phase E, the card's own fields: interfaces, protocol versions, the extended-card flag,
//! dropped capabilities and signatures.

use crate::json::{safe_text, JsonPath};
use crate::migrate::edit::{remove, rename};
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::{each, StepCtx};
use serde_json::{json, Map, Value};

fn same_interface(a: &Value, b: &Value) -> bool {
    a.get("url") == b.get("url") && a.get("protocolBinding") == b.get("protocolBinding")
}

pub fn interfaces_merge(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let legacy = ["url", "preferredTransport", "additionalInterfaces"];
        if !legacy.iter().any(|key| card.contains_key(*key)) {
            return;
        }
        let supported_at = at.key("supportedInterfaces");
        let mut supported: Vec<Value> = match card.get("supportedInterfaces") {
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                ctx.error(
                    &supported_at,
                    format!(
                        "`supportedInterfaces` must be a list, found {}; card interfaces left \
                         as they were",
                        shown(other)
                    ),
                );
                return;
            }
            None => Vec::new(),
        };
        // Entries already listed (a mixed card) may still say `transport`.
        for (index, entry) in supported.iter_mut().enumerate() {
            if let Value::Object(entry) = entry {
                rename(
                    ctx,
                    entry,
                    &supported_at.index(index),
                    "transport",
                    "protocolBinding",
                );
            }
        }
        merge_primary(card, at, &mut supported, ctx);
        merge_additional(card, at, &mut supported, ctx);
        card.insert("supportedInterfaces".into(), Value::Array(supported));
    });
}

/// `url` + `preferredTransport` (default JSONRPC) become the first interface.
fn merge_primary(
    card: &mut Map<String, Value>,
    at: &JsonPath,
    supported: &mut Vec<Value>,
    ctx: &mut StepCtx<'_>,
) {
    let supported_at = at.key("supportedInterfaces");
    let url = match card.get("url") {
        Some(Value::String(url)) => url.clone(),
        Some(other) => {
            ctx.error(
                &at.key("url"),
                format!(
                    "`url` must be a string, found {}; left as it was",
                    shown(other)
                ),
            );
            return;
        }
        None => {
            if let Some(dropped) = remove(ctx, card, at, "preferredTransport") {
                ctx.warn(
                    &at.key("preferredTransport"),
                    format!(
                        "dropped `preferredTransport` = {}: the card has no `url` to pair it with",
                        shown(&dropped)
                    ),
                );
            }
            return;
        }
    };
    let binding = match card.get("preferredTransport") {
        Some(Value::String(binding)) => binding.clone(),
        Some(other) => {
            ctx.warn(
                &at.key("preferredTransport"),
                format!(
                    "`preferredTransport` must be a string, found {}; dropped, JSONRPC used",
                    shown(other)
                ),
            );
            "JSONRPC".into()
        }
        None => {
            ctx.note(
                &at.key("preferredTransport"),
                "absent: the v0.3 default JSONRPC is the primary interface's binding",
            );
            "JSONRPC".into()
        }
    };
    let primary = json!({"url": url, "protocolBinding": binding});
    let index = match supported
        .iter()
        .position(|known| same_interface(known, &primary))
    {
        Some(index) => index,
        None => {
            supported.insert(0, primary);
            0
        }
    };
    let binding_before = card
        .contains_key("preferredTransport")
        .then(|| at.key("preferredTransport"));
    card.remove("url");
    card.remove("preferredTransport");
    ctx.changed(
        Some(at.key("url")),
        Some(supported_at.index(index).key("url")),
    );
    ctx.changed(
        binding_before,
        Some(supported_at.index(index).key("protocolBinding")),
    );
}

/// Each `additionalInterfaces[i] = {url, transport}` is appended as `{url, protocolBinding}`,
/// unless it repeats an interface already listed (GO drops the repeat; PY keeps it).
fn merge_additional(
    card: &mut Map<String, Value>,
    at: &JsonPath,
    supported: &mut Vec<Value>,
    ctx: &mut StepCtx<'_>,
) {
    let supported_at = at.key("supportedInterfaces");
    let additional_at = at.key("additionalInterfaces");
    let items = match card.remove("additionalInterfaces") {
        None => return,
        Some(Value::Array(items)) => items,
        Some(other) => {
            ctx.error(
                &additional_at,
                "`additionalInterfaces` must be a list; left as it was",
            );
            card.insert("additionalInterfaces".into(), other);
            return;
        }
    };
    for (index, item) in items.into_iter().enumerate() {
        let item_at = additional_at.index(index);
        let Value::Object(mut interface) = item else {
            ctx.warn(
                &item_at,
                format!("dropped non-object interface {}", shown(&item)),
            );
            ctx.changed(Some(item_at), None);
            continue;
        };
        let had_transport = interface.contains_key("transport");
        if let Some(transport) = interface.remove("transport") {
            interface.entry("protocolBinding").or_insert(transport);
        }
        let interface = Value::Object(interface);
        if supported
            .iter()
            .any(|known| same_interface(known, &interface))
        {
            ctx.note(
                &item_at,
                "repeats an interface already listed; not repeated in `supportedInterfaces`",
            );
            ctx.changed(Some(item_at), None);
            continue;
        }
        supported.push(interface);
        let new_at = supported_at.index(supported.len() - 1);
        ctx.changed(Some(item_at.clone()), Some(new_at.clone()));
        if had_transport {
            ctx.changed(
                Some(item_at.key("transport")),
                Some(new_at.key("protocolBinding")),
            );
        }
    }
}

/// `0.3.0` -> `0.3`: v1.0 interfaces carry Major.Minor only (D10 section 3.6).
fn major_minor(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

pub fn protocol_version_into_interfaces(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let Some(Value::Array(interfaces)) = card.get("supportedInterfaces") else {
            return;
        };
        let missing = interfaces
            .iter()
            .any(|interface| interface.is_object() && interface.get("protocolVersion").is_none());
        let card_version = card.get("protocolVersion").cloned();
        if !missing && card_version.is_none() {
            return;
        }
        let card_text = match &card_version {
            Some(Value::String(text)) => text.clone(),
            Some(other) => {
                ctx.error(
                    &at.key("protocolVersion"),
                    format!("`protocolVersion` must be a string, found {}", shown(other)),
                );
                "0.3.0".into()
            }
            None => "0.3.0".into(),
        };
        let chosen = ctx.choose();
        let value = match chosen.as_str() {
            "card" => card_text.clone(),
            other => other.to_owned(),
        };
        if let Some(Value::Array(interfaces)) = card.get_mut("supportedInterfaces") {
            let interfaces_at = at.key("supportedInterfaces");
            for (index, interface) in interfaces.iter_mut().enumerate() {
                if let Value::Object(interface) = interface {
                    if !interface.contains_key("protocolVersion") {
                        interface.insert("protocolVersion".into(), Value::String(value.clone()));
                        let before = card_version.is_some().then(|| at.key("protocolVersion"));
                        ctx.changed(
                            before,
                            Some(interfaces_at.index(index).key("protocolVersion")),
                        );
                    }
                }
            }
        }
        if card_version.is_some() {
            card.remove("protocolVersion");
            if major_minor(&card_text) != value && card_text != value {
                ctx.warn(
                    &at.key("protocolVersion"),
                    format!(
                        "card `protocolVersion` {} dropped; interfaces without one now declare {}",
                        shown(&Value::String(card_text.clone())),
                        shown(&Value::String(value.clone()))
                    ),
                );
            } else if card_text != value {
                ctx.warn(
                    &at.key("protocolVersion"),
                    format!(
                        "patch digits dropped: {} became {}",
                        safe_text(&card_text),
                        safe_text(&value)
                    ),
                );
            }
        } else {
            ctx.note(
                at,
                "the card had no `protocolVersion` (v0.3 default \"0.3.0\")",
            );
        }
    });
}

pub fn extended_card_capability(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let Some(flag) = card.remove("supportsAuthenticatedExtendedCard") else {
            return;
        };
        let from = at.key("supportsAuthenticatedExtendedCard");
        let capabilities_at = at.key("capabilities");
        let capabilities = card
            .entry("capabilities")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(capabilities) = capabilities else {
            ctx.error(&capabilities_at, "`capabilities` is not an object; `supportsAuthenticatedExtendedCard` left as it was");
            card.insert("supportsAuthenticatedExtendedCard".into(), flag);
            return;
        };
        match capabilities.get("extendedAgentCard") {
            Some(existing) if *existing != flag => {
                ctx.warn(
                    &from,
                    format!(
                        "`capabilities.extendedAgentCard` is already {}; dropped the top-level {}",
                        shown(existing),
                        shown(&flag)
                    ),
                );
                ctx.changed(Some(from), None);
            }
            Some(_) => ctx.changed(Some(from), None),
            None => {
                capabilities.insert("extendedAgentCard".into(), flag);
                ctx.changed(Some(from), Some(capabilities_at.key("extendedAgentCard")));
            }
        }
    });
}

pub fn drop_state_transition_history(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::AgentCapabilities,
        |capabilities, at, ctx| {
            if let Some(dropped) = remove(ctx, capabilities, at, "stateTransitionHistory") {
                ctx.warn(
                    &at.key("stateTransitionHistory"),
                    format!(
                        "dropped `stateTransitionHistory` = {}: v1.0 has no such capability",
                        shown(&dropped)
                    ),
                );
            }
        },
    );
}

pub fn signatures_invalidated(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let count = match card.get("signatures") {
            Some(Value::Array(items)) if !items.is_empty() => items.len(),
            _ => return,
        };
        let signatures_at = at.key("signatures");
        if ctx.choose() == "keep" {
            ctx.warn(
                &signatures_at,
                format!("kept {count} signature(s), but they were made over the old card and no longer match it; re-sign the migrated card"),
            );
        } else {
            remove(ctx, card, at, "signatures");
            ctx.warn(
                &signatures_at,
                format!("dropped {count} signature(s): they were made over the old card; re-sign the migrated card (RFC 8785 form without `signatures`)"),
            );
        }
    });
}
