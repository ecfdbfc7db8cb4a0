//! docs/inspector.md's key tables and glyph legend are exactly what the keymap and the
//! statuses generate. To refresh them after
//! changing a binding: `UPDATE_README=1 cargo test --test docs keymap::`.

use handoff_inspector::tui::state::keymap::keymap_markdown;
use handoff_inspector::tui::state::status::legend_markdown;

const START: &str =
    "<!-- keymap:start (generated from src/tui/state/keymap.rs; see tests/docs/keymap.rs) -->";
const END: &str = "<!-- keymap:end -->";

/// Checks that docs/inspector.md holds `generated` right after `start` and up to `end`; with
/// UPDATE_README set, writes it there instead.
fn readme_block_is(start: &str, end: &str, generated: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/inspector.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let from = readme
        .find(start)
        .unwrap_or_else(|| panic!("docs/inspector.md lacks {start}"));
    let to = readme
        .find(end)
        .unwrap_or_else(|| panic!("docs/inspector.md lacks {end}"));
    let generated = format!("{start}\n{generated}");
    let current = &readme[from..to];
    if current != generated && std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{generated}{}", &readme[..from], &readme[to..]),
        )
        .unwrap();
        return;
    }
    assert!(
        current == generated,
        "docs/inspector.md block {start} is stale; run UPDATE_README=1 cargo test --test docs keymap::"
    );
}

#[test]
fn readme_key_tables_match_the_keymap() {
    readme_block_is(START, END, &format!("{}\n", keymap_markdown()));
}

const GLYPHS_START: &str =
    "<!-- glyphs:start (generated from src/tui/state/status.rs; see tests/docs/keymap.rs) -->";
const GLYPHS_END: &str = "<!-- glyphs:end -->";

/// The glyph legend is what the inspector draws: one glyph per status, its label and
/// meaning from the same definitions.
#[test]
fn readme_glyph_legend_matches_the_statuses() {
    readme_block_is(GLYPHS_START, GLYPHS_END, &legend_markdown());
}
