//! Corpora: walking paths into sources, reading packets (a `.json` file each, or one per
//! NDJSON line), with every unreadable input reported against its path and line.

mod accept;
pub mod bundle_packets;
mod check;
mod classify;
mod evaluate;
mod pair;
mod path_list;
mod pipeline;
mod progress;
mod read;
mod read_piece;
mod run;
mod shard;
mod shard_plan;
mod sink;
mod status;
mod walk;

pub use accept::{accept_golden, record_golden, AcceptError, Accepted};
pub use bundle_packets::{
    open_packets, packets_of, reread_event, reread_manifest, take_event, BundlePackets,
};
pub use check::{
    check_packet, event_hash_text, golden_finding, recorded_mode, CheckOptions, GoldenLookup,
    GoldenVerdict, ModeCheck, PacketCheck,
};
pub use classify::{
    classify, classify_as, classify_bundle, classify_converted, classify_root, force_reading,
    forceable, forced_reading, Classification, Root, GOLDEN_MANIFEST_NAME,
};
// What every layer knows about a packet lives in `packet`; the corpus hands these out with
// the packets it reads.
pub use crate::packet::{
    kind_table_markdown, FileFormat, KindRow, LoadError, PacketKind, RawPacket, Source, KIND_TABLE,
};
pub use evaluate::{
    classify_packet, converted_kind, detail, detail_with_bundle, kind_after_conversion,
    migrated_digest, migration_hints, migration_owned, migration_reading, not_json_reason,
    summarize, summarize_converting, summarize_keeping, take_tree, unaudited_bundle_event,
    DigestSet, EvaluateOptions, ModeResult, ModeSummary, NoTree, PacketDetail, PacketSummary,
};
pub use pair::{
    expected_payload_name, files_read, manifest_key, paired_raw_name, paired_update_command,
    PairedFiles, Pairing, PAYLOAD_SUFFIX,
};
pub use path_list::PathList;
pub use pipeline::{
    stream_packets, stream_packets_while, PacketOrError, PipelineOptions, BATCH_PACKETS,
};
pub use progress::WorkCounts;
pub use read::{read_packets, reread_packet, reread_packet_in, DEFAULT_MAX_FILE_BYTES};
pub use run::{
    is_manifest_file, CheckItem, CorpusCheck, CorpusRun, ManifestOptions, Manifests, PacketChecker,
    PlannedCheck,
};
pub use shard::Shard;
pub use shard_plan::{Part, ShardPlan, StreamPiece, SPLIT_BYTES};
pub use sink::{CheckSink, Collect, ControlFlow, RunError};
pub use status::{worst_status, CheckFinding, FindingKind, Status};
pub use walk::{walk, WalkItem};
