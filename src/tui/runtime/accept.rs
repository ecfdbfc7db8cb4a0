//! Recording a reviewed packet's golden: shared by the interactive runtime and the headless
//! driver, so both report the same thing and re-check the same files.

use crate::corpus::PacketCheck;
use crate::tui::state::app::App;
use std::path::PathBuf;

/// Records `check`'s outcome as its packet's golden (the library refuses under CI and never
/// overwrites a malformed manifest). Returns the status message and the packet files to check
/// again: those of the packet's directory, whose verdicts the manifest decides.
pub fn accept_golden(app: &App, check: &PacketCheck) -> (String, Vec<PathBuf>) {
    let source = &check.summary.source;
    if !app.packets.iter().any(|packet| &packet.source == source) {
        return (
            format!(
                "not recorded: {} is no longer listed",
                crate::json::safe_text(&source.to_string())
            ),
            Vec::new(),
        );
    }
    match crate::corpus::accept_golden(check, &app.options) {
        // Nothing written, so nothing to say was recorded and no verdict to check again.
        Ok(accepted) if accepted.changes.is_empty() => (accepted_message(&accepted), Vec::new()),
        Ok(accepted) => (accepted_message(&accepted), app.files_in_dir_of(source)),
        Err(reason) => (
            format!(
                "not recorded: {}",
                crate::json::safe_text(&reason.to_string())
            ),
            Vec::new(),
        ),
    }
}

/// What an accept says: "recorded" only when the manifest changed (the library writes
/// nothing when the golden it holds is already the packet's).
fn accepted_message(accepted: &crate::corpus::Accepted) -> String {
    let path = accepted.manifest.display().to_string();
    let manifest = crate::json::safe_text(&path);
    match accepted.changes.len() {
        0 => format!("nothing recorded: {manifest} already holds this packet's golden"),
        changes => format!("golden recorded in {manifest} ({changes} change(s))"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accept_that_changes_nothing_says_nothing_was_recorded() {
        let accepted = crate::corpus::Accepted {
            manifest: PathBuf::from("a2a/goldens.json"),
            changes: Vec::new(),
        };
        let message = accepted_message(&accepted);
        assert!(!message.contains("recorded in"), "{message}");
        assert!(!message.contains("change(s)"), "{message}");
        assert_eq!(
            message,
            "nothing recorded: a2a/goldens.json already holds this packet's golden"
        );
    }
}
