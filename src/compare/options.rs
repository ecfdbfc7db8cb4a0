//! How two runs are compared: the options both sides are read with, below every file that
//! reads them.

use crate::a2a::Mode;
use crate::corpus::{EvaluateOptions, PipelineOptions, WorkCounts};
use crate::input::WalkOptions;

/// How two runs are compared.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// The mode raw packets are converted in.
    pub mode: Mode,
    /// How packets are evaluated (only `mode` is run).
    pub evaluate: EvaluateOptions,
    pub pipeline: PipelineOptions,
    /// How each side's PATH is walked (`--no-ignore`, `--follow-outside`).
    pub walk: WalkOptions,
    /// The keys a bundle side's attestation is judged against (none: not judged).
    pub trusted_keys: std::sync::Arc<[crate::bundle::attest::TrustedKey]>,
    /// Bumped for every packet read on either side, when a face shows progress.
    pub counts: Option<std::sync::Arc<WorkCounts>>,
}

impl CompareOptions {
    /// Options for comparing in `mode`; PATHs are walked with the default walk options
    /// (set `walk` for `--no-ignore`, `--follow-outside`).
    pub fn new(mode: Mode, evaluate: EvaluateOptions, pipeline: PipelineOptions) -> CompareOptions {
        let mut evaluate = evaluate;
        // A comparison reads kinds and states, never a check's findings.
        evaluate.check_findings = false;
        evaluate.modes = vec![mode];
        evaluate.conversion = evaluate.conversion.with_mode(mode);
        CompareOptions {
            mode,
            evaluate,
            pipeline,
            walk: WalkOptions::default(),
            trusted_keys: std::sync::Arc::new([]),
            counts: None,
        }
    }
}
