//! The check sequence: step 0 (the input streamed through its size ceiling), the archive's
//! members, step 25 (the rest of the gzip member).

use super::errors::decode_ceiling;
use super::members::members;
use super::outcome::{Keep, Walk};
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::{exceeded, CeilingReader, Limits};
use flate2::read::GzDecoder;
use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

/// Runs the verification over the bundle's bytes, keeping what `keep` says.
pub fn walk(input: impl Read, limits: &Limits, keep: Keep) -> Walk {
    let mut walk = Walk {
        verdict: Err(VerifyError::new(
            25,
            C::ContractMissingFile,
            "Missing events.ndjson",
        )),
        manifest_text: None,
        manifest: None,
        events: None,
    };
    let tripped = Rc::new(Cell::new(false));
    let decoded = CeilingReader::new(
        GzDecoder::new(input),
        limits.max_decode_bytes,
        tripped.clone(),
    );
    let mut archive = tar::Archive::new(decoded);
    match members(&mut archive, limits, keep, &tripped, &mut walk) {
        Err(error) => walk.verdict = Err(error),
        Ok(None) => {} // no events member: the initial verdict stands
        Ok(Some(verified)) => {
            // Step 25: the rest of the gzip member, trailer included.
            let mut rest = archive.into_inner();
            walk.verdict = match io::copy(&mut rest, &mut io::sink()) {
                Ok(_) => Ok(verified),
                Err(_) if tripped.get() => Err(decode_ceiling(25, "Gzip trailer: ", limits)),
                Err(error) => Err(VerifyError::new(
                    25,
                    C::IntegrityGzip,
                    format!("Gzip trailer: {error}"),
                )),
            };
        }
    }
    walk
}

/// The input as the walk streams it, with step 0 kept: bytes counted against
/// `max_bundle_bytes` and the first read error noted. Upstream reads the whole input before
/// anything else, so whatever the walk found, a failure here is the verdict (`verdict`, after
/// `finish` read the rest).
pub struct Source<R> {
    inner: R,
    limits: Limits,
    total: u64,
    failed: Option<VerifyError>,
}

impl<R: Read> Source<R> {
    pub fn new(inner: R, limits: &Limits) -> Source<R> {
        Source {
            inner,
            limits: *limits,
            total: 0,
            failed: None,
        }
    }

    /// Reads what the walk left (the bytes after the gzip member count too) and says
    /// whether step 0 fails.
    pub fn finish(mut self) -> Option<VerifyError> {
        if self.failed.is_none() {
            let _ = io::copy(&mut self, &mut io::sink());
        }
        self.failed
    }
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed.is_some() {
            return Err(io::Error::other("the input failed"));
        }
        match self.inner.read(buf) {
            Ok(n) => {
                self.total += n as u64;
                if self.total > self.limits.max_bundle_bytes {
                    self.failed = Some(bundle_too_big(&self.limits));
                    return Err(io::Error::other("the input is over max_bundle_bytes"));
                }
                Ok(n)
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => Err(error),
            Err(error) => {
                self.failed = Some(source_error(&error));
                Err(error)
            }
        }
    }
}

/// Step 0's failure for an input over `max_bundle_bytes`.
pub fn bundle_too_big(limits: &Limits) -> VerifyError {
    let limit = limits.max_bundle_bytes;
    VerifyError::new(
        0,
        C::LimitBundleBytes,
        format!("Bundle source: {}", exceeded("source bytes", limit)),
    )
    .comparing("input bytes", format!("at most {limit}"), "more")
}

fn source_error(error: &io::Error) -> VerifyError {
    VerifyError::new(0, C::IntegrityGzip, format!("Bundle source: {error}"))
}
