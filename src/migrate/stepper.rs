//! Running the steps: the whole migration with a per-step record (before/after values,
//! paths, warnings, the choice taken), and re-running it with some steps switched off.

use super::check;
use super::choices::{ChoiceTaken, Choices};
use super::detect::{detect_with, Detection, NotA2a};
use super::diff::{self, DiffLine};
use super::input::{InputTree, MigrationInput};
use super::model::Version;
use super::step::{Direction, PathChange, StepCtx, StepDef};
use super::{forward::FORWARD_STEPS, reverse::REVERSE_STEPS};
use crate::json::{
    canonical_bytes, canonical_pretty, digest_bytes, digest_value, Digest, JsonPath,
};
use crate::rules::{Finding, Severity};
use serde_json::{json, Value};
use std::sync::Arc;

/// The note on an object that reads the same in both versions (its steps, if any, are
/// advice: they change nothing in the JSON).
const NOTHING_DIFFERS: &str = "nothing differs between v0.3 and v1.0 for this object";

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

/// One step that applied: what it recorded and the digests of the document before and after
/// it. The documents themselves are not kept (a big object times every step is what made
/// memory grow with the step count); [`Migration::step_diff`] and
/// [`Migration::each_step_diff`] replay the steps to diff them.
#[derive(Clone, Debug)]
pub struct StepRun {
    pub step: &'static StepDef,
    pub changes: Vec<PathChange>,
    pub warnings: Vec<Finding>,
    pub choice: Option<ChoiceTaken>,
    before_digest: Digest,
    after_digest: Digest,
}

impl StepRun {
    pub fn before_digest(&self) -> Digest {
        self.before_digest
    }

    pub fn after_digest(&self) -> Digest {
        self.after_digest
    }
}

