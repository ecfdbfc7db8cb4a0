//! Corpora: walking paths into sources, reading packets (a `.json` file each, or one per
//! NDJSON line), with every unreadable input reported against its path and line.

mod classify;
mod evaluate;
mod read;
mod source;
mod walk;

pub use classify::{classify, Classification, PacketKind, GOLDEN_MANIFEST_NAME};
pub use evaluate::{
    detail, summarize, DigestSet, EvaluateOptions, ModeResult, ModeSummary, PacketDetail,
    PacketSummary,
};
pub use read::{read_packets, reread_packet, LoadError, RawPacket, DEFAULT_MAX_FILE_BYTES};
pub use source::{FileFormat, Source};
pub use walk::{walk, WalkItem};
