//! Reverse phase E: the v1.0 card back to the v0.3 card (interfaces, version, extended-card
//! flag, security), and the transport advice.

use crate::json::{safe_text, JsonPath};
use crate::migrate::edit::{insert, remove};
use crate::migrate::model::shown;
use crate::migrate::model::{ObjectKind, SECURITY_SCHEME_MEMBERS};
use crate::migrate::step::{each, StepCtx};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// Interfaces a v0.3 client cannot speak (a version, and not at least 0.3 and below 1.0)
/// are dropped, each named, as the SDK drops them; a card left with none is refused by
/// default. `--choice v10-only-card=convert` keeps every interface instead.
pub(crate) fn v10_only_card(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let Some(Value::Array(interfaces)) = card.get_mut("supportedInterfaces") else {
            return;
        };
        let unusable = |interface: &Value| match interface.get("protocolVersion") {
            Some(Value::String(version)) => !legacy_version(version),
            _ => false,
        };
        if !interfaces.iter().any(unusable) {
            return;
        }
        let path = at.key("supportedInterfaces");
        let versions: BTreeSet<String> = interfaces
            .iter()
            .filter(|interface| unusable(interface))
            .filter_map(|interface| interface.get("protocolVersion").and_then(Value::as_str))
            .map(|version| safe_text(version).into_owned())
            .collect();
        let listed = versions.into_iter().collect::<Vec<_>>().join(", ");
        let convert = ctx.choose() == "convert";
        if convert {
            ctx.warn(
                &path,
                format!("interfaces declare protocolVersion {listed}: kept, and the v0.3 card claims v0.3 at their URLs"),
            );
            return;
        }
        if interfaces.iter().all(unusable) {
            ctx.error(
                &path,
                format!("every interface declares protocolVersion {listed}, which a v0.3 client cannot speak: refused (`--choice v10-only-card=convert` writes the v0.3 card anyway)"),
            );
            return;
        }
        let mut index = 0;
        let mut dropped = Vec::new();
        interfaces.retain(|interface| {
            let keep = !unusable(interface);
            if !keep {
                dropped.push((
                    index,
                    interface.get("url").map(shown),
                    interface.get("protocolVersion").map(shown),
                ));
            }
            index += 1;
            keep
        });
        for (index, url, version) in dropped {
            let item = path.index(index);
            ctx.warn(
                &item,
                format!(
                    "dropped the interface at {}: its protocolVersion {} is not one a v0.3 client speaks",
                    url.unwrap_or_else(|| "no url".into()),
                    version.unwrap_or_default()
                ),
            );
            ctx.changed(Some(item), None);
        }
    });
}

/// A version a v0.3 client speaks: at least 0.3, below 1.0 (`0.3`, `0.3.0`, `0.4`).
fn legacy_version(version: &str) -> bool {
    let mut parts = version.split('.');
    let number = |part: Option<&str>| part.and_then(|text| text.parse::<u64>().ok());
    matches!((number(parts.next()), number(parts.next())), (Some(0), Some(minor)) if minor >= 3)
}

pub fn protocol_version(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        if card.contains_key("protocolVersion") || !card.contains_key("supportedInterfaces") {
            return;
        }
        let chosen = ctx.choose();
        let interfaces_at = at.key("supportedInterfaces");
        let mut seen = BTreeSet::new();
        if let Some(Value::Array(interfaces)) = card.get_mut("supportedInterfaces") {
            for (index, interface) in interfaces.iter_mut().enumerate() {
                if let Some(version) = interface
                    .as_object_mut()
                    .and_then(|i| i.remove("protocolVersion"))
                {
                    ctx.changed(
                        Some(interfaces_at.index(index).key("protocolVersion")),
                        None,
                    );
                    seen.insert(
                        version
                            .as_str()
                            .map_or_else(|| shown(&version), str::to_owned),
                    );
                }
            }
        }
        let differing: Vec<String> = seen
            .into_iter()
            .filter(|version| !chosen.starts_with(version.as_str()))
            .map(|version| safe_text(&version).into_owned())
            .collect();
        if !differing.is_empty() {
            ctx.warn(
                &interfaces_at,
                format!(
                    "interfaces declared {}; the v0.3 card declares one version, {}",
                    differing.join(", "),
                    safe_text(&chosen)
                ),
            );
        }
        insert(ctx, card, at, "protocolVersion", Value::String(chosen));
    });
}

