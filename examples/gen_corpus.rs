//! Writes a synthetic corpus for measuring `check` (bench tooling, not part of the CLI).
//!
//! cargo run --release --example gen_corpus -- ndjson 1000000 /tmp/corpus.ndjson
//! cargo run --release --example gen_corpus -- files 100000 /tmp/corpus-files

#[path = "../benches/support/synthetic.rs"]
mod synthetic;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: gen_corpus ndjson|files COUNT PATH";
    let (Some(shape), Some(count), Some(path)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let Ok(count) = count.parse::<u64>() else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let path = std::path::Path::new(path);
    let written = match shape.as_str() {
        "ndjson" => synthetic::write_ndjson(path, count),
        "files" => synthetic::write_files(path, count),
        _ => {
            eprintln!("{usage}");
            return std::process::ExitCode::from(2);
        }
    };
    match written {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gen_corpus: {}: {error}", path.display());
            std::process::ExitCode::from(2)
        }
    }
}
