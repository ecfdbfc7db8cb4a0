//! Every step, run on its own: it applies where it should, leaves other input alone, and
//! applying it twice is the same as applying it once. The last test makes sure no step of
//! either table is without a case.

mod forward;
mod reverse;
mod whole;

use forward::forward_cases;
use reverse::reverse_cases;

use super::choices::Choices;
use super::detect::detect_explained;
use super::step::StepCtx;
use super::{step_by_id, FORWARD_STEPS, REVERSE_STEPS};
use serde_json::{json, Value};

pub(super) struct Case {
    pub(super) id: &'static str,
    pub(super) applies: Value,
    /// False when the step only speaks (advice, or a choice whose default changes nothing).
    pub(super) changes: bool,
    pub(super) not: Value,
}

pub(super) fn case(id: &'static str, applies: Value, not: Value) -> Case {
    Case {
        id,
        applies,
        changes: true,
        not,
    }
}

pub(super) fn speaks(id: &'static str, applies: Value, not: Value) -> Case {
    Case {
        id,
        applies,
        changes: false,
        not,
    }
}

pub(super) fn rpc(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
}

pub(super) fn response(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": result})
}

pub(super) fn card(extra: Value) -> Value {
    let mut card = json!({"protocolVersion": "0.3.0", "name": "A", "description": "d",
        "url": "https://a.example/rpc", "version": "1", "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []});
    if let (Some(card), Some(extra)) = (card.as_object_mut(), extra.as_object()) {
        card.extend(extra.clone());
    }
    card
}

pub(super) fn card10(extra: Value) -> Value {
    let mut card = json!({"name": "A", "description": "d", "version": "1", "capabilities": {},
        "supportedInterfaces": [{"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []});
    if let (Some(card), Some(extra)) = (card.as_object_mut(), extra.as_object()) {
        card.extend(extra.clone());
    }
    card
}

pub(super) fn task03(extra: Value) -> Value {
    let mut task =
        json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working"}});
    if let (Some(task), Some(extra)) = (task.as_object_mut(), extra.as_object()) {
        task.extend(extra.clone());
    }
    task
}

pub(super) fn message(parts: Value) -> Value {
    json!({"kind": "message", "role": "user", "messageId": "m", "parts": parts})
}

pub(super) fn message10(parts: Value) -> Value {
    json!({"role": "ROLE_USER", "messageId": "m", "parts": parts})
}

/// Runs one step on `doc` (detected as a whole) and says whether it applied.
fn run_step(id: &str, doc: &Value) -> (Value, bool) {
    let step = step_by_id(id).unwrap_or_else(|| panic!("no step {id}"));
    let detection = detect_explained(doc).unwrap_or_else(|why| panic!("{id}: {why}: {doc}"));
    let choices = Choices::none();
    let mut out = doc.clone();
    let mut ctx = StepCtx::new(step, &detection, &choices);
    (step.apply)(&mut out, &mut ctx);
    let applied = ctx.applied();
    // Idempotent: the same step on its own output (with the original detection) changes nothing.
    let mut again = out.clone();
    let mut ctx = StepCtx::new(step, &detection, &choices);
    (step.apply)(&mut again, &mut ctx);
    assert_eq!(again, out, "{id} is not idempotent on {doc}");
    (out, applied)
}

fn check_cases(cases: Vec<Case>) {
    for case in cases {
        let (after, applied) = run_step(case.id, &case.applies);
        assert!(applied, "{} did not apply to {}", case.id, case.applies);
        if case.changes {
            assert_ne!(
                after, case.applies,
                "{} applied but changed nothing",
                case.id
            );
        } else {
            assert_eq!(after, case.applies, "{} must not edit", case.id);
        }
        let (after, applied) = run_step(case.id, &case.not);
        assert!(!applied, "{} applied to {}", case.id, case.not);
        assert_eq!(after, case.not, "{} changed {}", case.id, case.not);
    }
}

#[test]
fn forward_steps_apply_do_not_apply_and_are_idempotent() {
    check_cases(forward_cases());
}

#[test]
fn reverse_steps_apply_do_not_apply_and_are_idempotent() {
    check_cases(reverse_cases());
}

#[test]
fn every_step_has_a_case_and_ids_are_unique() {
    let covered: Vec<&str> = forward_cases()
        .iter()
        .chain(reverse_cases().iter())
        .map(|case| case.id)
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for step in FORWARD_STEPS.iter().chain(REVERSE_STEPS.iter()) {
        assert!(seen.insert(step.id), "duplicate step id {}", step.id);
        assert!(covered.contains(&step.id), "no case for {}", step.id);
        assert!(
            !step.why.is_empty() && !step.source.is_empty(),
            "{}",
            step.id
        );
        assert!(
            step.advisory || !step.changes.is_empty(),
            "{} declares no paths",
            step.id
        );
    }
}
