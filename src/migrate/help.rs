//! Help text and docs generated from the step and choice tables, so they cannot drift.

use super::choices::ChoiceDef;
use super::step::{Direction, Phase, StepDef};
use super::{choices_for, steps_for};

/// `lossy, choice KEY=DEFAULT, advisory` (empty when none apply).
pub fn flags(step: &StepDef) -> String {
    let mut flags = Vec::new();
    if step.lossy {
        flags.push("lossy".to_owned());
    }
    if let Some(choice) = step.choice {
        flags.push(format!("choice {}={}", choice.key, choice.default));
    }
    if step.advisory {
        flags.push("advisory".to_owned());
    }
    flags.join(", ")
}

/// One line per step: `id  title  [flags]`.
fn steps_text(direction: Direction) -> String {
    let steps = steps_for(direction);
    let width = steps.iter().map(|step| step.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for step in steps {
        let flags = flags(step);
        let flags = if flags.is_empty() {
            String::new()
        } else {
            format!("  [{flags}]")
        };
        out.push_str(&format!("  {:width$}  {}{flags}\n", step.id, step.title));
    }
    out
}

/// One block per choice: the key, its question, the default and the options.
fn choices_text(choices: &[&'static ChoiceDef]) -> String {
    let mut out = String::new();
    for choice in choices {
        out.push_str(&format!("  {}  {}\n", choice.describe(), choice.question));
        for option in choice.options {
            out.push_str(&format!("      {}: {}\n", option.value, option.meaning));
        }
    }
    out
}

/// Every choice of both directions, each once.
fn all_choices() -> Vec<&'static ChoiceDef> {
    let mut all = choices_for(Direction::Forward);
    for choice in choices_for(Direction::Reverse) {
        if !all.iter().any(|known| known.key == choice.key) {
            all.push(choice);
        }
    }
    all
}

/// The text after `migrate --help`.
pub fn after_help() -> String {
    format!(
        "Steps, v0.3 -> v1.0, in the order they run:\n{}\nSteps, v1.0 -> v0.3 (--to 0.3):\n{}\n\
         Choices (--choice KEY=VALUE; otherwise the default is taken):\n{}\n\
         Kinds (--kind KIND, when the shape cannot tell):\n  {}\n",
        steps_text(Direction::Forward),
        steps_text(Direction::Reverse),
        choices_text(&all_choices()),
        kinds_text(),
    )
}

/// The `--kind` names, wrapped.
fn kinds_text() -> String {
    let keys: Vec<String> = super::model::ObjectKind::ALL
        .iter()
        .map(|kind| kind.key())
        .collect();
    let mut out = String::new();
    let mut width = 0;
    for (index, key) in keys.iter().enumerate() {
        if index > 0 {
            if width + key.len() + 2 > 90 {
                out.push_str(",\n  ");
                width = 0;
            } else {
                out.push_str(", ");
                width += 2;
            }
        }
        out.push_str(key);
        width += key.len();
    }
    out
}

fn phase_label(phase: Phase) -> &'static str {
    match phase {
        Phase::Envelope => "envelope",
        Phase::Params => "params",
        Phase::Core => "core objects",
        Phase::Card => "agent card",
        Phase::Members => "unknown members",
        Phase::Transport => "transport (advice)",
    }
}

/// The step ids of `direction` as one Markdown bullet per phase, in order, each marked with
/// its flags: `(lossy)`, `(choice)`, `(advice)`. Short enough for docs/migrate.md.
pub fn steps_markdown(direction: Direction) -> String {
    let mut out = String::new();
    let mut current: Option<Phase> = None;
    for step in steps_for(direction) {
        if current != Some(step.phase) {
            if current.is_some() {
                out.push('\n');
            }
            out.push_str(&format!("- {}: ", phase_label(step.phase)));
            current = Some(step.phase);
        } else {
            out.push_str(", ");
        }
        let mut marks = Vec::new();
        if step.lossy {
            marks.push("lossy");
        }
        if step.choice.is_some() {
            marks.push("choice");
        }
        if step.advisory {
            marks.push("advice");
        }
        out.push_str(&format!("`{}`", step.id));
        if !marks.is_empty() {
            out.push_str(&format!(" ({})", marks.join(", ")));
        }
    }
    out.push('\n');
    out
}
