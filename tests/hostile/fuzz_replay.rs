//! Replays every committed fuzz input (seed corpora and kept crashes) through the target
//! bodies on the stable toolchain, so what a fuzzer once found stays fixed without nightly.

use std::path::Path;

fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_committed_fuzz_input_replays_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for (name, body) in handoff_inspector::fuzzing::TARGETS {
        let corpus = inputs(&root.join("corpus").join(name));
        assert!(!corpus.is_empty(), "fuzz/corpus/{name} has no seeds");
        for path in corpus
            .into_iter()
            .chain(inputs(&root.join("regressions").join(name)))
        {
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{name}: {} panics", path.display());
            replayed += 1;
        }
    }
    assert!(replayed > 0);
}
