//! Corpora: walking paths into sources, reading packets (a `.json` file each, or one per
//! NDJSON line), with every unreadable input reported against its path and line.

mod read;
mod source;
mod walk;

pub use read::{read_packets, LoadError, RawPacket, DEFAULT_MAX_FILE_BYTES};
pub use source::{FileFormat, Source};
pub use walk::{walk, WalkItem};
