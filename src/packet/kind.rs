//! The kinds a packet can be, as one table: each kind's tag, name and the positive evidence the
//! classifier (`corpus::classify`) needs to read a file as it.

use crate::freeze::CanonicalShape;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PacketKind {
    RawA2a,
    CanonicalPayload,
    EvidenceEvent,
    AdapterBatch,
    A2aV03,
    A2aV10,
    /// An A2A protocol object that reads the same in v0.3 and v1.0 (nothing tells them apart).
    A2a,
    MasterSub,
    ContextCore,
    Uaix,
    GoldenManifest,
    /// A DSSE envelope (an attestation over a bundle): judged with its bundle against the
    /// reader's trusted keys, never handed to the adapter.
    Attestation,
    /// An assay evidence bundle (`.tar.gz`) as a whole; its events are packets of their own
    /// (`EvidenceEvent`, named `BUNDLE:SEQ`).
    Bundle,
    NotJson,
    Unknown,
}

/// One row of the kind table: the one place a kind's tag, name and evidence are written.
/// `ls`, `explain`'s first line, `check` and every report format, the inspector, the help
/// text and the kind table in docs/commands.md all read it.
#[derive(Clone, Copy, Debug)]
pub struct KindRow {
    pub kind: PacketKind,
    /// The short tag of lists, filters, JSON and goldens.
    pub tag: &'static str,
    /// The kind's one name in prose.
    pub name: &'static str,
    /// The positive evidence the classifier needs to read a file as this kind.
    pub evidence: &'static str,
}

/// Every kind, in the order lists show them.
pub const KIND_TABLE: [KindRow; 15] = [
    KindRow {
        kind: PacketKind::RawA2a,
        tag: "raw",
        name: "raw A2A adapter packet",
        evidence: "none needed: the default reading of whatever a raw-packet command is \
                   handed (JSON or not, object or not) that shows no other kind's evidence",
    },
    KindRow {
        kind: PacketKind::CanonicalPayload,
        tag: "payload",
        name: "canonical payload",
        evidence: "a member only the adapter writes into a payload: `adapter_id`, \
                   `protocol_name` or `upstream_event_type`",
    },
    KindRow {
        kind: PacketKind::EvidenceEvent,
        tag: "event",
        name: "evidence event",
        evidence: "the CloudEvents envelope: `specversion` with `type` \
                   `assay.adapter.a2a.*` or `data`; every event line of a bundle",
    },
    KindRow {
        kind: PacketKind::AdapterBatch,
        tag: "batch",
        name: "adapter batch",
        evidence: "the batch envelope: an `events` array with `lossiness`, or an `events` \
                   array of CloudEvents",
    },
    KindRow {
        kind: PacketKind::A2aV03,
        tag: "a2a-0.3",
        name: "A2A v0.3 object",
        evidence: "an A2A object (JSON-RPC envelope with an A2A method, result or error; \
                   `kind` discriminator; Task, Message, event, push-config or Agent Card \
                   shape) with members or values only v0.3 has; or a migration's expected \
                   v0.3 output by its name (`NAME.v10.v03.json`)",
    },
    KindRow {
        kind: PacketKind::A2aV10,
        tag: "a2a-1.0",
        name: "A2A v1.0 object",
        evidence: "an A2A object with members or values only v1.0 has; or a migration's \
                   expected v1.0 output by its name (`NAME.v03[.DIALECT].v10.json`)",
    },
    KindRow {
        kind: PacketKind::A2a,
        tag: "a2a",
        name: "A2A object (version indeterminate)",
        evidence: "an A2A object (as above) none of whose members tells v0.3 from v1.0",
    },
    KindRow {
        kind: PacketKind::MasterSub,
        tag: "ahc",
        name: "master/sub handoff record",
        evidence: "the master/sub record's own keys (`input_scope`, `actions_taken`, ...)",
    },
    KindRow {
        kind: PacketKind::ContextCore,
        tag: "contextcore",
        name: "ContextCore handoff",
        evidence: "ContextCore's own keys (`handoff_message`, HandoffContract or storage \
                   record keys)",
    },
    KindRow {
        kind: PacketKind::Uaix,
        tag: "uaix",
        name: "UAIX handoff envelope",
        evidence: "`profile` \"uai.agent.handoff.v1\", or `uai_version` with UAIX envelope \
                   members",
    },
    KindRow {
        kind: PacketKind::GoldenManifest,
        tag: "golden",
        name: "golden manifest",
        evidence: "`format` \"handoff-inspector goldens v2\" (or v1), or the name goldens.json \
                   (where `check` looks for a directory's manifest) or goldens.pending.json \
                   (the pending goldens `check --write-pending` writes)",
    },
    KindRow {
        kind: PacketKind::Attestation,
        tag: "attestation",
        name: "attestation envelope (DSSE)",
        evidence: "a DSSE envelope's members: `payloadType` and `payload` strings and a \
                   `signatures` array; or the name NAME.dsse.json (where `verify` and \
                   `check --key` look for a bundle's attestation)",
    },
    KindRow {
        kind: PacketKind::Bundle,
        tag: "bundle",
        name: "evidence bundle",
        evidence: "a .tar.gz or .tgz file, read as a gzip'd tar (one that is not fails \
                   verification, `IntegrityTar`, as upstream says); its events are kind \
                   `event`, named BUNDLE:SEQ",
    },
    KindRow {
        kind: PacketKind::NotJson,
        tag: "not-json",
        name: "not JSON",
        evidence: "bytes that do not parse as JSON; still the adapter's input, which \
                   rejects them (C3)",
    },
    KindRow {
        kind: PacketKind::Unknown,
        tag: "unknown",
        name: "unknown",
        evidence: "JSON no one would hand the adapter, in any directory: a JSON-RPC 2.0 \
                   message of another protocol (`jsonrpc` with no A2A method, result or \
                   error), or a JSON Schema (`$schema`)",
    },
];

