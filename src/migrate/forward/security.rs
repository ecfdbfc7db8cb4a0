//! Phase E, security: requirement lists, scheme discriminators and the OAuth flows `oneof`.

use crate::json::{safe_text, JsonPath};
use crate::migrate::model::shown;
use crate::migrate::model::{ObjectKind, OAUTH_FLOWS, SECURITY_SCHEME_MEMBERS};
use crate::migrate::step::{each, StepCtx};
use serde_json::{json, Map, Value};

/// `{"google": ["openid"]}` -> `{"schemes": {"google": {"list": ["openid"]}}}`; an empty scope
/// list becomes `{}` (ProtoJSON omits empty lists). The REST shape is already v1.0.
fn v10_requirement(element: &Value) -> Option<Value> {
    let obj = element.as_object()?;
    let rest_shape = obj.len() == 1
        && obj
            .get("schemes")
            .and_then(Value::as_object)
            .is_some_and(|schemes| schemes.values().all(Value::is_object));
    if rest_shape {
        return Some(element.clone());
    }
    let mut schemes = Map::new();
    for (name, scopes) in obj {
        let scopes = scopes.as_array()?;
        if !scopes.iter().all(Value::is_string) {
            return None;
        }
        let list = if scopes.is_empty() {
            json!({})
        } else {
            json!({ "list": scopes })
        };
        schemes.insert(name.clone(), list);
    }
    Some(json!({ "schemes": schemes }))
}

fn convert_security(obj: &mut Map<String, Value>, at: &JsonPath, ctx: &mut StepCtx<'_>) {
    let from_at = at.key("security");
    let Some(security) = obj.remove("security") else {
        return;
    };
    let Value::Array(items) = security else {
        ctx.error(&from_at, "`security` must be a list; left as it was");
        obj.insert("security".into(), security);
        return;
    };
    let to_at = at.key("securityRequirements");
    let mut converted = match obj.remove("securityRequirements") {
        Some(Value::Array(existing)) => {
            ctx.warn(
                &to_at,
                "both `security` and `securityRequirements` are present; the converted \
                 `security` entries were appended",
            );
            existing
        }
        Some(other) => {
            ctx.warn(
                &to_at,
                format!("dropped non-list `securityRequirements` {}", shown(&other)),
            );
            Vec::new()
        }
        None => Vec::new(),
    };
    for (index, item) in items.into_iter().enumerate() {
        let item_at = from_at.index(index);
        match v10_requirement(&item) {
            Some(requirement) => converted.push(requirement),
            None => {
                ctx.error(
                    &item_at,
                    format!(
                        "not a map of scheme names to scope lists: {}; kept unconverted",
                        shown(&item)
                    ),
                );
                converted.push(item);
            }
        }
        ctx.changed(Some(item_at), Some(to_at.index(converted.len() - 1)));
    }
    obj.insert("securityRequirements".into(), Value::Array(converted));
}

pub fn security_requirements(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [ObjectKind::AgentCard, ObjectKind::AgentSkill] {
        each(doc, ctx, kind, |obj, at, ctx| {
            convert_security(obj, at, ctx)
        });
    }
}

pub fn scheme_type_to_member(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::SecurityScheme, |scheme, at, ctx| {
        let Some(kind) = scheme.get("type") else {
            return;
        };
        let member = kind.as_str().and_then(|kind| {
            SECURITY_SCHEME_MEMBERS
                .iter()
                .find(|(v03, _)| *v03 == kind)
                .map(|(_, member)| *member)
        });
        let Some(member) = member else {
            ctx.error(
                &at.key("type"),
                format!(
                    "unknown security scheme type {}; left as it was",
                    shown(kind)
                ),
            );
            return;
        };
        let member_at = at.key(member);
        let mut fields = std::mem::take(scheme);
        fields.remove("type");
        ctx.changed(Some(at.key("type")), Some(member_at.clone()));
        let mut moved = Map::new();
        for (key, value) in fields {
            let new_key = if member == "apiKeySecurityScheme" && key == "in" {
                "location".to_owned()
            } else {
                key.clone()
            };
            ctx.changed(Some(at.key(&key)), Some(member_at.key(&new_key)));
            moved.insert(new_key, value);
        }
        scheme.insert(member.to_owned(), Value::Object(moved));
    });
}

