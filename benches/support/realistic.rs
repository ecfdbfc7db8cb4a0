//! The realistic inputs the command-line benches run on, each written once under
//! target/bench-mix and reused: the mix of 20,000 packets the upstream adapter's output was
//! recorded for (tests/data/oracle/a2a-mixed-20k.ndjson.gz), repeated; a directory of it with
//! the goldens.json `bless` wrote. Shared by `benches/cli.rs` and `benches/bounds.rs`.
//!
//! Everything is streamed to disk: a bench measures its children's peak RSS, and on Linux a
//! child's figure starts from its parent's (the memory the parent had at the spawn is carried
//! across `exec` into the child's high-water mark), so the bench process stays small.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const MIX: &str = "tests/data/oracle/a2a-mixed-20k.ndjson.gz";

/// Where the inputs are kept.
pub fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from("target/bench-mix");
    std::fs::create_dir_all(&dir).expect("target/bench-mix");
    dir
}

/// Writes `path` through `fill` into a temporary file renamed into place, unless it exists.
pub fn write_once(path: &Path, fill: impl FnOnce(&mut BufWriter<std::fs::File>)) {
    if path.exists() {
        return;
    }
    let temporary = path.with_extension("tmp");
    let mut out = BufWriter::new(std::fs::File::create(&temporary).expect("create"));
    fill(&mut out);
    out.flush().expect("flush");
    drop(out);
    std::fs::rename(&temporary, path).expect("rename");
}

/// The first `lines` packets of the mix as NDJSON, `copies` times over.
pub fn mix_file(lines: usize, copies: usize) -> PathBuf {
    let path = scratch_dir().join(format!("mix-{lines}x{copies}.ndjson"));
    if copies > 1 {
        let once = mix_file(lines, 1);
        write_once(&path, |out| {
            for _ in 0..copies {
                let mut input = std::fs::File::open(&once).expect("the mix");
                std::io::copy(&mut input, out).expect("copy");
            }
        });
        return path;
    }
    write_once(&path, |out| {
        let gzip = flate2::read::GzDecoder::new(std::fs::File::open(MIX).expect(MIX));
        for line in BufReader::new(gzip).split(b'\n').take(lines) {
            out.write_all(&line.expect("the mix decompresses"))
                .and_then(|_| out.write_all(b"\n"))
                .expect("write");
        }
    });
    path
}

/// The mix `copies` times over in a directory of its own with the goldens.json `bless`
/// wrote for it (made once, by `binary`, under target/bench-mix).
pub fn blessed_dir(binary: &Path, lines: usize, copies: usize) -> PathBuf {
    let dir = scratch_dir().join(format!("blessed-{lines}x{copies}"));
    if dir.join("goldens.json").exists() {
        return dir;
    }
    std::fs::create_dir_all(&dir).expect("blessed dir");
    let input = mix_file(lines, copies);
    let packets = dir.join("mix.ndjson");
    let _ = std::fs::remove_file(&packets);
    if std::fs::hard_link(&input, &packets).is_err() {
        std::fs::copy(&input, &packets).expect("copy the mix");
    }
    // This manifest is the bench's own scratch input under target/, never a repository
    // golden, so it is written even under CI (which otherwise refuses `bless`).
    let output = Command::new(binary)
        .args(["bless", &dir.to_string_lossy()])
        .env_remove("CI")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs");
    assert!(
        dir.join("goldens.json").exists(),
        "bless wrote nothing: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    dir
}