/// A whole migration of one object.
#[derive(Clone, Debug)]
pub struct Migration {
    pub direction: Direction,
    pub detection: Detection,
    /// The input, for the replays ([`Migration::input`] gives it as a tree).
    input: Kept,
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
    /// Detects `input` and migrates it in `direction`. How the tree is held decides what
    /// the migration keeps of it ([`MigrationInput`]): a borrowed tree is detected, then
    /// copied; a tree given up is migrated in place and kept as its canonical text for the
    /// replays (a tree of small objects costs 16-25 times its text); a shared tree is kept
    /// as it is and a copy migrated (two trees alive: the tests and the `migrate` fuzz target
    /// use it as the reference a tree given up must agree with).
    pub fn run<'a>(
        input: impl Into<MigrationInput<'a>>,
        direction: Direction,
        choices: &Choices,
    ) -> Result<Migration, NotA2a> {
        let input = input.into();
        let hints = input.given_hints();
        let detection = detect_with(input.tree(), hints)?;
        let (kept, doc, digest) = match input.tree {
            InputTree::Shared(shared) => {
                (Kept::Tree(Arc::clone(&shared)), Value::clone(&shared), None)
            }
            InputTree::Borrowed(value) => Kept::of_owned(value.clone()),
            InputTree::Owned(value) => Kept::of_owned(value),
        };
        Ok(Migration::finish(
            detection, kept, doc, digest, direction, choices,
        ))
    }

    /// Migrates `doc` (the input, or a copy of it) in place. `digest` is the input's when
    /// the caller has it already.
    fn finish(
        detection: Detection,
        input: Kept,
        mut doc: Value,
        digest: Option<Digest>,
        direction: Direction,
        choices: &Choices,
    ) -> Migration {
        let mut warnings = detection_warnings(&detection);
        let already_at_target = match direction {
            Direction::Forward => detection.version == Version::V1_0,
            Direction::Reverse => detection.version == Version::V0_3,
        };
        let steps = if already_at_target {
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
            Vec::new()
        } else {
            let digest = digest.unwrap_or_else(|| digest_value(&doc));
            record(&mut doc, digest, &detection, choices, steps_for(direction))
        };
        // Advice steps change nothing in the JSON: an object only they apply to reads the
        // same in both versions.
        let only_advice = steps.iter().all(|run| run.step.advisory);
        if only_advice && (detection.identical || !already_at_target) {
            warnings.push(Finding::new(
                "detect",
                Severity::Note,
                JsonPath::root(),
                NOTHING_DIFFERS,
            ));
        }
        warnings.extend(steps.iter().flat_map(|run| run.warnings.iter().cloned()));
        let mut findings = refusals(direction, &mut warnings);
        findings.extend(match direction {
            Direction::Forward => check::check_v10(&doc, detection.object),
            Direction::Reverse => check::check_v03(&doc, detection.object),
        });
        Migration {
            direction,
            detection,
            input,
            choices: choices.clone(),
            steps,
            result: doc,
            warnings,
            findings,
            already_at_target,
        }
    }

    /// The input as a tree: the caller's shared tree, or the kept text parsed again.
    pub fn input(&self) -> Arc<Value> {
        match &self.input {
            Kept::Tree(tree) => Arc::clone(tree),
            Kept::Text(_) => Arc::new(self.input_copy()),
        }
    }

    /// A copy of the input to run steps on.
    fn input_copy(&self) -> Value {
        match &self.input {
            Kept::Tree(tree) => Value::clone(tree),
            // The migration's own serialization of a tree checked to be shallow enough to
            // parse: it cannot fail to parse back (a failure would be a bug here, not bad input).
            Kept::Text(text) => serde_json::from_slice(text)
                .expect("the canonical text of a shallow tree parses back"),
        }
    }

    /// The result with the steps named in `off` switched off (the others run as usual).
    pub fn result_without(&self, off: &[&str]) -> Value {
        let mut doc = self.input_copy();
        if self.already_at_target {
            return doc;
        }
        for step in steps_for(self.direction) {
            if !off.contains(&step.id) {
                let mut ctx = StepCtx::without_paths(step, &self.detection, &self.choices);
                (step.apply)(&mut doc, &mut ctx);
            }
        }
        doc
    }

    /// The diff of the `index`-th step that applied, as hunks of canonical pretty JSON with
    /// `context` lines around; empty when there is no such step. Replays the steps before it.
    pub fn step_diff(&self, index: usize, context: usize) -> Vec<Vec<DiffLine>> {
        let mut hunks = Vec::new();
        self.replay(index, |_, before, after| {
            hunks = diff::text_hunks(before, after, context);
            false
        });
        hunks
    }

    /// The canonical pretty text of the document before and after the `index`-th step that
    /// applied (`None`: no such step). The replayed document is dropped before they are
    /// returned, so a caller that diffs them (or keeps the diff) holds the texts alone, not a
    /// second tree of a big object beside the input.
    pub fn step_texts(&self, index: usize) -> Option<(String, String)> {
        if self.already_at_target {
            return None;
        }
        let mut doc = self.input_copy();
        let mut before: Option<String> = None;
        let mut applied = 0;
        for step in steps_for(self.direction) {
            let mut ctx = StepCtx::without_paths(step, &self.detection, &self.choices);
            if applied < index {
                (step.apply)(&mut doc, &mut ctx);
                applied += usize::from(ctx.applied());
                continue;
            }
            // As in `replay`: a step that does not apply changes nothing.
            let old = before.take().unwrap_or_else(|| canonical_pretty(&doc));
            (step.apply)(&mut doc, &mut ctx);
            if ctx.applied() {
                let new = canonical_pretty(&doc);
                drop(doc);
                return Some((old, new));
            }
            before = Some(old);
        }
        None
    }

    /// Forgets the result tree (it becomes `null`) for a holder that keeps the migration for
    /// its records only: the inspector keeps the steps, warnings and findings of the selected
    /// packet, and the result is as big as the input. [`Migration::result_without`] with no
    /// step switched off builds it again.
    pub fn drop_result(&mut self) {
        self.result = Value::Null;
    }

    /// Every applied step with the lines of its diff (hunk after hunk), in order, in one
    /// replay: the document, its text before and after one step, and one diff line are what
    /// is alive at a time.
    pub fn each_step_diff(
        &self,
        context: usize,
        visit: impl FnMut(&StepRun, &mut dyn Iterator<Item = DiffLine>),
    ) {
        self.replay_diffs(context, visit);
    }

    /// [`Migration::each_step_diff`], then the result as the replay built it again, for a
    /// holder that dropped its own ([`Migration::drop_result`]) before replaying: the
    /// replay's tree is then the only one, and the texts of the result and of a step are
    /// never alive together (`migrate --steps` prints the result after the steps).
    pub fn each_step_diff_then_result(
        &self,
        context: usize,
        visit: impl FnMut(&StepRun, &mut dyn Iterator<Item = DiffLine>),
    ) -> Value {
        // Already at the target version: nothing was replayed, the result is the input.
        self.replay_diffs(context, visit)
            .unwrap_or_else(|| self.input_copy())
    }

    fn replay_diffs(
        &self,
        context: usize,
        mut visit: impl FnMut(&StepRun, &mut dyn Iterator<Item = DiffLine>),
    ) -> Option<Value> {
        self.replay(0, |at, before, after| {
            if let Some(run) = self.steps.get(at) {
                diff::with_text_lines(before, after, context, |lines| visit(run, lines));
            }
            true
        })
    }

    /// Runs the steps again on the input, calling `visit(index, before, after)` with the
    /// canonical pretty text of the document around each step that applies (the same steps,
    /// in the same order, as `steps`), from the one numbered `first` on, until it says stop.
    /// Only the document and the two texts are alive; the texts are what the line diff needs
    /// anyway.
    ///
    /// Returns the document when every step ran (nobody said stop): the result, built again.
    fn replay(
        &self,
        first: usize,
        mut visit: impl FnMut(usize, &str, &str) -> bool,
    ) -> Option<Value> {
        if self.already_at_target {
            return None;
        }
        let mut doc = self.input_copy();
        let mut before: Option<String> = None;
        let mut index = 0;
        for step in steps_for(self.direction) {
            let mut ctx = StepCtx::without_paths(step, &self.detection, &self.choices);
            if index < first {
                // Steps before the ones asked about only need to run.
                (step.apply)(&mut doc, &mut ctx);
                if ctx.applied() {
                    index += 1;
                }
                continue;
            }
            // A step that does not apply leaves the document as it was (it changed nothing
            // and said nothing), so the text before this step is the one after the last
            // step that applied.
            let old = before.take().unwrap_or_else(|| canonical_pretty(&doc));
            (step.apply)(&mut doc, &mut ctx);
            if !ctx.applied() {
                before = Some(old);
                continue;
            }
            let new = canonical_pretty(&doc);
            if !visit(index, &old, &new) {
                return None;
            }
            before = Some(new);
            index += 1;
        }
        Some(doc)
    }

    /// What switching off `off` does to the result: a diff from the full result to it.
    pub fn effect_of_switching_off(&self, off: &[&str], context: usize) -> Vec<Vec<DiffLine>> {
        diff::hunks(&self.result, &self.result_without(off), context)
    }

    /// How many detection notes and step warnings have `severity`.
    pub fn warnings_of(&self, severity: Severity) -> usize {
        self.warnings
            .iter()
            .filter(|finding| finding.severity == severity)
            .count()
    }

    /// The report `migrate --format json` prints (it writes it with
    /// [`write_report`](super::write_report), without building this `Value`).
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

