//! What every subcommand shares: the exit-code convention, the error type, and a buffered
//! stdout that stops quietly when the reader goes away (`| head`).

use super::progress::Progress;
use crate::corpus::WorkCounts;
use crate::report::styled::{StyledText, StyledWrite};
use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

/// Exit codes: 0 all conform / converted, 1 a finding or a failed packet, 2 usage or I/O error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    Findings = 1,
    Usage = 2,
}

impl Exit {
    /// The exit of a command over many packets: I/O problems first, then failed packets.
    pub(crate) fn from_counts(load_errors: usize, failures: usize) -> Exit {
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
    pub(crate) fn from_code(code: u8) -> Exit {
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

/// How the output streams stand.
#[derive(Debug)]
enum Stream {
    Open,
    /// The reader went away (`BrokenPipe`, on stdout or stderr): the command ends quietly.
    Closed,
    /// Any other write error (a full disk, an I/O error): the command ends with exit 2 and
    /// this message.
    Failed {
        stream: &'static str,
        error: io::Error,
    },
}

/// The two streams a command writes: buffered standard output for its results and standard
/// error for its notes. A closed pipe on either is a quiet end: nothing more is written, and
/// [`Output::stopped`] tells the command's loops to stop working. Any other write error is
/// kept and ends the command with exit 2 naming the stream ([`Output::finish`]). Nothing here
/// panics, as `println!` and `eprintln!` do on a closed pipe.
pub struct Output {
    inner: io::BufWriter<Box<dyn Write>>,
    notes: Box<dyn Write>,
    stream: Stream,
    /// Whether styled text is drawn in colour (`--color`); plain text is never touched.
    color: bool,
    /// Which of standard output and standard error are terminals (a progress line needs
    /// standard error to be one).
    terminals: Terminals,
    /// The progress line of the work under way, when one is drawn.
    progress: Option<Progress>,
}

/// Which streams are terminals.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terminals {
    pub stdout: bool,
    pub stderr: bool,
}

impl Output {
    /// Results to `writer`, notes to standard error.
    pub fn new(writer: impl Write + 'static) -> Output {
        Output::with_notes(writer, io::stderr())
    }

    /// Results to `writer`, notes to `notes` (tests give both).
    fn with_notes(writer: impl Write + 'static, notes: impl Write + 'static) -> Output {
        Output {
            inner: io::BufWriter::with_capacity(1 << 16, Box::new(writer)),
            notes: Box::new(notes),
            stream: Stream::Open,
            color: false,
            terminals: Terminals::default(),
            progress: None,
        }
    }

    /// Says which streams are terminals (default: neither, as for tests' writers).
    pub(crate) fn with_terminals(mut self, terminals: Terminals) -> Output {
        self.terminals = terminals;
        self
    }

    /// Starts a progress line for work `what` (`checking`) when standard error is a
    /// terminal, unless the command's results stream to standard output meanwhile
    /// (`streams_stdout`) and that is a terminal too. Work shorter than a second draws nothing.
    pub(crate) fn start_progress(&mut self, what: &'static str, streams_stdout: bool) {
        let over_results = streams_stdout && self.terminals.stdout;
        if self.terminals.stderr && !over_results && self.progress.is_none() {
            self.progress = Some(Progress::start(what));
        }
    }

    /// One result of `source` taken by the work under way (nothing without a progress line).
    pub(crate) fn progress_took(&mut self, source: &crate::corpus::Source) {
        if let Some(progress) = &mut self.progress {
            progress.took(source);
        }
    }

    /// The counts the progress line reads, for work that takes its results elsewhere.
    pub(crate) fn progress_counts(&self) -> Option<Arc<WorkCounts>> {
        self.progress
            .as_ref()
            .map(|progress| progress.counts().clone())
    }

    /// Ends the progress line (clears it), when there is one.
    pub(crate) fn end_progress(&mut self) {
        self.progress = None;
    }

    /// Before results go to a terminal, the progress line on it goes.
    fn before_results(&mut self) {
        if self.progress.is_some() && self.terminals.stdout {
            self.end_progress();
        }
    }

    /// Draws styled text in colour from now on (`--color` decided it for standard output).
    pub(crate) fn with_color(mut self, color: bool) -> Output {
        self.color = color;
        self
    }

    /// A line of styled text: its styles in colour when colour is on, the plain text (byte
    /// for byte what `line` writes) otherwise.
    pub fn styled_line(&mut self, text: &StyledText) {
        if self.color {
            self.line(&super::color::ansi(text));
        } else {
            self.line(text.as_str());
        }
    }

    pub fn line(&mut self, text: &str) {
        self.line_bytes(text.as_bytes());
    }

    /// A line already made terminal-safe by its writer (e.g. `safe_json_bytes`).
    pub(crate) fn line_bytes(&mut self, text: &[u8]) {
        if self.stopped() {
            return;
        }
        self.before_results();
        let written = self
            .inner
            .write_all(text)
            .and_then(|_| self.inner.write_all(b"\n"));
        if let Err(error) = written {
            self.fail("standard output", error);
        }
    }

    /// A note on standard error, `handoff-inspector: ` before each of its lines, made
    /// terminal-safe (notes carry file names and packet text). Standard output is flushed
    /// first, so results and notes keep their order on a shared terminal.
    pub fn note(&mut self, text: &str) {
        if self.stopped() {
            return;
        }
        if let Err(error) = self.inner.flush() {
            self.fail("standard output", error);
            return;
        }
        let notes = &mut self.notes;
        let mut write = move || -> io::Result<()> {
            for line in text.lines() {
                writeln!(notes, "handoff-inspector: {}", crate::json::safe_text(line))?;
            }
            Ok(())
        };
        // A note while a progress line is drawn: the line cleared first and drawn after.
        let written = match &self.progress {
            Some(progress) => progress.suspend(write),
            None => write(),
        };
        if let Err(error) = written {
            self.fail("standard error", error);
        }
    }

    fn fail(&mut self, stream: &'static str, error: io::Error) {
        if matches!(self.stream, Stream::Open) {
            self.stream = match error.kind() {
                io::ErrorKind::BrokenPipe => Stream::Closed,
                _ => Stream::Failed { stream, error },
            };
        }
    }

    /// Whether writing has ended (a closed pipe or a write error): a command's loop stops
    /// its work here, since nothing it finds can be shown.
    pub fn stopped(&self) -> bool {
        !matches!(self.stream, Stream::Open)
    }

    /// Whether the reader went away (a closed pipe), which ends a command quietly.
    pub fn closed(&self) -> bool {
        matches!(self.stream, Stream::Closed)
    }

    /// Flushes standard output and says how writing went: `Ok` when everything was written
    /// or the reader went away, the first write error otherwise.
    pub fn finish(&mut self) -> Result<(), CliError> {
        self.end_progress();
        if let Err(error) = self.inner.flush() {
            self.fail("standard output", error);
        }
        match std::mem::replace(&mut self.stream, Stream::Closed) {
            Stream::Failed { stream, error } => Err(CliError::Io {
                path: stream.to_owned(),
                error,
            }),
            Stream::Open | Stream::Closed => Ok(()),
        }
    }

    /// Flushes standard output now (before a note, or a long wait); a failure is kept as a
    /// write's is.
    pub fn flush(&mut self) -> io::Result<()> {
        Write::flush(self)
    }
}

/// For writers that stream bytes (JUnit, the check report): a write after the streams
/// stopped fails with the error that stopped them, so the writer ends too.
impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.stopped() {
            return Err(self.stop_error());
        }
        self.before_results();
        match self.inner.write_all(bytes) {
            Ok(()) => Ok(bytes.len()),
            Err(error) => {
                self.fail("standard output", error);
                Err(self.stop_error())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.stopped() {
            return Err(self.stop_error());
        }
        match self.inner.flush() {
            Ok(()) => Ok(()),
            Err(error) => {
                self.fail("standard output", error);
                Err(self.stop_error())
            }
        }
    }
}

/// Report writers hand their styled text here: drawn as [`Output::styled_line`] draws it.
impl StyledWrite for Output {
    fn write_styled(&mut self, text: &StyledText) -> io::Result<()> {
        if self.color {
            self.write_all(super::color::ansi(text).as_bytes())
        } else {
            self.write_all(text.as_str().as_bytes())
        }
    }
}

impl Output {
    /// The error a stopped stream answers a write with (its kind; the message is kept).
    fn stop_error(&self) -> io::Error {
        match &self.stream {
            Stream::Failed { error, .. } => io::Error::new(error.kind(), error.to_string()),
            Stream::Open | Stream::Closed => io::ErrorKind::BrokenPipe.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that accepts `room` bytes, then fails with `kind`.
    struct Failing {
        room: usize,
        kind: io::ErrorKind,
    }

    impl Write for Failing {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(self.kind.into());
            }
            let n = bytes.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_stops_quietly() {
        let mut output = Output::with_notes(
            Failing {
                room: 0,
                kind: io::ErrorKind::BrokenPipe,
            },
            io::sink(),
        );
        output.line("x");
        assert!(!output.stopped(), "buffered until a flush");
        assert!(output.flush().is_err());
        assert!(output.stopped() && output.closed());
        assert!(output.finish().is_ok());
    }

    #[test]
    fn a_full_disk_is_an_error_naming_the_stream() {
        let mut output = Output::with_notes(
            Failing {
                room: 3,
                kind: io::ErrorKind::StorageFull,
            },
            io::sink(),
        );
        output.line("hello");
        assert!(!output.closed(), "a full disk is not a closed pipe");
        let error = output.finish().err().map(|error| error.to_string());
        let error = error.unwrap_or_default();
        assert!(error.starts_with("standard output: "), "{error}");
    }

    #[test]
    fn a_closed_stderr_stops_the_command_too() {
        let mut output = Output::with_notes(
            io::sink(),
            Failing {
                room: 0,
                kind: io::ErrorKind::BrokenPipe,
            },
        );
        output.note("a note");
        assert!(output.stopped() && output.closed());
        output.line("not written");
        assert!(output.finish().is_ok());
    }

    #[test]
    fn notes_are_terminal_safe_and_prefixed() {
        let notes = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut output = Output::with_notes(io::sink(), Shared(notes.clone()));
        output.note("a\u{1b}[31mb\nsecond");
        assert_eq!(
            String::from_utf8_lossy(&notes.borrow()),
            "handoff-inspector: a\\u{1b}[31mb\nhandoff-inspector: second\n"
        );
    }
}
