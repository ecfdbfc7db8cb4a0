//! The K1-A freeze: its rule table as data, the explanation of a raw packet's `handoff`
//! flags, the audit of canonical evidence produced elsewhere, and the named legal states.

mod audit;
mod checklist;
mod coverage;
mod derive;
mod explain;
mod packet_members;
mod relabel;
mod row_set;
mod states;
mod table;

pub use audit::{
    audit, detect_canonical, Audit, AuditSupport, CanonicalShape, CANONICAL_MARKERS,
    PAYLOAD_MARKERS,
};
pub use checklist::{ChecklistQuestion, FORBIDDEN_PHRASES, REVIEW_CHECKLIST};
pub use coverage::{unreachable_reason, UNREACHABLE_CELLS};
pub use derive::{derive_negatives, DerivedPacket, Expected};
pub use explain::{
    explain, explain_conversion, explain_payload, matched_rows, Explanation, FieldDecision,
    PayloadExplanation,
};
pub use relabel::{relabel_outcome, AdapterVerdict, RelabelOutcome, RELABELLED_VERSION};
pub use row_set::RowSet;
pub use states::{handoff_state, HandoffState};
pub use table::{
    HandoffField, CONVERSION_TABLE, COVERAGE_ROW_IDS, GUARDRAIL, HANDOFF_FIELDS, K1A_TABLE,
};
