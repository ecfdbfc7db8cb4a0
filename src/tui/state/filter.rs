//! The list's filter: by status (in the mode shown), kind or rule row, the menu's
//! choices, and the one predicate every list build asks, whatever thread it runs on.

use crate::a2a::Mode;
use crate::corpus::{PacketKind, Status};
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::listed::ListedPacket;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub status: Option<Status>,
    pub kind: Option<PacketKind>,
    /// A rule row and the mode it must match in (from the Rules tab or the filter menu).
    pub rule: Option<(&'static str, Mode)>,
}

impl Filter {
    pub fn is_active(&self) -> bool {
        self.status.is_some() || self.kind.is_some() || self.rule.is_some()
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(status) = self.status {
            parts.push(format!("status={}", status.label()));
        }
        if let Some(kind) = self.kind {
            parts.push(format!("kind={}", kind.tag()));
        }
        if let Some((rule, mode)) = self.rule {
            parts.push(format!("rule={rule}/{mode}"));
        }
        parts.join(" ")
    }

    /// Whether a packet passes the filter (a status is the packet's in `mode`): the one test
    /// every list build, whatever thread it runs on, asks.
    pub fn passes(&self, packet: &ListedPacket, mode: Mode) -> bool {
        let summary = packet;
        if let Some(status) = self.status {
            if packet.status_in(mode) != status {
                return false;
            }
        }
        if let Some(kind) = self.kind {
            if summary.kind != kind {
                return false;
            }
        }
        if let Some((rule, mode)) = self.rule {
            if !summary
                .mode(mode)
                .is_some_and(|mode| mode.rows.contains(rule))
            {
                return false;
            }
        }
        true
    }
}

/// The entries of the filter menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterChoice {
    Clear,
    Status(Status),
    Kind(PacketKind),
    Rule(&'static str),
}

pub fn filter_choices() -> Vec<FilterChoice> {
    let mut choices = vec![FilterChoice::Clear];
    choices.extend(Status::ALL.into_iter().map(FilterChoice::Status));
    choices.extend(PacketKind::ALL.into_iter().map(FilterChoice::Kind));
    choices.extend(COVERAGE_ROW_IDS.into_iter().map(FilterChoice::Rule));
    choices
}
