//! Error values that several steps share: the strict pre-check's, a read's, the decode ceiling's.

use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::Limits;
use crate::bundle::strict::StrictError;
use std::cell::Cell;
use std::io;

pub(super) fn strict_error(step: u8, error: StrictError, what: &str) -> VerifyError {
    match error {
        StrictError::Depth { limit } => VerifyError::new(
            step,
            C::LimitJsonDepth,
            format!("{what}: JSON nesting exceeds limit {limit}"),
        ),
        StrictError::Invalid(message) => {
            VerifyError::new(step, C::ContractInvalidJson, format!("{what}: {message}"))
        }
    }
}

/// An io error met while reading data: the decode ceiling when it tripped, else upstream's
/// `IntegrityIo` with the io text.
pub(super) fn read_error(
    step: u8,
    error: &io::Error,
    tripped: &Cell<bool>,
    limits: &Limits,
) -> VerifyError {
    if tripped.get() {
        decode_ceiling(step, limits)
    } else {
        VerifyError::new(step, C::IntegrityIo, error.to_string())
    }
}

pub(super) fn decode_ceiling(step: u8, limits: &Limits) -> VerifyError {
    VerifyError::new(
        step,
        C::LimitDecodeBytes,
        format!(
            "Decompressed size exceeds limit {} bytes",
            limits.max_decode_bytes
        ),
    )
}
