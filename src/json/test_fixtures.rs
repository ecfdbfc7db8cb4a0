//! The texts of the raw packets under `fixtures/a2a`, for the tests that hold a reading of a
//! packet's text (its members, its evidence, its relabelling) to the reading of its tree.

/// Every `.json` file under `fixtures/a2a` (more than ten: a test that reads none proves
/// nothing).
pub fn a2a_fixture_texts() -> Vec<Vec<u8>> {
    let mut texts = Vec::new();
    for entry in std::fs::read_dir("fixtures/a2a").unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            texts.push(std::fs::read(&path).unwrap());
        }
    }
    assert!(texts.len() > 10, "fixtures/a2a holds the raw packets");
    texts
}
