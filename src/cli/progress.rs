//! A progress line on standard error while a command works, as cargo draws one: packets,
//! files, rate and elapsed time, from the run's `corpus::WorkCounts`, redrawn ten times a
//! second by a thread of its own, shown only once a second of work has passed and cleared
//! when the work ends. `Output` starts it only when standard error is a terminal (and the
//! command's results do not stream to the same terminal meanwhile), so a pipe or a file gets
//! nothing.

use crate::corpus::{Source, WorkCounts};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Work shorter than this shows no line at all.
const SHOWN_AFTER: Duration = Duration::from_secs(1);

/// Sets [`SHOWN_AFTER`] in milliseconds, so the tests on a pseudo-terminal see the line
/// without a corpus that takes seconds to check.
const SHOWN_AFTER_VARIABLE: &str = "HANDOFF_INSPECTOR_PROGRESS_AFTER_MS";

fn shown_after() -> Duration {
    std::env::var(SHOWN_AFTER_VARIABLE)
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(SHOWN_AFTER, Duration::from_millis)
}

/// How often the line is redrawn (the run itself only bumps counters).
const REDRAWN_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    counts: Arc<WorkCounts>,
    /// The file of the previous result, for counting files (`WorkCounts::took`).
    last: Option<Arc<Path>>,
    bar: ProgressBar,
    /// Dropped to stop the drawing thread.
    stop: Option<mpsc::Sender<()>>,
    drawer: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts the drawing thread; the line begins with `what` (`checking`).
    pub fn start(what: &'static str) -> Progress {
        let counts = WorkCounts::new();
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix}: {msg}") {
            bar.set_style(style);
        }
        bar.set_prefix(what);
        let (stop, stopped) = mpsc::channel::<()>();
        let drawer = std::thread::Builder::new()
            .name("progress".into())
            .spawn({
                let (counts, bar, after) = (counts.clone(), bar.clone(), shown_after());
                move || {
                    let started = Instant::now();
                    draw_until(&stopped, &counts, &bar, started, started + after)
                }
            })
            .ok();
        Progress {
            counts,
            last: None,
            bar,
            stop: Some(stop),
            drawer,
        }
    }

    /// One result of `source` taken.
    pub fn took(&mut self, source: &Source) {
        self.counts.took(source, &mut self.last);
    }

    /// The counts, for a run that takes its results elsewhere (`diff`'s two readers).
    pub fn counts(&self) -> &Arc<WorkCounts> {
        &self.counts
    }

    /// Runs `write` with the line cleared, and draws it again after: a note written while
    /// the line is shown gets a line of its own.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }
}

/// The line goes when the work ends: the thread stopped, the line cleared.
impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(drawer) = self.drawer.take() {
            let _ = drawer.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Redraws the line every [`REDRAWN_EVERY`] from `shown_from` on, until `stopped`.
fn draw_until(
    stopped: &mpsc::Receiver<()>,
    counts: &WorkCounts,
    bar: &ProgressBar,
    started: Instant,
    shown_from: Instant,
) {
    // Drawn before the first wait once it is due: a line due at once (a delay of 0) is drawn
    // even by work that ends within the first redraw interval (the drop joins this thread
    // before it clears the line).
    loop {
        if Instant::now() >= shown_from {
            let elapsed = started.elapsed();
            if bar.is_hidden() {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_message(line(counts.packets(), counts.files(), elapsed));
            bar.tick();
        }
        match stopped.recv_timeout(REDRAWN_EVERY) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// `1200 packets, 3 files, 400 packets/s, 3.0 s`.
fn line(packets: u64, files: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}, {}, {:.0} packets/s, {seconds:.1} s",
        plural(packets, "packet"),
        plural(files, "file"),
        packets as f64 / seconds.max(1e-3)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_counts_rate_and_time() {
        assert_eq!(
            line(1200, 1, Duration::from_secs(3)),
            "1200 packets, 1 file, 400 packets/s, 3.0 s"
        );
    }

    #[test]
    fn short_work_starts_and_ends_without_drawing() {
        let mut progress = Progress::start("checking");
        progress.took(&Source::file("a.json"));
        assert_eq!(progress.counts().packets(), 1);
        assert!(progress.bar.is_hidden());
        drop(progress);
    }
}
