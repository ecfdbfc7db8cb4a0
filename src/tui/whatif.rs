//! The what-if panel: toggle the inputs the freeze cares about on a copy of a raw packet and
//! watch the flags, rule rows and digest change. Everything happens in memory.

use crate::a2a::{convert, ConvertOptions, Mode};
use crate::freeze::{explain_conversion, Explanation};
use serde_json::{Map, Value};

const EVENTS: [Option<&str>; 6] = [
    Some("task.requested"),
    Some("task.updated"),
    Some("artifact.shared"),
    Some("agent.capabilities"),
    Some("session.unknown"),
    None,
];
const KINDS: [Option<&str>; 3] = [Some("delegation"), Some("analysis"), None];

#[derive(Clone, Debug)]
pub struct WhatIf {
    pub source: String,
    base: Map<String, Value>,
    pub event_type: Option<String>,
    pub task_kind: Option<String>,
    pub task_id: bool,
    pub message_id: bool,
    pub mode: Mode,
    options: ConvertOptions,
    pub explanation: Explanation,
}

fn typed<'a>(object: &'a Map<String, Value>, outer: &str, inner: &str) -> Option<&'a str> {
    object.get(outer)?.get(inner)?.as_str()
}

impl WhatIf {
    /// Starts from a raw packet (a JSON object); `None` for anything else.
    pub fn new(
        source: String,
        packet: &Value,
        options: &ConvertOptions,
        mode: Mode,
    ) -> Option<WhatIf> {
        let base = packet.as_object()?.clone();
        let mut whatif = WhatIf {
            source,
            event_type: base
                .get("event_type")
                .and_then(Value::as_str)
                .map(str::to_owned),
            task_kind: typed(&base, "task", "kind").map(str::to_owned),
            task_id: typed(&base, "task", "id").is_some(),
            message_id: typed(&base, "message", "id").is_some(),
            base,
            mode,
            options: options.clone(),
            explanation: explain_conversion(convert(b"", options)),
        };
        whatif.recompute();
        Some(whatif)
    }

    /// The packet as currently toggled.
    pub fn packet(&self) -> Value {
        let mut packet = self.base.clone();
        match &self.event_type {
            Some(event) => packet.insert("event_type".into(), Value::String(event.clone())),
            None => packet.remove("event_type"),
        };
        set_member(
            &mut packet,
            "task",
            "kind",
            self.task_kind
                .as_deref()
                .map(|kind| Value::String(kind.to_owned())),
        );
        let task_id = typed(&self.base, "task", "id")
            .unwrap_or("task-what-if")
            .to_owned();
        set_member(
            &mut packet,
            "task",
            "id",
            self.task_id.then_some(Value::String(task_id)),
        );
        let message_id = typed(&self.base, "message", "id")
            .unwrap_or("msg-what-if")
            .to_owned();
        set_member(
            &mut packet,
            "message",
            "id",
            self.message_id.then_some(Value::String(message_id)),
        );
        Value::Object(packet)
    }

    fn recompute(&mut self) {
        let bytes = serde_json::to_vec(&self.packet()).unwrap_or_default();
        self.explanation = explain_conversion(convert(&bytes, &self.options.with_mode(self.mode)));
    }

    pub fn cycle_event(&mut self) {
        let current = EVENTS
            .iter()
            .position(|event| event.map(str::to_owned) == self.event_type);
        let next = current.map_or(0, |index| (index + 1) % EVENTS.len());
        self.event_type = EVENTS[next].map(str::to_owned);
        self.recompute();
    }

    pub fn cycle_kind(&mut self) {
        let current = KINDS
            .iter()
            .position(|kind| kind.map(str::to_owned) == self.task_kind);
        let next = current.map_or(0, |index| (index + 1) % KINDS.len());
        self.task_kind = KINDS[next].map(str::to_owned);
        self.recompute();
    }

    pub fn toggle_task_id(&mut self) {
        self.task_id = !self.task_id;
        self.recompute();
    }

    pub fn toggle_message_id(&mut self) {
        self.message_id = !self.message_id;
        self.recompute();
    }

    pub fn toggle_mode(&mut self) {
        self.mode = match self.mode {
            Mode::Strict => Mode::Lenient,
            Mode::Lenient => Mode::Strict,
        };
        self.recompute();
    }
}

/// Sets or removes `outer.inner`, creating `outer` as an object when needed.
fn set_member(packet: &mut Map<String, Value>, outer: &str, inner: &str, value: Option<Value>) {
    match value {
        Some(value) => {
            let entry = packet
                .entry(outer.to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            if let Some(object) = entry.as_object_mut() {
                object.insert(inner.to_owned(), value);
            }
        }
        None => {
            if let Some(object) = packet.get_mut(outer).and_then(Value::as_object_mut) {
                object.remove(inner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::HandoffState;
    use serde_json::json;

    #[test]
    fn toggles_change_the_outcome() {
        let packet = json!({"protocol": "a2a", "version": "0.2", "event_type": "task.requested",
            "agent": {"id": "a"}, "task": {"id": "t", "kind": "delegation"}, "message": {"id": "m"}});
        let mut whatif = WhatIf::new(
            "p".into(),
            &packet,
            &ConvertOptions::default(),
            Mode::Strict,
        )
        .unwrap();
        assert_eq!(
            whatif.explanation.state,
            Some(HandoffState::TaskAndMessageRefs)
        );
        whatif.toggle_message_id();
        assert_eq!(whatif.explanation.state, Some(HandoffState::TaskRefOnly));
        whatif.toggle_task_id();
        assert_eq!(whatif.explanation.conversion_rows, vec!["S3"]);
        whatif.toggle_mode();
        assert_eq!(whatif.explanation.state, Some(HandoffState::NoRefs));
        whatif.cycle_kind();
        assert_eq!(whatif.task_kind.as_deref(), Some("analysis"));
        assert_eq!(whatif.explanation.state, Some(HandoffState::Defaults));
        whatif.cycle_event();
        assert_eq!(whatif.event_type.as_deref(), Some("task.updated"));
        assert!(whatif.explanation.matched().any(|id| id == "N7"));
    }
}
