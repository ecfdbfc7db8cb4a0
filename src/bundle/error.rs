//! Upstream's verification error vocabulary (`VerifyError { class, code, message }`), plus what
//! the inspector adds for explanation: the step of the spec's §9 that failed and, where the
//! check compares two values, both of them.

use serde::Serialize;
use std::fmt;

/// Upstream's `ErrorClass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ErrorClass {
    Integrity,
    Contract,
    Security,
    Limits,
}

impl ErrorClass {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Integrity => "Integrity",
            ErrorClass::Contract => "Contract",
            ErrorClass::Security => "Security",
            ErrorClass::Limits => "Limits",
        }
    }
}

enum_with_all! {
    /// Upstream's `ErrorCode`, all 30 variants; the class of each is fixed (`class`).
    /// Variants marked "never" exist upstream but `verify_bundle` does not produce them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub enum ErrorCode {
        IntegrityGzip,
        IntegrityTar,
        IntegrityManifestHash,
        IntegrityEventHash,
        IntegrityFileSizeMismatch,
        IntegrityRunRootMismatch,
        IntegrityIo,
        /// never
        IntegrityZipBomb,
        ContractSchemaVersion,
        ContractFileOrder,
        ContractMissingFile,
        ContractDuplicateFile,
        ContractUnexpectedFile,
        ContractRunIdMismatch,
        ContractBundleIdMismatch,
        ContractSequenceGap,
        ContractSequenceStart,
        ContractInvalidJson,
        ContractInvalidEvent,
        /// never
        ContractMissingManifest,
        /// never
        ContractTimestampRegression,
        LimitPathLength,
        LimitFileSize,
        LimitTotalEvents,
        LimitLineBytes,
        LimitJsonDepth,
        LimitBundleBytes,
        LimitDecodeBytes,
        SecurityPathTraversal,
        /// never
        SecurityAbsolutePath,
    }
}

impl ErrorCode {
    pub fn class(self) -> ErrorClass {
        use ErrorCode::*;
        match self {
            IntegrityGzip
            | IntegrityTar
            | IntegrityManifestHash
            | IntegrityEventHash
            | IntegrityFileSizeMismatch
            | IntegrityRunRootMismatch
            | IntegrityIo
            | IntegrityZipBomb => ErrorClass::Integrity,
            ContractSchemaVersion
            | ContractFileOrder
            | ContractMissingFile
            | ContractDuplicateFile
            | ContractUnexpectedFile
            | ContractRunIdMismatch
            | ContractBundleIdMismatch
            | ContractSequenceGap
            | ContractSequenceStart
            | ContractInvalidJson
            | ContractInvalidEvent
            | ContractMissingManifest
            | ContractTimestampRegression => ErrorClass::Contract,
            LimitPathLength | LimitFileSize | LimitTotalEvents | LimitLineBytes
            | LimitJsonDepth | LimitBundleBytes | LimitDecodeBytes => ErrorClass::Limits,
            SecurityPathTraversal | SecurityAbsolutePath => ErrorClass::Security,
        }
    }

    /// The code's name as upstream prints it (`IntegrityEventHash`).
    pub fn as_str(self) -> String {
        format!("{self:?}")
    }
}

/// Two values a check compared, for explaining a failure ("expected" is what the bundle
/// claims or the contract requires, "found" what the verifier read or recomputed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Compared {
    pub what: String,
    pub expected: String,
    pub found: String,
}

/// The first failed check of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub code: ErrorCode,
    /// Upstream's message (without class and code).
    pub message: String,
    /// The step of the spec's §9 (0..=25) that failed.
    pub step: u8,
    pub compared: Option<Compared>,
}

impl VerifyError {
    pub fn new(step: u8, code: ErrorCode, message: impl Into<String>) -> VerifyError {
        VerifyError {
            code,
            message: message.into(),
            step,
            compared: None,
        }
    }

    pub fn comparing(
        mut self,
        what: &str,
        expected: impl fmt::Display,
        found: impl fmt::Display,
    ) -> VerifyError {
        self.compared = Some(Compared {
            what: what.into(),
            expected: expected.to_string(),
            found: found.to_string(),
        });
        self
    }

    pub fn class(&self) -> ErrorClass {
        self.code.class()
    }
}

/// Upstream's Display: `"{class}: {message} ({code})"`.
impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({:?})",
            self.class().as_str(),
            self.message,
            self.code
        )
    }
}

impl std::error::Error for VerifyError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_upstreams() {
        let error = VerifyError::new(
            17,
            ErrorCode::IntegrityEventHash,
            "Content hash mismatch at seq 1",
        );
        assert_eq!(
            error.to_string(),
            "Integrity: Content hash mismatch at seq 1 (IntegrityEventHash)"
        );
        assert_eq!(
            ErrorCode::SecurityPathTraversal.class(),
            ErrorClass::Security
        );
        assert_eq!(ErrorCode::LimitDecodeBytes.as_str(), "LimitDecodeBytes");
    }
}