/// The flows object of a scheme in either shape.
fn flows_mut(scheme: &mut Value) -> Option<(&mut Map<String, Value>, &'static [&'static str])> {
    if scheme.get("oauth2SecurityScheme").is_some() {
        let flows = scheme.get_mut("oauth2SecurityScheme")?.get_mut("flows")?;
        return flows
            .as_object_mut()
            .map(|f| (f, &["oauth2SecurityScheme", "flows"][..]));
    }
    if scheme.get("type").and_then(Value::as_str) == Some("oauth2") {
        let flows = scheme.get_mut("flows")?;
        return flows.as_object_mut().map(|f| (f, &["flows"][..]));
    }
    None
}

fn present_flows(flows: &Map<String, Value>) -> Vec<&'static str> {
    OAUTH_FLOWS
        .iter()
        .copied()
        .filter(|flow| flows.contains_key(*flow))
        .collect()
}

fn under(at: &JsonPath, keys: &[&str]) -> JsonPath {
    keys.iter().fold(at.clone(), |path, key| path.key(key))
}

/// Keeps only `kept` in the scheme's flows; names each dropped flow.
fn keep_one_flow(scheme: &mut Value, at: &JsonPath, kept: &str, ctx: &mut StepCtx<'_>) {
    let Some((flows, keys)) = flows_mut(scheme) else {
        return;
    };
    let flows_at = under(at, keys);
    let dropped: Vec<String> = flows
        .keys()
        .filter(|flow| *flow != kept && OAUTH_FLOWS.contains(&flow.as_str()))
        .cloned()
        .collect();
    for flow in &dropped {
        flows.remove(flow);
        ctx.changed(Some(flows_at.key(flow)), None);
    }
    ctx.warn(
        &flows_at,
        format!(
            "v1.0 allows one OAuth flow per scheme: kept `{kept}`, dropped {}",
            dropped.join(", ")
        ),
    );
}

