//! docs/goldens.md's table of the `CI` values that let goldens be written is the code's table
//! (`golden::CI_WRITES_VALUES`), row for row; tests/corpus/ci_values.rs runs `bless` under
//! each row and its spellings.

use handoff_inspector::golden::CI_WRITES_VALUES;

/// The values the table's "yes" rows name (`empty` for the empty value), in order.
pub fn documented_writes_values() -> Vec<String> {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/goldens.md"),
    )
    .unwrap();
    let start = page.find("<!-- ci-writes:start -->").expect("start marker");
    let end = page.find("<!-- ci-writes:end -->").expect("end marker");
    page[start..end]
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // "| `0` | yes |" splits into ["", "`0`", "yes", ""].
            (cells.len() == 4 && cells[2] == "yes" && cells[1] != "unset").then(|| match cells[1] {
                "empty" => String::new(),
                value => value.trim_matches('`').to_owned(),
            })
        })
        .collect()
}

#[test]
fn the_ci_table_in_the_docs_is_the_codes() {
    assert_eq!(documented_writes_values(), CI_WRITES_VALUES);
}
