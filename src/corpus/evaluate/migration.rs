//! The one migration reading every face uses for an A2A protocol object: its direction,
//! its hints, its migration and the digest of its migrated form.

use crate::corpus::{PacketKind, Source};
use crate::migrate::{Choices, Direction, Judgement, Migration, MigrationInput};
use serde_json::Value;

/// The digest of the migrated form [`migration_owned`] gives, from a judgement of a tree the
/// caller gives up (migrated in place, nothing of its steps kept).
pub fn migrated_digest(
    kind: PacketKind,
    source: &Source,
    value: Value,
) -> Option<crate::json::Digest> {
    let (direction, hints) = migration_reading(kind, source)?;
    Judgement::of(MigrationInput::from(value).hints(&hints), direction)
        .ok()
        .map(|judgement| judgement.result_digest)
}

/// The migration `check` judges an A2A object by (no choices), for every face that reports
/// on one, on a tree the caller gives up (migrated in place, its canonical text kept for
/// replays); `None` for other kinds.
pub fn migration_owned(kind: PacketKind, source: &Source, value: Value) -> Option<Migration> {
    let (direction, hints) = migration_reading(kind, source)?;
    Migration::run(
        MigrationInput::from(value).hints(&hints),
        direction,
        &Choices::none(),
    )
    .ok()
}

/// How every face migrates an A2A protocol object: v0.3 forward, v1.0 back, and an object
/// of indeterminate version forward (as `migrate` does by default), detected with the hints
/// its file name gives (as the classifier that named its kind did). `None` for other kinds.
pub fn migration_reading(
    kind: PacketKind,
    source: &Source,
) -> Option<(Direction, crate::migrate::Hints)> {
    let direction = match kind {
        PacketKind::A2aV03 | PacketKind::A2a => Direction::Forward,
        PacketKind::A2aV10 => Direction::Reverse,
        _ => return None,
    };
    Some((direction, migration_hints(source.file_name())))
}

/// The hints every face hands the one detection for a packet: its file name's (a
/// migration's expected output), and the version `--as a2a-0.3` / `--as a2a-1.0` forces, so
/// that a forced reading is the same reading in `ls`, `check`, `explain` and the inspector
/// as `migrate --from` is in `migrate`.
pub fn migration_hints(file_name: Option<&str>) -> crate::migrate::Hints {
    let hints = crate::migrate::Hints::from_file_name(file_name);
    let version = match crate::corpus::forced_reading() {
        Some(PacketKind::A2aV03) => crate::migrate::Version::V0_3,
        Some(PacketKind::A2aV10) => crate::migrate::Version::V1_0,
        _ => return hints,
    };
    hints.forced(None, Some(version))
}