pub fn oauth_flows_single(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if ctx.detection.object == ObjectKind::SecurityScheme {
        let flows = flows_mut(doc)
            .map(|(flows, _)| present_flows(flows))
            .unwrap_or_default();
        if let [first, _, ..] = flows.as_slice() {
            // A lone scheme has no name to split under: keep the chosen flow, or the first.
            let chosen = ctx.choose();
            let kept = if flows.contains(&chosen.as_str()) {
                chosen
            } else {
                (*first).to_owned()
            };
            keep_one_flow(doc, &JsonPath::root(), &kept, ctx);
        }
        return;
    }
    each(doc, ctx, ObjectKind::AgentCard, |card, at, ctx| {
        let mut splits = Vec::new();
        let Some(Value::Object(schemes)) = card.get_mut("securitySchemes") else {
            return;
        };
        let crowded: Vec<(String, Vec<&'static str>)> = schemes
            .iter_mut()
            .filter_map(|(name, scheme)| {
                let flows = present_flows(flows_mut(scheme)?.0);
                (flows.len() > 1).then(|| (name.clone(), flows))
            })
            .collect();
        for (name, flows) in crowded {
            let chosen = ctx.choose();
            let scheme_at = at.key("securitySchemes").key(&name);
            if flows.contains(&chosen.as_str()) {
                if let Some(scheme) = schemes.get_mut(&name) {
                    keep_one_flow(scheme, &scheme_at, &chosen, ctx);
                }
                continue;
            }
            if chosen != "split" {
                ctx.warn(
                    &scheme_at,
                    format!(
                        "the scheme has no `{}` flow; split it instead",
                        safe_text(&chosen)
                    ),
                );
            }
            let new_names = split_scheme(schemes, &name, &flows, at, ctx);
            splits.push((name, new_names));
        }
        for (name, new_names) in splits {
            duplicate_requirements(card, at, &name, &new_names, ctx);
        }
    });
}

/// One scheme per flow: `name` keeps the first flow, `name-<flow>` holds each other one.
fn split_scheme(
    schemes: &mut Map<String, Value>,
    name: &str,
    flows: &[&'static str],
    card_at: &JsonPath,
    ctx: &mut StepCtx<'_>,
) -> Vec<String> {
    let schemes_at = card_at.key("securitySchemes");
    let (Some(original), Some((first, rest))) = (schemes.get(name).cloned(), flows.split_first())
    else {
        return Vec::new();
    };
    let mut new_names = Vec::new();
    for flow in rest {
        let mut new_name = format!("{name}-{flow}");
        let mut counter = 2;
        while schemes.contains_key(&new_name) {
            new_name = format!("{name}-{flow}-{counter}");
            counter += 1;
        }
        let mut copy = original.clone();
        if let Some((copy_flows, keys)) = flows_mut(&mut copy) {
            copy_flows.retain(|key, _| key == flow || !OAUTH_FLOWS.contains(&key.as_str()));
            ctx.changed(
                Some(under(&schemes_at.key(name), keys).key(flow)),
                Some(under(&schemes_at.key(&new_name), keys).key(flow)),
            );
        }
        schemes.insert(new_name.clone(), copy);
        new_names.push(new_name);
    }
    if let Some(scheme) = schemes.get_mut(name) {
        if let Some((kept_flows, _)) = flows_mut(scheme) {
            kept_flows.retain(|key, _| key == first || !OAUTH_FLOWS.contains(&key.as_str()));
        }
    }
    let others: Vec<String> = new_names
        .iter()
        .zip(rest)
        .map(|(new, flow)| format!("{} (`{flow}`)", safe_text(new)))
        .collect();
    ctx.warn(
        &schemes_at.key(name),
        format!(
            "v1.0 allows one OAuth flow per scheme: split into {} (`{}`) and {}; requirements \
             naming it were duplicated for each",
            safe_text(name),
            first,
            others.join(", ")
        ),
    );
    new_names
}

/// After every requirement that names `name`, inserts one copy per new scheme name (OR).
fn duplicate_requirements(
    card: &mut Map<String, Value>,
    at: &JsonPath,
    name: &str,
    new_names: &[String],
    ctx: &mut StepCtx<'_>,
) {
    let mut lists: Vec<(JsonPath, &mut Value)> = Vec::new();
    let mut skills = None;
    for (key, value) in card.iter_mut() {
        match key.as_str() {
            "security" | "securityRequirements" => lists.push((at.key(key), value)),
            "skills" => skills = Some(value),
            _ => {}
        }
    }
    if let Some(Value::Array(skills)) = skills {
        for (index, skill) in skills.iter_mut().enumerate() {
            if let Value::Object(skill) = skill {
                for (key, value) in skill.iter_mut() {
                    if key == "security" || key == "securityRequirements" {
                        lists.push((at.key("skills").index(index).key(key), value));
                    }
                }
            }
        }
    }
    for (list_at, list) in lists {
        let Value::Array(items) = list else {
            continue;
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items.drain(..) {
            let copies: Vec<Value> = new_names
                .iter()
                .filter_map(|new_name| renamed_requirement(&item, name, new_name))
                .collect();
            out.push(item);
            for copy in copies {
                out.push(copy);
                ctx.changed(None, Some(list_at.index(out.len() - 1)));
            }
        }
        *items = out;
    }
}

/// The requirement with scheme `from` renamed `to`, in either shape; `None` when it does not
/// name `from`.
fn renamed_requirement(item: &Value, from: &str, to: &str) -> Option<Value> {
    let mut copy = item.clone();
    let map = match copy.get_mut("schemes") {
        Some(Value::Object(schemes)) => schemes,
        _ => copy.as_object_mut()?,
    };
    let scopes = map.remove(from)?;
    map.insert(to.to_owned(), scopes);
    Some(copy)
}

pub fn deprecated_flow_advice(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::OAuthFlows, |flows, at, ctx| {
        for flow in ["implicit", "password"] {
            if flows.contains_key(flow) {
                ctx.note(
                    &at.key(flow),
                    format!(
                        "`{flow}` is deprecated in v1.0 (still accepted); consider \
                         `authorizationCode` with `pkceRequired: true`, or `deviceCode`"
                    ),
                );
            }
        }
    });
}
