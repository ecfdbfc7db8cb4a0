//! The shape of a migration step, declared as static data, and the context a step's edit
//! function works in: the detection, the user's choices, and the record of every path it
//! changed and every warning it raised.

use super::choices::{ChoiceDef, ChoiceTaken, Choices};
use super::detect::Detection;
use super::model::ObjectKind;
use super::walk::collect_kind;
use crate::json::JsonPath;
use crate::rules::{Finding, Severity};
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Direction {
    /// v0.3 -> v1.0.
    #[serde(rename = "0.3->1.0")]
    Forward,
    /// v1.0 -> v0.3 JSON-RPC dialect, to serve v0.3 clients during the transition.
    #[serde(rename = "1.0->0.3")]
    Reverse,
}

impl Direction {
    pub fn label(self) -> &'static str {
        match self {
            Direction::Forward => "v0.3 -> v1.0",
            Direction::Reverse => "v1.0 -> v0.3",
        }
    }
}

/// The spec's phases (section 7); steps run phase by phase, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Envelope,
    Params,
    Core,
    Card,
    /// Members neither version knows, after every rename.
    Members,
    Transport,
}

/// A path pattern a step rewrites: `$..parts[*].kind` -> (removed).
#[derive(Debug, Serialize)]
pub struct PathPattern {
    pub before: &'static str,
    pub after: &'static str,
}

/// One named migration step.
#[derive(Debug, Serialize)]
pub struct StepDef {
    /// Stable id, e.g. `taskstate-enum`.
    pub id: &'static str,
    pub title: &'static str,
    pub direction: Direction,
    pub phase: Phase,
    /// Which objects it edits.
    pub applies_to: &'static str,
    /// What it changes, as path patterns before -> after.
    pub changes: &'static [PathPattern],
    /// The spec fact behind it.
    pub why: &'static str,
    /// Where the fact is written (spec section).
    pub source: &'static str,
    /// Information is lost or guessed.
    pub lossy: bool,
    /// Only advice: the step never edits the JSON.
    pub advisory: bool,
    /// The decision it needs, with the default taken.
    pub choice: Option<&'static ChoiceDef>,
    #[serde(skip)]
    pub apply: fn(&mut Value, &mut StepCtx<'_>),
}

/// A concrete path a step changed; `None` before means added, `None` after means removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathChange {
    pub before: Option<JsonPath>,
    pub after: Option<JsonPath>,
}

/// What a step's edit function works with and reports into.
pub struct StepCtx<'a> {
    pub step: &'static StepDef,
    pub detection: &'a Detection,
    choices: &'a Choices,
    pub changes: Vec<PathChange>,
    /// How many changes the step made (kept in `changes` too unless replaying).
    changed: usize,
    /// False when the run only needs the edits (a replay, `check`'s judgement): a step over
    /// 60k parts records 60k paths, and a replay would hold them beside the first run's.
    keep_paths: bool,
    pub warnings: Vec<Finding>,
    pub choice: Option<ChoiceTaken>,
}

impl<'a> StepCtx<'a> {
    pub fn new(
        step: &'static StepDef,
        detection: &'a Detection,
        choices: &'a Choices,
    ) -> StepCtx<'a> {
        StepCtx {
            step,
            detection,
            choices,
            changes: Vec::new(),
            changed: 0,
            keep_paths: true,
            warnings: Vec::new(),
            choice: None,
        }
    }

    /// A context that counts the changes without keeping their paths (`changes` stays
    /// empty); `applied` says the same as with [`StepCtx::new`].
    pub(crate) fn without_paths(
        step: &'static StepDef,
        detection: &'a Detection,
        choices: &'a Choices,
    ) -> StepCtx<'a> {
        StepCtx {
            keep_paths: false,
            ..StepCtx::new(step, detection, choices)
        }
    }

    /// The value of this step's choice (given or default), recorded in the trace.
    pub fn choose(&mut self) -> String {
        let Some(def) = self.step.choice else {
            return String::new();
        };
        let taken = ChoiceTaken::of(def, self.choices);
        let value = taken.value.clone();
        self.choice = Some(taken);
        value
    }

    /// The value of another step's choice, without recording it here.
    pub(crate) fn choice_of(&self, def: &'static ChoiceDef) -> String {
        ChoiceTaken::of(def, self.choices).value
    }

    /// True when the step changed the JSON or had something to say.
    pub fn applied(&self) -> bool {
        self.changed > 0
            || !self.changes.is_empty()
            || !self.warnings.is_empty()
            || self.choice.is_some()
    }

    pub fn changed(&mut self, before: Option<JsonPath>, after: Option<JsonPath>) {
        self.changed += 1;
        if self.keep_paths {
            self.changes.push(PathChange { before, after });
        }
    }

    fn report(&mut self, severity: Severity, path: &JsonPath, message: String) {
        self.warnings
            .push(Finding::new(self.step.id, severity, path.clone(), message));
    }

    /// Information worth knowing; nothing lost.
    pub fn note(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.report(Severity::Note, path, message.into());
    }

    /// Something was dropped, guessed or rewritten with loss.
    pub fn warn(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.report(Severity::Warning, path, message.into());
    }

    /// The input is wrong in a way the step cannot fix.
    pub fn error(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.report(Severity::Error, path, message.into());
    }

    /// Paths of every object of `kind` in the document, as it is now.
    pub fn nodes(&self, doc: &Value, kind: ObjectKind) -> Vec<JsonPath> {
        collect_kind(doc, self.detection.object, kind)
    }
}

/// Runs `edit` on every object of `kind` in `doc`.
pub fn each(
    doc: &mut Value,
    ctx: &mut StepCtx<'_>,
    kind: ObjectKind,
    mut edit: impl FnMut(&mut Map<String, Value>, &JsonPath, &mut StepCtx<'_>),
) {
    for path in ctx.nodes(doc, kind) {
        if let Some(Value::Object(obj)) = path.lookup_mut(doc) {
            edit(obj, &path, ctx);
        }
    }
}
