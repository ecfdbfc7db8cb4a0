//! The one door every file the tool reads goes through: packets, golden manifests,
//! `--previous`, artifacts, standard input. Files from elsewhere are hostile: a FIFO would
//! block the reader forever, a symlink to `/dev/zero` would fill memory, a socket or device
//! has no end. So this layer
//! - opens non-blocking and refuses anything `fstat` does not call a regular file, before
//!   reading a byte (a FIFO is never waited on, a device never read);
//! - caps bytes while reading (`take(cap + 1)`), never reading first and checking after;
//! - names the path and the reason in every error, in plain words;
//! - walks directories without leaving the paths given or looping (`walk.rs`).

mod capped;
mod error;
mod open;
mod walk;

pub use capped::{human_bytes, read_capped, read_file, read_stdin};
pub use error::{describe_io, InputError, InputErrorKind};
pub use open::{file_kind, open_regular, refusal};
pub use walk::{walk_paths, WalkOptions, Walked};
