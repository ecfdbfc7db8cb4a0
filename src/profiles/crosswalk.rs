//! The cross-format view as data: for the A2A adapter seam and each other format, which field
//! plays each role of the A2A handoff seam, or that the format cannot express it.

use super::detect::ProfileKind;
use super::rows::bounded;
use crate::json::JsonPath;
use serde::Serialize;
use serde_json::Value;

/// A role of the A2A handoff seam.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeamRole {
    TaskRef,
    MessageId,
    FromAgent,
    ToAgent,
    Reason,
    NextAction,
}

impl SeamRole {
    pub fn label(self) -> &'static str {
        match self {
            SeamRole::TaskRef => "task reference",
            SeamRole::MessageId => "message / handoff id",
            SeamRole::FromAgent => "from agent",
            SeamRole::ToAgent => "to agent",
            SeamRole::Reason => "reason",
            SeamRole::NextAction => "next action",
        }
    }
}

/// The roles, in display order.
pub fn seam_roles() -> [SeamRole; 6] {
    [
        SeamRole::TaskRef,
        SeamRole::MessageId,
        SeamRole::FromAgent,
        SeamRole::ToAgent,
        SeamRole::Reason,
        SeamRole::NextAction,
    ]
}

/// Whether a format can carry a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expressibility {
    /// A field plays the role.
    Field,
    /// A field comes close but means something else (see the note).
    Partial,
    /// The format has no field for the role.
    CannotExpress,
}

/// One cell: how one format plays one role.
#[derive(Debug, Serialize)]
pub struct CrosswalkCell {
    pub role: SeamRole,
    pub expressibility: Expressibility,
    /// The field, as a dotted path (`body.task_id`), when there is one.
    pub field: Option<&'static str>,
    pub note: &'static str,
}

/// One format's column.
#[derive(Debug, Serialize)]
pub struct FormatColumn {
    /// Short id, e.g. `a2a-k1a`, `ahc`, `cc-msg`.
    pub id: &'static str,
    pub name: &'static str,
    /// The profile this column describes (`None` for the A2A adapter seam itself).
    pub profile: Option<ProfileKind>,
    pub cells: [CrosswalkCell; 6],
    pub note: &'static str,
}

const fn cell(
    role: SeamRole,
    expressibility: Expressibility,
    field: Option<&'static str>,
    note: &'static str,
) -> CrosswalkCell {
    CrosswalkCell {
        role,
        expressibility,
        field,
        note,
    }
}

use Expressibility::{CannotExpress, Field, Partial};
use SeamRole::{FromAgent, MessageId, NextAction, Reason, TaskRef, ToAgent};

static COLUMNS: [FormatColumn; 6] = [
    FormatColumn {
        id: "a2a-k1a",
        name: "A2A adapter seam (K1-A v1)",
        profile: None,
        cells: [
            cell(TaskRef, Field, Some("task.id"), ""),
            cell(MessageId, Field, Some("message.id"), ""),
            cell(FromAgent, Field, Some("agent.id"), ""),
            cell(ToAgent, CannotExpress, None, "not expressible in K1-A v1"),
            cell(Reason, CannotExpress, None, "not expressible in K1-A v1"),
            cell(NextAction, CannotExpress, None, "not expressible in K1-A v1"),
        ],
        note: "K1-A flags are visibility only: a visible reference says nothing about routing or delegation",
    },
    FormatColumn {
        id: "ahc",
        name: "Master/sub handoff record",
        profile: Some(ProfileKind::Ahc),
        cells: [
            cell(TaskRef, Field, Some("task_id"), "presence-only upstream"),
            cell(MessageId, Field, Some("handoff_id"), "presence-only upstream"),
            cell(FromAgent, Field, Some("from_agent"), "presence-only upstream"),
            cell(ToAgent, Field, Some("to_agent"), "presence-only upstream"),
            cell(Reason, Partial, Some("input_scope"), "the scope handed over, not a reason"),
            cell(NextAction, Field, Some("next_action"), "{owner, action, input}"),
        ],
        note: "also result (PASS/FAIL/BLOCKED) and artifacts, which A2A's seam has no place for",
    },
    FormatColumn {
        id: "cc-msg",
        name: "ContextCore CC-MSG (handoff_message)",
        profile: Some(ProfileKind::CcMsg),
        cells: [
            cell(TaskRef, CannotExpress, None, "`task` is a free-text description, not a reference"),
            cell(MessageId, Field, Some("id"), "also gen_ai.tool.call.id"),
            cell(FromAgent, Field, Some("from_agent"), ""),
            cell(ToAgent, Field, Some("to_agent"), "an agent or a capability id"),
            cell(Reason, CannotExpress, None, "`task` states the request, not why it is handed off"),
            cell(NextAction, Partial, Some("capability_id"), "the capability to invoke, with `inputs`"),
        ],
        note: "status uses ContextCore's own state names",
    },
    FormatColumn {
        id: "cc-contract",
        name: "ContextCore CC-CONTRACT (HandoffContract v1)",
        profile: Some(ProfileKind::CcContract),
        cells: [
            cell(TaskRef, Partial, Some("parent_task_id"), "optional; the parent task, not this one"),
            cell(MessageId, Field, Some("handoff_id"), ""),
            cell(FromAgent, Field, Some("from_agent"), ""),
            cell(ToAgent, Field, Some("to_agent"), ""),
            cell(Reason, CannotExpress, None, "closed schema: no member for a reason"),
            cell(NextAction, Partial, Some("capability_id"), "the capability to invoke, with `inputs`"),
        ],
        note: "closed schema: nothing else can be added",
    },
    FormatColumn {
        id: "cc-store",
        name: "ContextCore CC-STORE (storage record)",
        profile: Some(ProfileKind::CcStore),
        cells: [
            cell(TaskRef, CannotExpress, None, "`task` is a free-text description, not a reference"),
            cell(MessageId, Field, Some("id"), ""),
            cell(FromAgent, Field, Some("fromAgent"), ""),
            cell(ToAgent, Field, Some("toAgent"), ""),
            cell(Reason, CannotExpress, None, ""),
            cell(NextAction, Partial, Some("capabilityId"), "the capability to invoke, with `inputs`"),
        ],
        note: "camelCase on disk; the reader also accepts snake_case",
    },
    FormatColumn {
        id: "uaix",
        name: "UAIX uai.agent.handoff.v1",
        profile: Some(ProfileKind::Uaix),
        cells: [
            cell(TaskRef, Field, Some("body.task_id"), "delivery.task_ref may repeat it"),
            cell(MessageId, Field, Some("message_id"), "the packet's id; conversation.correlation_id links the exchange"),
            cell(FromAgent, Field, Some("source.id"), ""),
            cell(ToAgent, Field, Some("target.id"), "body.target_agent_id repeats it"),
            cell(Reason, Field, Some("body.handoff_reason"), ""),
            cell(NextAction, Field, Some("body.exact_next_action"), ""),
        ],
        note: "a reviewed record, not an instruction to execute",
    },
];

