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
        Ok(accepted) => (
            format!(
                "golden recorded in {} ({} change(s))",
                crate::json::safe_text(&accepted.manifest.display().to_string()),
                accepted.changes.len()
            ),
            app.files_in_dir_of(source),
        ),
        Err(reason) => (
            format!(
                "not recorded: {}",
                crate::json::safe_text(&reason.to_string())
            ),
            Vec::new(),
        ),
    }
}
