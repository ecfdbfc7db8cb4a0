//! The check sequence: step 0 (the input's size), the archive's members, step 25 (the rest of
//! the gzip member).

use super::errors::decode_ceiling;
use super::members::members;
use super::Walk;
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::{CeilingReader, Limits};
use flate2::read::GzDecoder;
use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

/// Step 0: reads the whole input through `max_bundle_bytes`.
pub fn read_input(reader: impl Read, limits: &Limits) -> Result<Vec<u8>, VerifyError> {
    let mut bytes = Vec::new();
    let ceiling = limits.max_bundle_bytes.saturating_add(1);
    match reader.take(ceiling).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 > limits.max_bundle_bytes => Err(VerifyError::new(
            0,
            C::LimitBundleBytes,
            format!("Bundle exceeds limit {} bytes", limits.max_bundle_bytes),
        )
        .comparing(
            "input bytes",
            format!("at most {}", limits.max_bundle_bytes),
            "more",
        )),
        Ok(_) => Ok(bytes),
        Err(error) => Err(VerifyError::new(
            0,
            C::IntegrityGzip,
            format!("Bundle source: {error}"),
        )),
    }
}

/// Runs the verification over the bundle's bytes.
pub fn walk(input: &[u8], limits: &Limits) -> Walk {
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
    match members(&mut archive, limits, &tripped, &mut walk) {
        Err(error) => walk.verdict = Err(error),
        Ok(None) => {} // no events member: the initial verdict stands
        Ok(Some(verified)) => {
            // Step 25: the rest of the gzip member, trailer included.
            let mut rest = archive.into_inner();
            walk.verdict = match io::copy(&mut rest, &mut io::sink()) {
                Ok(_) => Ok(verified),
                Err(_) if tripped.get() => Err(decode_ceiling(25, limits)),
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
