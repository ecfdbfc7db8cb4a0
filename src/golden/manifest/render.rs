//! Writing the manifest in its one fixed layout: one field per line, packets in key order.

use super::{GoldenEntry, GoldenManifest, ModeGolden, PacketKey, RecordedOptions, MANIFEST_FORMAT};
use crate::a2a::Mode;
use crate::golden::content::Content;
use crate::json::to_safe_json;
use std::fmt::Write as _;

pub(in crate::golden) fn quoted(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2);
    // Writing a string into a `Vec` cannot fail.
    let _ = crate::json::write_safe_json(&mut out, &text);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the manifest in its one fixed layout.
pub fn render_manifest(manifest: &GoldenManifest) -> String {
    let mut encoder = ManifestEncoder::default();
    let mut out = ManifestEncoder::head(&manifest.options);
    for (key, entry) in &manifest.packets {
        out.push_str(&encoder.entry(key, entry));
    }
    out.push_str(encoder.tail());
    out
}

/// The manifest's layout in pieces, for writing one entry at a time (`bless` streams the
/// entries to the file in key order and never holds the whole text): `head`, then `entry`
/// for every packet in key order, then `tail`. `render_manifest` is built from the same
/// pieces, so both give the same bytes.
#[derive(Debug, Default)]
pub struct ManifestEncoder {
    entries: usize,
}

impl ManifestEncoder {
    /// The text up to the packets: format and options.
    pub fn head(options: &RecordedOptions) -> String {
        let mut out = String::new();
        out.push_str("{\n");
        let _ = writeln!(out, "  \"format\": {},", quoted(MANIFEST_FORMAT));
        out.push_str("  \"options\": {\n");
        let fields: Vec<String> = options
            .fields()
            .into_iter()
            .map(|(key, value)| format!("\"{key}\": {}", to_safe_json(&value).unwrap_or_default()))
            .collect();
        push_fields(&mut out, &fields, "    ");
        out.push_str("  },\n");
        out
    }

    /// One packet's text, with what goes before it (the `packets` key before the first, a
    /// comma before the others).
    pub fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> String {
        let mut out = String::new();
        out.push_str(if self.entries == 0 {
            "  \"packets\": {\n"
        } else {
            ",\n"
        });
        self.entries += 1;
        let _ = writeln!(out, "    {}: {{", quoted(&key.to_string()));
        let parts = entry_fields(entry);
        out.push_str(&parts.join(",\n"));
        if !parts.is_empty() {
            out.push('\n');
        }
        out.push_str("    }");
        out
    }

    /// The text after the last packet.
    pub fn tail(&self) -> &'static str {
        if self.entries == 0 {
            "  \"packets\": {}\n}\n"
        } else {
            "\n  }\n}\n"
        }
    }
}

/// An entry's fields as the manifest writes them, one (possibly multi-line) item each.
fn entry_fields(entry: &GoldenEntry) -> Vec<String> {
    let mut parts = Vec::new();
    if !entry.duplicate_keys.is_empty() {
        // One string for the list: a packet may repeat a million keys, and a string per path
        // and their join held them three times over.
        let mut list = String::from("      \"duplicate_keys\": [");
        for (index, path) in entry.duplicate_keys.iter().enumerate() {
            if index > 0 {
                list.push_str(", ");
            }
            list.push_str(&quoted(path));
        }
        list.push(']');
        parts.push(list);
    }
    for mode in Mode::BOTH {
        if let Some(golden) = entry.mode(mode) {
            let content = entry.content.modes[mode.index()]
                .as_ref()
                .filter(|_| golden.payload.is_some());
            parts.push(render_mode(mode, golden, content));
        }
    }
    if let Some(object) = &entry.object {
        parts.extend(
            object
                .render_fields(&|text| quoted(text))
                .into_iter()
                .map(|field| format!("      {field}")),
        );
        if let Some(content) = &entry.content.object {
            parts.push(format!("      \"content\": {}", content.render("      ")));
        }
    }
    parts
}

/// An entry as one JSON object, in the manifest's terms (what `parse_entry_json` reads back):
/// how `bless` keeps recorded entries on disk while it sorts them.
pub(in crate::golden) fn entry_json(entry: &GoldenEntry) -> String {
    format!("{{{}}}", entry_fields(entry).join(","))
}

fn render_mode(mode: Mode, golden: &ModeGolden, content: Option<&Content>) -> String {
    let mut fields = Vec::new();
    if let Some(error) = golden.error {
        fields.push(format!("\"error\": {}", quoted(error.name())));
    }
    if let Some(rule) = &golden.rule {
        fields.push(format!("\"rule\": {}", quoted(rule)));
    }
    if let Some(rows) = golden.rows {
        let ids: Vec<String> = rows.ids().map(quoted).collect();
        fields.push(format!("\"rows\": [{}]", ids.join(", ")));
    }
    if let Some(state) = golden.state {
        fields.push(format!("\"state\": {}", quoted(state.key())));
    }
    for (key, digest) in [
        ("handoff", golden.handoff),
        ("discovery", golden.discovery),
        ("payload", golden.payload),
    ] {
        if let Some(digest) = digest {
            fields.push(format!("\"{key}\": \"{digest}\""));
        }
    }
    if let Some(content) = content {
        fields.push(format!("\"content\": {}", content.render("        ")));
    }
    if fields.is_empty() {
        return format!("      \"{}\": {{}}", mode.name());
    }
    let mut out = format!("      \"{}\": {{\n", mode.name());
    push_fields(&mut out, &fields, "        ");
    out.push_str("      }");
    out
}

fn push_fields(out: &mut String, fields: &[String], indent: &str) {
    let last = fields.len().saturating_sub(1);
    for (index, field) in fields.iter().enumerate() {
        out.push_str(indent);
        out.push_str(field);
        out.push_str(if index == last { "\n" } else { ",\n" });
    }
}