/// The A2A seam first, then each other format.
pub fn crosswalk() -> &'static [FormatColumn] {
    &COLUMNS
}

/// The value this packet carries for one A2A-seam role.
#[derive(Clone, Debug, Serialize)]
pub struct SeamValue {
    pub role: SeamRole,
    /// The field that plays the role in this format, if any.
    pub field: Option<&'static str>,
    /// The value seen there (shortened), `None` when absent or not expressible.
    pub value: Option<Value>,
}

/// The value this packet carries for each seam role of its format.
pub(crate) fn seam_values(kind: ProfileKind, value: &Value) -> Vec<SeamValue> {
    let Some(column) = COLUMNS.iter().find(|c| c.profile == Some(kind)) else {
        return Vec::new();
    };
    column
        .cells
        .iter()
        .map(|cell| {
            let seen = cell.field.and_then(|field| {
                let parts: Vec<&str> = field.split('.').collect();
                let mut path = JsonPath::keys(&parts);
                // The storage reader accepts snake_case too.
                if kind == ProfileKind::CcStore && path.lookup(value).is_none() {
                    path = JsonPath::keys(&[snake_case(field).as_str()]);
                }
                path.lookup(value).map(bounded)
            });
            SeamValue {
                role: cell.role,
                field: cell.field,
                value: seen,
            }
        })
        .collect()
}

fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a2a_seam_comes_first_with_the_k1a_roles() {
        let a2a = &crosswalk()[0];
        assert_eq!(a2a.id, "a2a-k1a");
        assert_eq!(a2a.cells[0].field, Some("task.id"));
        assert_eq!(a2a.cells[1].field, Some("message.id"));
        assert_eq!(a2a.cells[2].field, Some("agent.id"));
        assert_eq!(a2a.cells[3].expressibility, Expressibility::CannotExpress);
        for column in crosswalk() {
            let roles: Vec<SeamRole> = column.cells.iter().map(|c| c.role).collect();
            assert_eq!(roles, seam_roles().to_vec(), "{}", column.id);
        }
    }

    #[test]
    fn every_profile_has_a_column() {
        for kind in ProfileKind::ALL {
            assert!(
                crosswalk().iter().any(|c| c.profile == Some(kind)),
                "{kind}"
            );
        }
    }

    #[test]
    fn seam_values_follow_the_column() {
        let packet =
            json!({"body": {"task_id": "t1", "handoff_reason": "r"}, "source": {"id": "a"}});
        let values = seam_values(ProfileKind::Uaix, &packet);
        assert_eq!(values[0].value, Some(json!("t1")));
        assert_eq!(values[2].value, Some(json!("a")));
        assert_eq!(values[3].value, None);
        let store = json!({"from_agent": "x"});
        assert_eq!(
            seam_values(ProfileKind::CcStore, &store)[2].value,
            Some(json!("x"))
        );
    }
}
