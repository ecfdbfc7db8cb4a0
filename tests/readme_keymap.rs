//! The README's key tables are exactly what the keymap generates. To refresh them after
//! changing a binding: `UPDATE_README=1 cargo test --test readme_keymap`.

use handoff_inspector::tui::keymap::keymap_markdown;
use handoff_inspector::tui::status::legend_markdown;

const START: &str =
    "<!-- keymap:start (generated from src/tui/keymap.rs; see tests/readme_keymap.rs) -->";
const END: &str = "<!-- keymap:end -->";

#[test]
fn readme_key_tables_match_the_keymap() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(START)
        .expect("README lacks the keymap start marker");
    let end = readme
        .find(END)
        .expect("README lacks the keymap end marker");
    let generated = format!("{START}\n{}\n", keymap_markdown());
    let current = &readme[start..end];
    if current != generated && std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{generated}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
        return;
    }
    assert!(
        current == generated,
        "README key tables are stale; run UPDATE_README=1 cargo test --test readme_keymap"
    );
}

const GLYPHS_START: &str =
    "<!-- glyphs:start (generated from src/tui/status.rs; see tests/readme_keymap.rs) -->";
const GLYPHS_END: &str = "<!-- glyphs:end -->";

/// The README's glyph legend is what the inspector draws: one glyph per status, its label and
/// meaning from the same definitions. Refresh: `UPDATE_README=1 cargo test --test readme_keymap`.
#[test]
fn readme_glyph_legend_matches_the_statuses() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(GLYPHS_START)
        .expect("README lacks the glyphs start marker");
    let end = readme
        .find(GLYPHS_END)
        .expect("README lacks the glyphs end marker");
    let generated = format!("{GLYPHS_START}\n{}", legend_markdown());
    let current = &readme[start..end];
    if current != generated && std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{generated}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
        return;
    }
    assert!(
        current == generated,
        "README glyph legend is stale; run UPDATE_README=1 cargo test --test readme_keymap"
    );
}