/// The kind table as Markdown (docs/commands.md's, which a test holds equal to this).
pub fn kind_table_markdown() -> String {
    let mut out = String::from("| kind | name | read as this kind on |\n|---|---|---|\n");
    for row in KIND_TABLE {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            row.tag, row.name, row.evidence
        ));
    }
    out
}

impl PacketKind {
    pub const ALL: [PacketKind; KIND_TABLE.len()] = {
        let mut all = [PacketKind::Unknown; KIND_TABLE.len()];
        let mut index = 0;
        while index < KIND_TABLE.len() {
            all[index] = KIND_TABLE[index].kind;
            index += 1;
        }
        all
    };

    /// This kind's row of [`KIND_TABLE`].
    pub fn row(self) -> &'static KindRow {
        // The table lists the kinds in declaration order (a unit test holds it so).
        &KIND_TABLE[self as usize]
    }

    /// The kind's one name in prose (`ls`'s `kind_name`, `explain`'s first line, reports).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// A short tag for lists and filters.
    pub fn tag(self) -> &'static str {
        self.row().tag
    }

    pub fn from_tag(tag: &str) -> Option<PacketKind> {
        PacketKind::ALL.into_iter().find(|kind| kind.tag() == tag)
    }

    /// Packets evaluated by one of the other handoff profiles.
    pub fn is_profile(self) -> bool {
        matches!(
            self,
            PacketKind::MasterSub | PacketKind::ContextCore | PacketKind::Uaix
        )
    }

    /// A2A protocol objects of either version, or of a version that cannot be told.
    pub fn is_a2a_object(self) -> bool {
        matches!(
            self,
            PacketKind::A2aV03 | PacketKind::A2aV10 | PacketKind::A2a
        )
    }

    pub fn canonical_shape(self) -> Option<CanonicalShape> {
        match self {
            PacketKind::CanonicalPayload => Some(CanonicalShape::Payload),
            PacketKind::EvidenceEvent => Some(CanonicalShape::Event),
            PacketKind::AdapterBatch => Some(CanonicalShape::Batch),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commands_page_shows_the_kind_table() {
        let readme = include_str!("../../docs/commands.md");
        assert!(
            readme.contains(&kind_table_markdown()),
            "docs/commands.md's kind table differs from KIND_TABLE; it should read:\n{}",
            kind_table_markdown()
        );
    }

    #[test]
    fn the_audit_names_each_shape_by_its_kinds_name() {
        for kind in PacketKind::ALL {
            if let Some(shape) = kind.canonical_shape() {
                assert_eq!(shape.name(), kind.name());
            }
        }
    }

    #[test]
    fn the_kind_table_lists_every_kind_once_in_declaration_order() {
        for (index, row) in KIND_TABLE.iter().enumerate() {
            assert_eq!(row.kind as usize, index, "{}", row.tag);
            assert_eq!(row.kind.row().tag, row.tag);
        }
        let mut names: Vec<&str> = KIND_TABLE.iter().map(|row| row.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KIND_TABLE.len());
    }
}