/// What `check` judges an A2A object by, without the record a trace needs: the detection,
/// what the target-version check finds in the migrated form, and that form's digest.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub detection: Detection,
    pub findings: Vec<Finding>,
    pub result_digest: Digest,
}

impl Judgement {
    /// Detects `input` and migrates it with no choices, as [`Migration::run`] with
    /// [`Choices::none`] does, keeping nothing of the steps but their effect. A tree given up
    /// is migrated in place (no copy of a big object is made); a borrowed or shared one is
    /// detected, then copied.
    pub fn of<'a>(
        input: impl Into<MigrationInput<'a>>,
        direction: Direction,
    ) -> Result<Judgement, NotA2a> {
        let input = input.into();
        let detection = detect_with(input.tree(), input.given_hints())?;
        let mut doc = match input.tree {
            InputTree::Owned(value) => value,
            InputTree::Borrowed(value) => value.clone(),
            InputTree::Shared(shared) => Value::clone(&shared),
        };
        let already_at_target = match direction {
            Direction::Forward => detection.version == Version::V1_0,
            Direction::Reverse => detection.version == Version::V0_3,
        };
        let mut warnings = Vec::new();
        if !already_at_target {
            let choices = Choices::none();
            for step in steps_for(direction) {
                let mut ctx = StepCtx::without_paths(step, &detection, &choices);
                (step.apply)(&mut doc, &mut ctx);
                warnings.append(&mut ctx.warnings);
            }
        }
        let mut findings = refusals(direction, &mut warnings);
        findings.extend(match direction {
            Direction::Forward => check::check_v10(&doc, detection.object),
            Direction::Reverse => check::check_v03(&doc, detection.object),
        });
        Ok(Judgement {
            detection,
            findings,
            result_digest: digest_value(&doc),
        })
    }
}

