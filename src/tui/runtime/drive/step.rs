//! One thing that happens to the inspector under the headless driver.

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

/// One thing that happens to the inspector.
#[derive(Clone, Debug)]
pub enum Step {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Writes a file into the scratch corpus (added, or changed if it exists).
    WriteFile {
        name: String,
        contents: String,
    },
    /// Removes a file from the scratch corpus.
    RemoveFile {
        name: String,
    },
    /// The watcher reports the files changed since its last report.
    Notify,
    /// The loader delivers up to this many of its pending results.
    Deliver(usize),
}
