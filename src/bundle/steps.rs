//! The checks of upstream's verification (spec §9) as data, in order, and each one's outcome
//! for a bundle: what `explain BUNDLE` lists. The verifier stops at the first failure, so a
//! check after it was not reached (and says nothing either way).

use super::error::VerifyError;

/// One check of spec §9: its step number, what it checks, and the codes it can give.
#[derive(Debug)]
pub struct Step {
    pub step: u8,
    pub title: &'static str,
    pub codes: &'static str,
}

pub static STEPS: [Step; 25] = [
    Step { step: 0, title: "input within max_bundle_bytes", codes: "LimitBundleBytes, IntegrityGzip" },
    Step { step: 1, title: "gzip decodes and tar members can be read (within max_decode_bytes)", codes: "IntegrityTar, LimitDecodeBytes" },
    Step { step: 2, title: "member name within max_path_len", codes: "LimitPathLength" },
    Step { step: 3, title: "declared member size within max_manifest_bytes / max_events_bytes", codes: "LimitFileSize" },
    Step { step: 4, title: "no `..`, root or prefix component in a member name", codes: "SecurityPathTraversal" },
    Step { step: 5, title: "member name is manifest.json or events.ndjson", codes: "ContractUnexpectedFile" },
    Step { step: 6, title: "no member name twice", codes: "ContractDuplicateFile" },
    Step { step: 7, title: "member #0 is manifest.json", codes: "ContractFileOrder" },
    Step { step: 8, title: "manifest reads, is UTF-8 strict JSON of upstream's type, schema_version 1", codes: "IntegrityIo, ContractInvalidJson, LimitJsonDepth, ContractSchemaVersion" },
    Step { step: 9, title: "manifest lists events.ndjson and its size equals the tar header's", codes: "ContractMissingFile, IntegrityFileSizeMismatch" },
    Step { step: 10, title: "each line within max_line_bytes and readable", codes: "LimitLineBytes, IntegrityIo" },
    Step { step: 11, title: "no byte-order mark", codes: "ContractInvalidJson" },
    Step { step: 12, title: "at most max_events lines", codes: "LimitTotalEvents" },
    Step { step: 13, title: "no blank line", codes: "ContractInvalidEvent" },
    Step { step: 14, title: "each line is UTF-8 strict JSON of upstream's event type", codes: "ContractInvalidJson, LimitJsonDepth" },
    Step { step: 15, title: "specversion is 1.0", codes: "ContractSchemaVersion" },
    Step { step: 16, title: "each event carries assaycontenthash", codes: "ContractSchemaVersion" },
    Step { step: 17, title: "recomputed content hash equals the stored one", codes: "IntegrityEventHash" },
    Step { step: 18, title: "assayseq starts at 0 and is contiguous", codes: "ContractSequenceStart, ContractSequenceGap" },
    Step { step: 19, title: "assayrunid equals the manifest's run_id", codes: "ContractRunIdMismatch" },
    Step { step: 20, title: "source is a URI, the same on every event", codes: "ContractInvalidEvent" },
    Step { step: 21, title: "run_id has no colon", codes: "ContractInvalidEvent" },
    Step { step: 22, title: "id is run_id:seq", codes: "ContractInvalidEvent" },
    Step { step: 23, title: "events.ndjson byte count and SHA-256 equal the manifest's", codes: "IntegrityFileSizeMismatch, IntegrityManifestHash" },
    Step { step: 24, title: "at least one event; event_count, run_root and bundle_id agree with the lines", codes: "ContractInvalidEvent, ContractSequenceGap, IntegrityRunRootMismatch, ContractBundleIdMismatch" },
];

/// The last check, after the tar walk (listed separately: step 25 is both "an events member
/// exists" and "the gzip trailer is sound").
static FINAL_STEP: Step = Step {
    step: 25,
    title: "an events.ndjson member exists; the gzip stream ends with a sound trailer",
    codes: "ContractMissingFile, IntegrityGzip, LimitDecodeBytes",
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    Pass,
    Fail,
    /// The verifier stopped at an earlier failure.
    NotReached,
}

impl StepOutcome {
    pub fn label(self) -> &'static str {
        match self {
            StepOutcome::Pass => "pass",
            StepOutcome::Fail => "FAIL",
            StepOutcome::NotReached => "not reached",
        }
    }
}

/// Every check in order with its outcome for a verdict. Checks numbered before the failed
/// one passed for every member and line the verifier reached (the per-member checks 2-8 run
/// again for a member after events.ndjson, so "pass" there means: for the members before the
/// failing one).
pub fn outcomes(verdict: Result<(), &VerifyError>) -> Vec<(&'static Step, StepOutcome)> {
    STEPS
        .iter()
        .chain(std::iter::once(&FINAL_STEP))
        .map(|step| {
            let outcome = match verdict {
                Ok(()) => StepOutcome::Pass,
                Err(error) if step.step < error.step => StepOutcome::Pass,
                Err(error) if step.step == error.step => StepOutcome::Fail,
                Err(_) => StepOutcome::NotReached,
            };
            (step, outcome)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::ErrorCode;

    #[test]
    fn steps_are_in_order_and_the_failed_one_fails() {
        let numbers: Vec<u8> = outcomes(Ok(())).iter().map(|(step, _)| step.step).collect();
        assert_eq!(numbers, (0..=25).collect::<Vec<u8>>());
        let error = VerifyError::new(17, ErrorCode::IntegrityEventHash, "x");
        let shown = outcomes(Err(&error));
        assert_eq!(shown[16].1, StepOutcome::Pass);
        assert_eq!(shown[17].1, StepOutcome::Fail);
        assert_eq!(shown[18].1, StepOutcome::NotReached);
        // Every code a step names is one of upstream's.
        for (step, _) in shown {
            assert!(!step.codes.is_empty(), "{}", step.step);
        }
    }
}
