//! Upstream's `assay_evidence::verify_bundle` over bundle files, for comparing with
//! handoff-inspector's `verify` (built by `run.sh` inside a copy of upstream's workspace).
//!
//! `verify-harness FILE...`: one JSON line per file, in the order given:
//! {"file","sha256","valid","code","class","message","event_count","run_root"}.
//! `RUNS=N verify-harness --time FILE`: the call N times (wall clock, the file opened each
//! time); the median and every run on stderr.
use sha2::{Digest, Sha256};
use std::time::Instant;

fn verdict(path: &str) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap_or_default();
    let sha256: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => return serde_json::json!({"file": path, "open_error": e.to_string()}),
    };
    match assay_evidence::verify_bundle(file) {
        Ok(r) => serde_json::json!({
            "file": path, "sha256": sha256, "valid": true, "code": null, "class": null,
            "message": null, "event_count": r.event_count, "run_root": r.computed_run_root,
        }),
        Err(e) => match e.downcast_ref::<assay_evidence::VerifyError>() {
            Some(v) => serde_json::json!({
                "file": path, "sha256": sha256, "valid": false, "code": v.code.to_string(),
                "class": v.class.to_string(), "message": v.message,
                "event_count": null, "run_root": null,
            }),
            None => serde_json::json!({"file": path, "sha256": sha256, "valid": false, "other_error": format!("{e:#}")}),
        },
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--time") {
        let path = &args[1];
        let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let file = std::fs::File::open(path).expect("open");
            let result = assay_evidence::verify_bundle(file);
            times.push(start.elapsed().as_secs_f64());
            match result {
                Ok(r) => println!("OK {} {} events", r.computed_run_root, r.event_count),
                Err(e) => println!("FAIL {e}"),
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        eprintln!("median {:.3} s over {} runs: {:?}", times[times.len() / 2], runs, times);
        return;
    }
    for path in &args {
        println!("{}", verdict(path));
    }
}
