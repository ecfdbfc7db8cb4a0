//! The interactive inspector with a 1M-packet corpus loaded: the time from a key press to a
//! finished frame (update + draw on a 200x60 TestBackend), and the process's memory. Prints
//! figures; asserts nothing. Run: `cargo bench --bench tui` (writes the corpus once under
//! target/bench-corpus and reuses it; `TUI_BENCH_PACKETS=N` for another size).

#[path = "support/synthetic.rs"]
mod synthetic;

use handoff_inspector::corpus::CheckOptions;
use handoff_inspector::tui::app::App;
use handoff_inspector::tui::update::{update, Action};
use handoff_inspector::tui::views::view;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn memory_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with(field))
                .and_then(|line| {
                    line.split_whitespace()
                        .nth(1)
                        .and_then(|kib| kib.parse().ok())
                })
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` (CI) runs this binary without
    // it, and must not spend minutes writing and loading a million packets.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("tui bench: run it with `cargo bench --bench tui`");
        return;
    }
    let packets: u64 = std::env::var("TUI_BENCH_PACKETS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(1_000_000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-corpus");
    let corpus = root.join(format!("lines-{packets}.ndjson"));
    if !corpus.exists() {
        println!("writing {} ...", corpus.display());
        if let Err(error) =
            std::fs::create_dir_all(&root).and_then(|()| synthetic::write_ndjson(&corpus, packets))
        {
            eprintln!("cannot write the corpus: {error}");
            return;
        }
    }

    let mut app = App::new(vec![corpus.clone()], CheckOptions::default(), true);
    app.size = (200, 60);
    let started = Instant::now();
    app.load_blocking();
    let load = started.elapsed();
    println!(
        "loaded {} packets in {:.1} s (checked on both cores); RSS {} MiB, peak {} MiB",
        app.packets.len(),
        load.as_secs_f64(),
        memory_kib("VmRSS:") / 1024,
        memory_kib("VmHWM:") / 1024
    );

    let mut terminal = match Terminal::new(TestBackend::new(200, 60)) {
        Ok(terminal) => terminal,
        Err(error) => {
            eprintln!("{error}");
            return;
        }
    };
    let key = |code: KeyCode| KeyEvent::new(code, KeyModifiers::NONE);
    // A reviewer's session: walk the list, page, jump, switch tabs and modes, open panels.
    let mut session: Vec<KeyEvent> = Vec::new();
    for round in 0..20 {
        session.extend([KeyCode::Down; 10].map(key));
        session.push(key(KeyCode::PageDown));
        session.push(key(KeyCode::Char(char::from(b'1' + (round % 8) as u8))));
        session.push(key(KeyCode::Char('m')));
        session.extend([KeyCode::Up; 3].map(key));
    }
    session.extend(
        [
            KeyCode::Char('G'),
            KeyCode::Char('g'),
            KeyCode::Char('w'),
            KeyCode::Esc,
            KeyCode::Char('?'),
            KeyCode::Esc,
        ]
        .map(key),
    );

    let mut samples = Vec::with_capacity(session.len());
    for event in session {
        let started = Instant::now();
        update(&mut app, Action::Key(event));
        app.sync_list_geometry();
        if terminal.draw(|frame| view(&app, frame)).is_err() {
            return;
        }
        samples.push(started.elapsed());
    }
    samples.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    println!(
        "key -> frame over {} keys (200x60): median {:.2} ms, p95 {:.2} ms, max {:.2} ms (target: median < 16 ms)",
        samples.len(),
        ms(percentile(&samples, 0.5)),
        ms(percentile(&samples, 0.95)),
        ms(*samples.last().unwrap_or(&Duration::ZERO)),
    );
    println!(
        "peak RSS {} MiB (target: < 1024 MiB)",
        memory_kib("VmHWM:") / 1024
    );
}
