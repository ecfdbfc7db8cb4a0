//! What every subcommand shares: the exit-code convention, the error type, and a buffered
//! stdout that stops quietly when the reader goes away (`| head`).

use std::fmt;
use std::io::{self, Write};

/// Exit codes: 0 all conform / converted, 1 a finding or a failed packet, 2 usage or I/O error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    Findings = 1,
    Usage = 2,
}

impl Exit {
    /// The exit of a command over many packets: I/O problems first, then failed packets.
    pub fn from_counts(load_errors: usize, failures: usize) -> Exit {
        if load_errors > 0 {
            Exit::Usage
        } else if failures > 0 {
            Exit::Findings
        } else {
            Exit::Ok
        }
    }

    /// The exit for a tally's code (`CheckTally::exit_code`: 0, 1 or 2), as `check` and
    /// `report` both end.
    pub fn from_code(code: u8) -> Exit {
        match code {
            0 => Exit::Ok,
            1 => Exit::Findings,
            _ => Exit::Usage,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}

/// Errors that end a command with exit 2.
#[derive(Debug)]
pub enum CliError {
    Usage(String),
    Io {
        path: String,
        error: io::Error,
    },
    /// A file the input layer refused or could not read (path and reason).
    Input(crate::input::InputError),
}

impl From<crate::input::InputError> for CliError {
    fn from(error: crate::input::InputError) -> Self {
        CliError::Input(error)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::Io { path, error } => write!(
                f,
                "{}: {}",
                crate::json::safe_text(path),
                crate::input::describe_io(error)
            ),
            CliError::Input(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for CliError {}

/// Buffered standard output. A closed pipe is not an error worth a message.
pub struct Output {
    inner: io::BufWriter<Box<dyn Write>>,
    closed: bool,
}

impl Output {
    pub fn new(writer: impl Write + 'static) -> Output {
        Output {
            inner: io::BufWriter::with_capacity(1 << 16, Box::new(writer)),
            closed: false,
        }
    }

    pub fn line(&mut self, text: &str) {
        self.line_bytes(text.as_bytes());
    }

    /// A line already made terminal-safe by its writer (e.g. `safe_json_bytes`).
    pub fn line_bytes(&mut self, text: &[u8]) {
        if self.closed {
            return;
        }
        if self
            .inner
            .write_all(text)
            .and_then(|_| self.inner.write_all(b"\n"))
            .is_err()
        {
            self.closed = true;
        }
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// For writers that stream bytes (JUnit); a closed pipe ends quietly as with `line`.
impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if !self.closed && self.inner.write_all(bytes).is_err() {
            self.closed = true;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
