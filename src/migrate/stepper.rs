//! Running the steps: the whole migration with a per-step record (before/after values,
//! paths, warnings, the choice taken), and re-running it with some steps switched off.

use super::check;
use super::choices::{ChoiceTaken, Choices};
use super::detect::{detect_explained, Detection, NotA2a, Version};
use super::diff::{self, DiffLine};
use super::step::{Direction, PathChange, StepCtx, StepDef};
use super::{steps_forward::FORWARD_STEPS, steps_reverse::REVERSE_STEPS};
use crate::json::{digest_value, Digest, JsonPath};
use crate::rules::{Finding, Severity};
use serde_json::{json, Value};

/// The steps of one direction, in the order they run.
pub fn steps_for(direction: Direction) -> &'static [StepDef] {
    match direction {
        Direction::Forward => FORWARD_STEPS,
        Direction::Reverse => REVERSE_STEPS,
    }
}

/// The step with `id` in either direction.
pub fn step_by_id(id: &str) -> Option<&'static StepDef> {
    FORWARD_STEPS
        .iter()
        .chain(REVERSE_STEPS.iter())
        .find(|step| step.id == id)
}

/// One step that applied: the document before and after it, and what it recorded.
#[derive(Clone, Debug)]
pub struct StepRun {
    pub step: &'static StepDef,
    pub before: Value,
    pub after: Value,
    pub changes: Vec<PathChange>,
    pub warnings: Vec<Finding>,
    pub choice: Option<ChoiceTaken>,
}

impl StepRun {
    pub fn before_digest(&self) -> Digest {
        digest_value(&self.before)
    }

    pub fn after_digest(&self) -> Digest {
        digest_value(&self.after)
    }

    /// The step's diff as hunks of canonical pretty JSON with `context` lines around.
    pub fn diff(&self, context: usize) -> Vec<Vec<DiffLine>> {
        diff::hunks(&self.before, &self.after, context)
    }
}

/// A whole migration of one object.
#[derive(Clone, Debug)]
pub struct Migration {
    pub direction: Direction,
    pub detection: Detection,
    pub input: Value,
    pub choices: Choices,
    /// The steps that applied, in order (steps that found nothing to do are left out).
    pub steps: Vec<StepRun>,
    pub result: Value,
    /// Detection notes and every step's warnings, in order.
    pub warnings: Vec<Finding>,
    /// What the target-version check found in `result`.
    pub findings: Vec<Finding>,
    /// True when the input was already in the target version and was left as it was.
    pub already_at_target: bool,
}

impl Migration {
    /// Detects `input` and migrates it in `direction`.
    pub fn run(
        input: &Value,
        direction: Direction,
        choices: &Choices,
    ) -> Result<Migration, NotA2a> {
        let detection = detect_explained(input)?;
        let mut warnings = detection_warnings(&detection);
        let already_at_target = match direction {
            Direction::Forward => detection.version == Version::V1_0,
            Direction::Reverse => detection.version == Version::V0_3,
        };
        let (result, steps) = if already_at_target {
            let target = match direction {
                Direction::Forward => "v1.0",
                Direction::Reverse => "v0.3",
            };
            warnings.push(Finding::new(
                "detect",
                Severity::Note,
                JsonPath::root(),
                format!("already A2A {target}: left unchanged"),
            ));
            (input.clone(), Vec::new())
        } else {
            apply(
                input,
                &detection,
                choices,
                steps_for(direction),
                &|_| false,
                true,
            )
        };
        if !already_at_target && steps.is_empty() {
            warnings.push(Finding::new(
                "detect",
                Severity::Note,
                JsonPath::root(),
                "no step applied: nothing in the object differs between the versions",
            ));
        }
        warnings.extend(steps.iter().flat_map(|run| run.warnings.iter().cloned()));
        let findings = match direction {
            Direction::Forward => check::check_v10(&result, detection.object),
            Direction::Reverse => check::check_v03(&result, detection.object),
        };
        Ok(Migration {
            direction,
            detection,
            input: input.clone(),
            choices: choices.clone(),
            steps,
            result,
            warnings,
            findings,
            already_at_target,
        })
    }

    /// The result with the steps named in `off` switched off (the others run as usual).
    pub fn result_without(&self, off: &[&str]) -> Value {
        if self.already_at_target {
            return self.input.clone();
        }
        apply(
            &self.input,
            &self.detection,
            &self.choices,
            steps_for(self.direction),
            &|id| off.contains(&id),
            false,
        )
        .0
    }

    /// What switching off `off` does to the result: a diff from the full result to it.
    pub fn effect_of_switching_off(&self, off: &[&str], context: usize) -> Vec<Vec<DiffLine>> {
        diff::hunks(&self.result, &self.result_without(off), context)
    }

    /// The report `migrate --format json` prints.
    /// How many detection notes and step warnings have `severity`.
    pub fn warnings_of(&self, severity: Severity) -> usize {
        self.warnings
            .iter()
            .filter(|finding| finding.severity == severity)
            .count()
    }

    pub fn report(&self) -> Value {
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|run| {
                json!({
                    "id": run.step.id,
                    "title": run.step.title,
                    "paths": run.changes,
                    "lossy": run.step.lossy,
                    "advisory": run.step.advisory,
                    "choice": run.choice,
                    "before_digest": run.before_digest(),
                    "after_digest": run.after_digest(),
                })
            })
            .collect();
        json!({
            "detected": self.detection,
            "direction": self.direction,
            "steps": steps,
            "result": self.result,
            "warnings": self.warnings,
            "findings": self.findings,
        })
    }
}

fn detection_warnings(detection: &Detection) -> Vec<Finding> {
    detection
        .conflicts
        .iter()
        .map(|conflict| {
            Finding::new(
                "detect",
                Severity::Warning,
                JsonPath::root(),
                format!(
                    "mixed versions: detected {} but found {conflict}; the migration converts \
                     what is still old and leaves the rest",
                    detection.version.label()
                ),
            )
        })
        .collect()
}

/// Applies `table` in order, skipping the steps `skip` names.
fn apply(
    input: &Value,
    detection: &Detection,
    choices: &Choices,
    table: &'static [StepDef],
    skip: &dyn Fn(&str) -> bool,
    record: bool,
) -> (Value, Vec<StepRun>) {
    let mut doc = input.clone();
    let mut runs = Vec::new();
    for step in table.iter().filter(|step| !skip(step.id)) {
        let before = if record { doc.clone() } else { Value::Null };
        let mut ctx = StepCtx::new(step, detection, choices);
        (step.apply)(&mut doc, &mut ctx);
        if record && ctx.applied() {
            runs.push(StepRun {
                step,
                before,
                after: doc.clone(),
                changes: ctx.changes,
                warnings: ctx.warnings,
                choice: ctx.choice,
            });
        }
    }
    (doc, runs)
}