/// Back to v0.3, a step's error refuses the result (a card no v0.3 client could use, a
/// member it cannot convert): it moves from the warnings to the findings, so every face
/// that judges the result (`migrate`'s exit code, `check`, `explain`) sees it. On the way
/// to v1.0 such errors stay warnings beside the v1.0 check's findings.
fn refusals(direction: Direction, warnings: &mut Vec<Finding>) -> Vec<Finding> {
    if direction != Direction::Reverse {
        return Vec::new();
    }
    let (refused, kept): (Vec<Finding>, Vec<Finding>) = std::mem::take(warnings)
        .into_iter()
        .partition(|finding| finding.severity == Severity::Error);
    *warnings = kept;
    refused
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

/// What a migration keeps of its input.
#[derive(Clone, Debug)]
enum Kept {
    /// A tree shared with the caller (an `Arc` given to [`Migration::run`]), or one too
    /// deep for its text to parse again.
    Tree(Arc<Value>),
    /// The canonical text of a tree the caller gave up: parsing it gives the same tree back
    /// (keys sorted and each once, numbers written to round-trip with `float_roundtrip`).
    Text(Vec<u8>),
}

impl Kept {
    /// What a migration keeps of a tree its caller gave up, the tree to migrate (the input
    /// itself, or a copy when the input is kept as a tree) and the input's digest when known.
    fn of_owned(owned: Value) -> (Kept, Value, Option<Digest>) {
        if !parses_back(&owned, PARSE_DEPTH) {
            // Its text would not parse again (only a tree built in code is this deep).
            let input = Arc::new(owned);
            let doc = Value::clone(&input);
            return (Kept::Tree(input), doc, None);
        }
        let text = canonical_bytes(&owned);
        let digest = digest_bytes(&text);
        (Kept::Text(text), owned, Some(digest))
    }
}

/// How many arrays and objects deep serde_json parses (its recursion limit is 128 levels:
/// the 128th is refused).
const PARSE_DEPTH: usize = 127;

/// Whether `value` nests at most `depth` arrays and objects (walks no deeper than that).
fn parses_back(value: &Value, depth: usize) -> bool {
    let below = |child: &Value| parses_back(child, depth - 1);
    match value {
        Value::Array(items) => depth > 0 && items.iter().all(below),
        Value::Object(members) => depth > 0 && members.values().all(below),
        _ => true,
    }
}

/// Applies `table` in order to `doc`, recording each step that applies with the digests of
/// the document around it (`digest` is the one of `doc` as given).
fn record(
    doc: &mut Value,
    digest: Digest,
    detection: &Detection,
    choices: &Choices,
    table: &'static [StepDef],
) -> Vec<StepRun> {
    let mut runs = Vec::new();
    // The digest of `doc` as it is now. A step that does not apply changed nothing, so this
    // stays the digest before the next step that does.
    let mut current = digest;
    for step in table {
        let mut ctx = StepCtx::new(step, detection, choices);
        (step.apply)(doc, &mut ctx);
        if ctx.applied() {
            let after = digest_value(doc);
            runs.push(StepRun {
                step,
                changes: ctx.changes,
                warnings: ctx.warnings,
                choice: ctx.choice,
                before_digest: current,
                after_digest: after,
            });
            current = after;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> Value {
        let mut value = json!(1);
        for _ in 0..levels {
            value = json!([value]);
        }
        value
    }

    #[test]
    fn parse_depth_is_serde_jsons_limit() {
        // The limit `parses_back` checks against is the parser's: one level more fails.
        let deepest = nested(PARSE_DEPTH);
        assert!(parses_back(&deepest, PARSE_DEPTH));
        assert!(serde_json::from_str::<Value>(&deepest.to_string()).is_ok());
        let deeper = nested(PARSE_DEPTH + 1);
        assert!(!parses_back(&deeper, PARSE_DEPTH));
        assert!(serde_json::from_str::<Value>(&deeper.to_string()).is_err());
        // Four containers: the object, the object, the array, the empty object.
        assert!(parses_back(&json!({"a": {"b": [1, {}]}}), 4));
        assert!(!parses_back(&json!({"a": {"b": [1, {}]}}), 3));
    }
}
