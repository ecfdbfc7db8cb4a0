//! Entering and leaving the terminal. The guard restores the screen when dropped, the panic
//! hook restores it before the panic message prints, and the interrupt hook before a signal
//! ends the process, so no exit path leaves the terminal in raw mode or on the alternate
//! screen.

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;
use std::io::{self, Stdout, Write};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

pub struct TerminalGuard {
    pub terminal: Term,
}

fn restore() {
    let _ = disable_raw_mode();
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = stdout.flush();
}

/// `restore` for the interrupt cleanup's thread: the process's stdout stays locked by the
/// command line's output for the whole run, so this writes to a duplicate of its descriptor
/// instead of waiting on that lock (it would wait forever, and the signal would never end
/// the process).
#[cfg(unix)]
fn restore_from_interrupt() {
    use std::os::fd::AsFd;
    let _ = disable_raw_mode();
    let mut bytes = Vec::new();
    let _ = ratatui::crossterm::queue!(
        bytes,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
        let _ = std::fs::File::from(fd).write_all(&bytes);
    }
}

/// Without unix signals there is no interrupt cleanup to call it.
#[cfg(not(unix))]
fn restore_from_interrupt() {
    restore();
}

impl TerminalGuard {
    pub fn enter() -> io::Result<TerminalGuard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        // A SIGTERM or SIGHUP (Ctrl-C is a key in raw mode) ends the process from the
        // interrupt cleanup's thread: the screen is restored there first.
        crate::persist::set_interrupt_hook(Some(restore_from_interrupt));
        if let Err(error) = enable_raw_mode() {
            crate::persist::set_interrupt_hook(None);
            return Err(error);
        }
        let mut stdout = io::stdout();
        if let Err(error) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
            leave();
            return Err(error);
        }
        match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(error) => {
                leave();
                Err(error)
            }
        }
    }
}

impl TerminalGuard {
    /// Runs `hand_over` with the terminal as the shell left it (raw mode off, the main
    /// screen, no mouse capture, the cursor shown), as gitui runs an editor, then takes the
    /// terminal back and clears it so the next draw is whole. An error taking it back is the
    /// caller's; the interrupt hook stays set, so a signal meanwhile still restores it.
    pub fn suspend<R>(&mut self, hand_over: impl FnOnce() -> R) -> io::Result<R> {
        restore();
        let result = hand_over();
        enable_raw_mode()?;
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
        self.terminal.clear()?;
        Ok(result)
    }
}

/// Restores the terminal and tells the interrupt cleanup there is nothing to restore.
fn leave() {
    crate::persist::set_interrupt_hook(None);
    restore();
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        leave();
    }
}

/// Copies text to the clipboard with OSC 52 (works over SSH and in tmux with set-clipboard).
pub fn copy_osc52(text: &str) {
    let mut stdout = io::stdout();
    let _ = write!(stdout, "\x1b]52;c;{}\x07", base64(text.as_bytes()));
    let _ = stdout.flush();
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let triple = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for index in 0..4 {
            if index <= chunk.len() {
                out.push(char::from(
                    ALPHABET[(triple >> (18 - 6 * index) & 63) as usize],
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, output) in vectors {
            assert_eq!(super::base64(input.as_bytes()), output);
        }
    }
}