pub fn interfaces_split(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let from_at = at.key("supportedInterfaces");
        let interfaces = match card.remove("supportedInterfaces") {
            None => return,
            Some(Value::Array(interfaces)) if !interfaces.is_empty() => interfaces,
            Some(other) => {
                ctx.error(
                    &from_at,
                    "`supportedInterfaces` must be a non-empty list; left as it was",
                );
                card.insert("supportedInterfaces".into(), other);
                return;
            }
        };
        let mut additional = Vec::new();
        for (index, interface) in interfaces.into_iter().enumerate() {
            let item_at = from_at.index(index);
            let Value::Object(mut interface) = interface else {
                ctx.warn(
                    &item_at,
                    format!("dropped non-object interface {}", shown(&interface)),
                );
                continue;
            };
            if index == 0 {
                for (from, to) in [("url", "url"), ("protocolBinding", "preferredTransport")] {
                    if let Some(value) = interface.remove(from) {
                        card.insert(to.to_owned(), value);
                        ctx.changed(Some(item_at.key(from)), Some(at.key(to)));
                    }
                }
                for (key, value) in interface {
                    ctx.warn(
                        &item_at.key(&key),
                        format!("dropped `{key}` = {}: the v0.3 card's primary endpoint is only `url` + `preferredTransport`", shown(&value)),
                    );
                    ctx.changed(Some(item_at.key(&key)), None);
                }
                continue;
            }
            if let Some(binding) = interface.remove("protocolBinding") {
                interface.insert("transport".into(), binding);
            }
            let to_at = at.key("additionalInterfaces").index(additional.len());
            ctx.changed(
                Some(item_at.key("protocolBinding")),
                Some(to_at.key("transport")),
            );
            additional.push(Value::Object(interface));
        }
        if !additional.is_empty() {
            card.insert("additionalInterfaces".into(), Value::Array(additional));
        }
    });
}

pub fn extended_card_capability(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let capabilities_at = at.key("capabilities");
        let Some(Value::Object(capabilities)) = card.get_mut("capabilities") else {
            return;
        };
        let Some(flag) = capabilities.remove("extendedAgentCard") else {
            return;
        };
        card.insert("supportsAuthenticatedExtendedCard".into(), flag);
        ctx.changed(
            Some(capabilities_at.key("extendedAgentCard")),
            Some(at.key("supportsAuthenticatedExtendedCard")),
        );
    });
}

/// `{"schemes": {"n": {"list": [...]}}}` -> `{"n": [...]}`.
fn v03_requirement(item: &Value) -> Option<Value> {
    let schemes = item.get("schemes")?.as_object()?;
    let mut out = Map::new();
    for (name, scopes) in schemes {
        let list = match scopes.get("list") {
            Some(Value::Array(list)) => list.clone(),
            Some(_) => return None,
            None => Vec::new(),
        };
        out.insert(name.clone(), Value::Array(list));
    }
    Some(Value::Object(out))
}

pub fn security_requirements(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [ObjectKind::AgentCard, ObjectKind::AgentSkill] {
        each(doc, ctx, kind, |obj, at, ctx| {
            if obj.contains_key("security") {
                return;
            }
            let from_at = at.key("securityRequirements");
            let Some(Value::Array(items)) = obj.remove("securityRequirements") else {
                return;
            };
            let mut converted = Vec::new();
            for (index, item) in items.into_iter().enumerate() {
                let item_at = from_at.index(index);
                match v03_requirement(&item) {
                    Some(requirement) => converted.push(requirement),
                    None => {
                        ctx.error(
                            &item_at,
                            format!(
                                "not a v1.0 SecurityRequirement: {}; kept unconverted",
                                shown(&item)
                            ),
                        );
                        converted.push(item);
                    }
                }
                ctx.changed(Some(item_at), Some(at.key("security").index(index)));
            }
            obj.insert("security".into(), Value::Array(converted));
        });
    }
}

pub fn scheme_member_to_type(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::SecurityScheme, |scheme, at, ctx| {
        if scheme.len() != 1 {
            return;
        }
        let Some((v03, member)) = SECURITY_SCHEME_MEMBERS
            .iter()
            .find(|(_, member)| scheme.get(*member).is_some_and(Value::is_object))
        else {
            return;
        };
        let Some(Value::Object(fields)) = scheme.remove(*member) else {
            return;
        };
        let member_at = at.key(member);
        scheme.insert("type".into(), json!(v03));
        ctx.changed(Some(member_at.clone()), Some(at.key("type")));
        for (key, value) in fields {
            let new_key = if *member == "apiKeySecurityScheme" && key == "location" {
                "in".to_owned()
            } else {
                key.clone()
            };
            ctx.changed(Some(member_at.key(&key)), Some(at.key(&new_key)));
            scheme.insert(new_key, value);
        }
    });
}

pub fn oauth_v1_only_fields(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::OAuthFlows, |flows, at, ctx| {
        if let Some(dropped) = remove(ctx, flows, at, "deviceCode") {
            ctx.warn(
                &at.key("deviceCode"),
                format!(
                    "dropped the `deviceCode` flow {}: v0.3 has no device-code flow",
                    shown(&dropped)
                ),
            );
            if flows.is_empty() {
                ctx.error(at, "no flow is left that v0.3 can express");
            }
        }
        let code_at = at.key("authorizationCode");
        if let Some(Value::Object(code)) = flows.get_mut("authorizationCode") {
            if let Some(dropped) = remove(ctx, code, &code_at, "pkceRequired") {
                ctx.warn(
                    &code_at.key("pkceRequired"),
                    format!(
                        "dropped `pkceRequired` = {}: v0.3 cannot say PKCE is required",
                        shown(&dropped)
                    ),
                );
            }
        }
    });
}

pub fn headers(_doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if ctx.detection.object == ObjectKind::JsonRpcRequest {
        ctx.note(
            &JsonPath::root(),
            "v0.3 servers expect `X-A2A-Extensions` (not `A2A-Extensions`) and ignore \
             `A2A-Version`; an absent A2A-Version means 0.3",
        );
    }
}
