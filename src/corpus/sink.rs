//! What a corpus run hands its results to, and how a run ends early: the sink answers each
//! result with "go on" or "stop", or fails, and the run stops at once in both cases, so a
//! closed pipe or a full disk never costs the rest of the corpus.

use super::run::PacketChecker;
pub use std::ops::ControlFlow;
use std::sync::Arc;

/// Takes a corpus run's results in walk order: manifest errors first, then every packet or
/// load error. Modelled on ripgrep's `Sink`: each call may stop the run
/// (`ControlFlow::Break`) or fail it (`Err`).
pub trait CheckSink<T> {
    type Error;
    /// One result, as the run's `prepare` made it on a worker thread.
    fn take(&mut self, item: T) -> Result<ControlFlow<()>, Self::Error>;
    /// The run's [`PacketChecker`], before the first result: what checks one packet again
    /// exactly as this run did (the inspector keeps a compact row per packet and checks the
    /// selected one again for its detail).
    fn checker(&mut self, _checker: &Arc<PacketChecker>) {}
}

/// A closure as a sink that takes everything and never fails (the callers that collect).
pub struct Collect<F>(pub F);

impl<T, F: FnMut(T)> CheckSink<T> for Collect<F> {
    type Error = std::convert::Infallible;
    fn take(&mut self, item: T) -> Result<ControlFlow<()>, Self::Error> {
        (self.0)(item);
        Ok(ControlFlow::Continue(()))
    }
}

/// Why a corpus run ended before its walk did.
#[derive(Debug)]
pub enum RunError<E> {
    /// The run could not start its worker threads.
    Start(String),
    /// The sink failed with this error.
    Sink(E),
}

impl<E: std::fmt::Display> std::fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Start(reason) => f.write_str(reason),
            RunError::Sink(error) => error.fmt(f),
        }
    }
}

impl RunError<std::convert::Infallible> {
    /// The reason a run whose sink cannot fail did not start.
    pub fn into_start(self) -> String {
        match self {
            RunError::Start(reason) => reason,
            RunError::Sink(never) => match never {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collect_takes_every_item_and_goes_on() {
        let mut seen = Vec::new();
        let mut sink = Collect(|item: u8| seen.push(item));
        assert_eq!(sink.take(1).ok(), Some(ControlFlow::Continue(())));
        assert_eq!(sink.take(2).ok(), Some(ControlFlow::Continue(())));
        assert_eq!(seen, [1, 2]);
    }
}
