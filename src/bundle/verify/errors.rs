//! Error values that several steps share: a read's, the decode ceiling's.

use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::{exceeded, Limits};
use std::cell::Cell;
use std::io;

/// An io error met while reading data: the decode ceiling when it tripped, else upstream's
/// `IntegrityIo` with the io text.
pub(super) fn read_error(
    step: u8,
    error: &io::Error,
    tripped: &Cell<bool>,
    limits: &Limits,
) -> VerifyError {
    if tripped.get() {
        decode_ceiling(step, "", limits)
    } else {
        VerifyError::new(step, C::IntegrityIo, error.to_string())
    }
}

/// The decode ceiling tripped; `context` is what upstream puts before the io text
/// (`Entry #3: `, `Gzip trailer: `, or nothing while reading a member's data).
pub(super) fn decode_ceiling(step: u8, context: &str, limits: &Limits) -> VerifyError {
    VerifyError::new(
        step,
        C::LimitDecodeBytes,
        format!(
            "{context}{}",
            exceeded("decoded bytes", limits.max_decode_bytes)
        ),
    )
}
