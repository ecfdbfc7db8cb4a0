//! The freeze's closing review checklist, as data: each question with the answer the freeze
//! expects. The reviewer's report answers each from a corpus.

/// One question of the review checklist.
#[derive(Debug)]
pub struct ChecklistQuestion {
    /// Stable id, `Q1`..`Q6`, in the freeze's order.
    pub id: &'static str,
    pub question: &'static str,
    pub expected: &'static str,
    /// The K1-A rows whose packets bear on the question.
    pub rows: &'static [&'static str],
}

pub static REVIEW_CHECKLIST: [ChecklistQuestion; 6] = [
    ChecklistQuestion {
        id: "Q1",
        question: "Is `handoff` a single bounded top-level surface?",
        expected: "Yes",
        rows: &[],
    },
    ChecklistQuestion {
        id: "Q2",
        question:
            "Does v1 promote only from typed `task.requested` + `task.kind == \"delegation\"`?",
        expected: "Yes",
        rows: &[
            "P", "N1", "N2", "N5", "N7", "X1", "X2", "X3", "X4", "X5", "X10",
        ],
    },
    ChecklistQuestion {
        id: "Q3",
        question: "Does v1 avoid attributes, `payload.discovery`, unmapped keys, and heuristics?",
        expected: "Yes",
        rows: &["N6", "X6", "X7", "X8", "X9"],
    },
    ChecklistQuestion {
        id: "Q4",
        question: "Is synthetic `unknown-task` blocked from counting as `task_ref_visible`?",
        expected: "Yes",
        rows: &["SYN", "N4"],
    },
    ChecklistQuestion {
        id: "Q5",
        question: "Is `task.updated` explicitly non-promoting in v1?",
        expected: "Yes",
        rows: &["N7", "X10"],
    },
    ChecklistQuestion {
        id: "Q6",
        question: "Does the doc stay at visibility language, not correctness or trust language?",
        expected: "Yes",
        rows: &[],
    },
];

/// Phrases the freeze forbids in anything said about a packet.
pub const FORBIDDEN_PHRASES: [&str; 3] = ["verified", "valid delegation", "route resolved"];
