//! The adapter-seam consequence of an A2A v1.0 migration, as text (for `migrate` on a raw
//! adapter packet): the outcome as sent next to the outcome relabelled `1.0`.

use crate::freeze::{AdapterVerdict, RelabelOutcome, CONVERSION_TABLE, RELABELLED_VERSION};
use crate::json::safe_text;
use std::fmt::Write as _;

fn outcome(verdict: &AdapterVerdict) -> String {
    match verdict {
        Err(error) => format!(
            "rejected [{}] {}: {}",
            error.rule,
            error.kind.name(),
            safe_text(&error.message)
        ),
        Ok(state) => state
            .map(|state| state.name())
            .unwrap_or("NOT a legal handoff state")
            .to_owned(),
    }
}

pub fn relabel_text(relabel: &RelabelOutcome) -> String {
    let sent = relabel
        .sent_version
        .as_deref()
        .unwrap_or("(no string version)");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "what an A2A v1.0 migration means for the handoff seam: this raw adapter packet says version {}; \
         relabelled {RELABELLED_VERSION}, the adapter rejects it before any handoff rule runs.",
        safe_text(sent)
    );
    if let Some(row) = CONVERSION_TABLE.row("C7") {
        let _ = writeln!(out, "  {}: {} -> {}", row.id, row.condition, row.result);
    }
    for (mode, as_sent, relabelled) in &relabel.modes {
        let _ = writeln!(
            out,
            "  {mode:<8} as sent ({}): {}",
            safe_text(sent),
            outcome(as_sent)
        );
        let _ = writeln!(
            out,
            "  {mode:<8} relabelled {RELABELLED_VERSION}: {}",
            outcome(relabelled)
        );
    }
    out
}
