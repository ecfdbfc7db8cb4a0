//! The what-if panel: toggle the inputs the freeze cares about on a copy of a raw packet and
//! watch the flags, rule rows and digest change. Everything happens in memory.

use crate::a2a::{convert, ConvertOptions, Mode};
use crate::freeze::{explain_conversion, Explanation};
use crate::json::for_each_member;
use serde_json::{Map, Value};
use std::sync::Arc;

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
    /// The packet's text (the detail's, shared): every member the panel does not edit is
    /// copied from it as it was written. A copy of the packet's tree was kept instead, and
    /// another made for each edit: a raw packet of 400k keys opened the panel at 226 MiB.
    text: Arc<[u8]>,
    /// The members the panel edits ([`EDITED`]), as the packet has them (the last value of
    /// a repeated key).
    edited: Map<String, Value>,
    pub event_type: Option<String>,
    pub task_kind: Option<String>,
    pub task_id: bool,
    pub message_id: bool,
    pub mode: Mode,
    options: ConvertOptions,
    pub explanation: Explanation,
}

/// The top-level members the panel's toggles change.
const EDITED: [&str; 3] = ["event_type", "task", "message"];

fn typed<'a>(object: &'a Map<String, Value>, outer: &str, inner: &str) -> Option<&'a str> {
    object.get(outer)?.get(inner)?.as_str()
}

impl WhatIf {
    /// Starts from a raw packet's text (a JSON object); `None` for anything else.
    pub fn new(
        source: String,
        text: Arc<[u8]>,
        options: &ConvertOptions,
        mode: Mode,
    ) -> Option<WhatIf> {
        if !crate::json::may_be_an_object(&text) {
            return None;
        }
        let mut last: [Option<std::ops::Range<usize>>; EDITED.len()] = Default::default();
        for_each_member(&text, |key, value| {
            if let Some(index) = EDITED.iter().position(|name| *name == key) {
                last[index] = Some(value);
            }
        });
        let mut edited = Map::new();
        for (name, value) in EDITED.iter().zip(last) {
            if let Some(value) = value {
                edited.insert(
                    (*name).to_owned(),
                    serde_json::from_slice(text.get(value)?).ok()?,
                );
            }
        }
        let mut whatif = WhatIf {
            source,
            event_type: edited
                .get("event_type")
                .and_then(Value::as_str)
                .map(str::to_owned),
            task_kind: typed(&edited, "task", "kind").map(str::to_owned),
            task_id: typed(&edited, "task", "id").is_some(),
            message_id: typed(&edited, "message", "id").is_some(),
            text,
            edited,
            mode,
            options: options.clone(),
            explanation: explain_conversion(convert(b"", options)),
        };
        whatif.recompute();
        Some(whatif)
    }

    /// The edited members as currently toggled.
    fn edited_members(&self) -> Map<String, Value> {
        let mut packet = self.edited.clone();
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
        let task_id = typed(&self.edited, "task", "id")
            .unwrap_or("task-what-if")
            .to_owned();
        set_member(
            &mut packet,
            "task",
            "id",
            self.task_id.then_some(Value::String(task_id)),
        );
        let message_id = typed(&self.edited, "message", "id")
            .unwrap_or("msg-what-if")
            .to_owned();
        set_member(
            &mut packet,
            "message",
            "id",
            self.message_id.then_some(Value::String(message_id)),
        );
        packet
    }

    /// The packet's text as currently toggled: its other members as written, then the edited
    /// ones.
    pub fn packet_text(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.text.len() + 64);
        out.push(b'{');
        let member = |out: &mut Vec<u8>, key: &str, value: &[u8]| {
            if out.len() > 1 {
                out.push(b',');
            }
            crate::json::write_json_string(key, out);
            out.push(b':');
            out.extend_from_slice(value);
        };
        for_each_member(&self.text, |key, value| {
            if !EDITED.contains(&key) {
                member(&mut out, key, self.text.get(value).unwrap_or_default());
            }
        });
        for (key, value) in self.edited_members() {
            member(
                &mut out,
                &key,
                &serde_json::to_vec(&value).unwrap_or_default(),
            );
        }
        out.push(b'}');
        out
    }

    fn recompute(&mut self) {
        let bytes = self.packet_text();
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
        let text: Arc<[u8]> = serde_json::to_vec(&packet).unwrap().into();
        let mut whatif =
            WhatIf::new("p".into(), text, &ConvertOptions::default(), Mode::Strict).unwrap();
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

    /// The toggled packet as the panel built it from the packet's tree: the tree with the
    /// edits, written again.
    fn from_the_tree(whatif: &WhatIf, tree: &Value) -> Vec<u8> {
        let mut packet = tree.as_object().unwrap().clone();
        for key in EDITED {
            packet.remove(key);
        }
        packet.extend(whatif.edited_members());
        serde_json::to_vec(&packet).unwrap()
    }

    /// What the panel shows of an explanation.
    fn shown(explanation: &Explanation) -> String {
        let rows: Vec<String> = explanation
            .rows
            .iter()
            .map(|row| {
                let evidence: Vec<String> =
                    explanation.evidence(row).map(|e| e.describe()).collect();
                format!("{} {:?} {}", row.rule, row.verdict, evidence.join("; "))
            })
            .collect();
        format!(
            "{:?} {:?} {:?} {:?} {rows:?}",
            explanation.state,
            explanation.conversion_rows,
            explanation.conversion.error(),
            explanation
                .conversion
                .converted()
                .map(|c| c.handoff_digest()),
        )
    }

    #[test]
    fn the_packet_toggled_as_text_explains_as_the_one_toggled_as_a_tree() {
        let mut packets: Vec<Vec<u8>> = vec![
            br#"{"protocol":"a2a","version":"0.2","task":{"kind":"x"},"event_type":"task.requested","agent":{"id":"a"},"z":[1],"task":{"id":"t","status":"s"},"y":{"a":1,"a":2}}"#.to_vec(),
            br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":"not an object","message":7}"#.to_vec(),
        ];
        packets.extend(crate::json::test_fixtures::a2a_fixture_texts());
        let mut compared = 0;
        for bytes in packets {
            let Ok(tree @ Value::Object(_)) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            let options = ConvertOptions::default();
            let mut whatif =
                WhatIf::new("p".into(), bytes.into(), &options, Mode::Lenient).unwrap();
            let toggles: [fn(&mut WhatIf); 5] = [
                WhatIf::toggle_mode,
                WhatIf::cycle_kind,
                WhatIf::toggle_task_id,
                WhatIf::cycle_event,
                WhatIf::toggle_message_id,
            ];
            for toggle in toggles.iter().cycle().take(12) {
                let reference = from_the_tree(&whatif, &tree);
                let explained =
                    explain_conversion(convert(&reference, &options.with_mode(whatif.mode)));
                assert_eq!(shown(&whatif.explanation), shown(&explained), "{tree}");
                toggle(&mut whatif);
                compared += 1;
            }
        }
        assert!(compared > 100, "{compared}");
    }
}
