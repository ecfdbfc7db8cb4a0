//! docs/profiles.md (other handoff formats) lists every profile rule row, and its rule
//! tables are exactly what the static tables generate. To refresh them after changing a
//! table: `UPDATE_README=1 cargo test --test docs profile_tables::`.

use handoff_inspector::profiles;
use handoff_inspector::report::profile_text::rule_tables_markdown;

const START: &str =
    "<!-- profile-tables:start (generated from src/profiles; see tests/docs/profile_tables.rs) -->";
const END: &str = "<!-- profile-tables:end -->";

fn readme_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/profiles.md")
}

#[test]
fn readme_rule_tables_match_the_static_tables() {
    let readme = std::fs::read_to_string(readme_path()).unwrap();
    let start = readme
        .find(START)
        .expect("docs/profiles.md lacks the profile-tables start marker");
    let end = readme
        .find(END)
        .expect("docs/profiles.md lacks the profile-tables end marker");
    let generated = format!("{START}\n\n{}\n\n", rule_tables_markdown());
    let current = &readme[start..end];
    if current != generated && std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{generated}{}", &readme[..start], &readme[end..]);
        std::fs::write(readme_path(), updated).unwrap();
        return;
    }
    assert!(
        current == generated,
        "docs/profiles.md profile tables are stale; run UPDATE_README=1 cargo test --test docs profile_tables::"
    );
}

#[test]
fn readme_lists_every_row_id_and_the_commands() {
    let section = std::fs::read_to_string(readme_path()).unwrap();
    for table in profiles::tables() {
        for row in table.rows {
            assert!(
                section.contains(&format!("| {} |", row.id)),
                "docs/profiles.md lacks {}",
                row.id
            );
        }
    }
    for flag in [
        "--profile-version",
        "--artifact-root",
        "--now",
        "--as",
        "--previous",
        "handoff-inspector formats",
    ] {
        assert!(section.contains(flag), "docs/profiles.md lacks {flag}");
    }
}
