//! The interactive inspector with a 1M-packet corpus loaded: the time from a key press to a
//! finished frame (update + draw on a 200x60 TestBackend), and the process's memory. Prints
//! figures; asserts nothing. Run: `cargo bench --bench tui` (writes the corpus once under
//! target/bench-corpus and reuses it; `TUI_BENCH_PACKETS=N` for another size;
//! `TUI_BENCH_CORPUS=FILE` loads that file instead, e.g. the realistic mix 50 times over).
//!
//! With the corpus loaded: a reviewer's session of keys; then the jobs that run off the UI
//! thread, each while a key arrives every 20 ms, timed from when the key was due to its
//! finished frame: a search (`/msg-999998`), filters (a status from the menu, a coverage
//! matrix cell, Esc clearing them) and a reload (`r`). Then, on two big packets (an A2A Task
//! of 60,000 tiny parts, 1.6 MB, and an agent card of 200,000 skills, 11.7 MB: the shapes of
//! scripts/memory_cases.py), the time of the first frame of each detail tab and of a frame
//! while scrolling it (`TUI_BENCH_BIG_ONLY=1`: only those; `TUI_BENCH_NO_BIG=1`: not those).

#[path = "support/synthetic.rs"]
mod synthetic;

use handoff_inspector::corpus::CheckOptions;
use handoff_inspector::tui::runtime::drive::Headless;
use handoff_inspector::tui::runtime::event_loop::Live;
use handoff_inspector::tui::runtime::loader::Loader;
use handoff_inspector::tui::runtime::perform::perform_all;
use handoff_inspector::tui::state::app::App;
use handoff_inspector::tui::update::{update, Action, Effect};
use handoff_inspector::tui::views::{Screen, ViewState};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use std::path::PathBuf;
use std::sync::mpsc;
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
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-corpus");
    if std::env::var_os("TUI_BENCH_BIG_ONLY").is_none() {
        corpus_session(&root);
    }
    if std::env::var_os("TUI_BENCH_NO_BIG").is_none() {
        big_packets(&root);
    }
}

/// A v0.3 Task whose one message has `count` two-member text parts.
fn task_of_tiny_parts(count: usize) -> String {
    let parts = vec![r#"{"kind":"text","text":"x"}"#; count].join(",");
    format!(
        r#"{{"kind":"task","id":"task-1","contextId":"ctx-1","status":{{"state":"completed","timestamp":"2025-04-02T16:59:25.331Z"}},"history":[{{"kind":"message","role":"user","messageId":"msg-1","contextId":"ctx-1","parts":[{parts}]}}]}}"#
    )
}

/// A v0.3 agent card with `count` skills.
fn agent_card_of_skills(count: usize) -> String {
    let skills: Vec<String> = (0..count)
        .map(|i| format!(r#"{{"id":"s{i}","name":"n","description":"d","tags":["t"]}}"#))
        .collect();
    format!(
        r#"{{"protocolVersion":"0.3.0","name":"Trip Planner","description":"Plans trips.","url":"https://agent.example.com/a2a/v1","preferredTransport":"JSONRPC","version":"1.2.0","capabilities":{{"streaming":true}},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{}]}}"#,
        skills.join(",")
    )
}

/// Each detail tab of one big packet: the first frame (which builds what the tab shows),
/// then the median frame of 40 scroll keys (j, PgDn) with the detail focused.
fn big_packets(root: &std::path::Path) {
    let key = |code: KeyCode| KeyEvent::new(code, KeyModifiers::NONE);
    type Shape = (&'static str, fn(usize) -> String, usize);
    let shapes: [Shape; 2] = [
        ("parts60k", task_of_tiny_parts, 60_000),
        ("card200k", agent_card_of_skills, 200_000),
    ];
    for (name, make, count) in shapes {
        let dir = root.join(format!("big-{name}"));
        let file = dir.join(format!("{name}.json"));
        if !file.exists() {
            if let Err(error) =
                std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, make(count)))
            {
                eprintln!("cannot write {}: {error}", file.display());
                return;
            }
        }
        let mut app = Headless::new(vec![dir], CheckOptions::default(), true);
        app.size = (200, 60);
        app.load();
        let mut terminal = match Terminal::new(TestBackend::new(200, 60)) {
            Ok(terminal) => terminal,
            Err(error) => {
                eprintln!("{error}");
                return;
            }
        };
        for tab in ['1', '2', '3', '4', '5', '7'] {
            let mut frame = |app: &mut Headless, event: KeyEvent| {
                let started = Instant::now();
                app.update(Action::Key(event));
                app.sync_list_geometry();
                let _ = terminal.draw(|frame| app.view(frame));
                started.elapsed()
            };
            let first = frame(&mut app, key(KeyCode::Char(tab)));
            // Focus the detail (Enter on the list), then scroll.
            frame(&mut app, key(KeyCode::Enter));
            let mut samples: Vec<Duration> = (0..40)
                .map(|index| {
                    let code = if index % 4 == 3 {
                        KeyCode::PageDown
                    } else {
                        KeyCode::Char('j')
                    };
                    frame(&mut app, key(code))
                })
                .collect();
            samples.sort();
            println!(
                "{name} tab {tab}: first frame {:.1} ms, scroll frame median {:.2} ms, max {:.2} ms",
                first.as_secs_f64() * 1000.0,
                percentile(&samples, 0.5).as_secs_f64() * 1000.0,
                samples.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
            );
            frame(&mut app, key(KeyCode::Char('h')));
        }
        println!(
            "{name}: peak RSS so far {} MiB",
            memory_kib("VmHWM:") / 1024
        );
    }
}

fn corpus_session(root: &std::path::Path) {
    let packets: u64 = std::env::var("TUI_BENCH_PACKETS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(1_000_000);
    // TUI_BENCH_CORPUS=FILE: another corpus (e.g. the realistic mix 50 times over).
    let corpus = std::env::var_os("TUI_BENCH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(format!("lines-{packets}.ndjson")));
    if !corpus.exists() {
        println!("writing {} ...", corpus.display());
        if let Err(error) =
            std::fs::create_dir_all(root).and_then(|()| synthetic::write_ndjson(&corpus, packets))
        {
            eprintln!("cannot write the corpus: {error}");
            return;
        }
    }

    let mut app = Headless::new(vec![corpus.clone()], CheckOptions::default(), true);
    app.size = (200, 60);
    let started = Instant::now();
    app.load();
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
        app.update(Action::Key(event));
        app.sync_list_geometry();
        if terminal.draw(|frame| app.view(frame)).is_err() {
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
    jobs_while_keys(app, terminal);
}

/// A key every 20 ms while a job runs (a search, a filter, a reload), handled as the runtime's
/// loop handles it: the key's effects go to the inspector's own `Loader` (its threads), then
/// the loop takes their answers for a bounded time (`tui::take_answers`), then draws. Each key is timed from when it
/// was due (start + k x 20 ms) to its finished frame, so a key that waits behind work counts
/// the wait. The keys that start the job are the first sample. Runs until `busy` says the job
/// is over (and at least 25 keys), at most 10 minutes; prints median, p95 and max.
struct Jobs {
    loader: Loader,
    receiver: mpsc::Receiver<Action>,
    terminal: Terminal<TestBackend>,
    view: ViewState,
}

impl Jobs {
    fn perform(&self, app: &mut App, effects: Vec<Effect>) {
        let mut live = Live {
            loader: &self.loader,
            guard: None,
        };
        perform_all(app, effects, &mut live);
    }

    fn press(&self, app: &mut App, code: KeyCode) {
        let effects = update(app, Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        self.perform(app, effects);
    }

    fn keys_during(
        &mut self,
        label: &str,
        app: &mut App,
        start: &[KeyCode],
        cycle: &[KeyCode],
        busy: &dyn Fn(&App) -> bool,
    ) {
        let began = Instant::now();
        let mut samples = Vec::new();
        let mut keys = cycle.iter().cycle();
        // The slowest key: in all, its wait behind the loop, its update, the answers taken
        // after it, the draw.
        let mut slowest: Option<[Duration; 5]> = None;
        loop {
            let due = began + Duration::from_millis(20) * samples.len() as u32;
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let waited = due.elapsed();
            let pressed = Instant::now();
            if samples.is_empty() {
                for code in start {
                    self.press(app, *code);
                }
            } else if let Some(code) = keys.next() {
                self.press(app, *code);
            }
            let answers = Instant::now();
            handoff_inspector::tui::runtime::event_loop::take_answers(
                app,
                &self.loader,
                &self.receiver,
            );
            let drawn = Instant::now();
            app.sync_list_geometry();
            let view = &mut self.view;
            if self
                .terminal
                .draw(|frame| view_of(app, view, frame))
                .is_err()
            {
                return;
            }
            app.clamp_detail_scroll(self.view.scroll_max);
            let sample = due.elapsed();
            if slowest.is_none_or(|[worst, ..]| sample > worst) {
                slowest = Some([
                    sample,
                    waited,
                    answers - pressed,
                    drawn - answers,
                    drawn.elapsed(),
                ]);
            }
            samples.push(sample);
            if (!busy(app) && samples.len() >= 25) || began.elapsed() > Duration::from_secs(600) {
                break;
            }
        }
        let took = began.elapsed();
        samples.sort();
        let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
        println!(
            "{label}: {:.2} s, {} keys, key -> frame median {:.2} ms, p95 {:.2} ms, max {:.2} ms (target: < 16 ms)",
            took.as_secs_f64(),
            samples.len(),
            ms(percentile(&samples, 0.5)),
            ms(percentile(&samples, 0.95)),
            ms(*samples.last().unwrap_or(&Duration::ZERO)),
        );
        if let Some([_, waited, key, answers, draw]) = slowest {
            println!(
                "  slowest key: waited {:.2} ms, key {:.2} ms, answers {:.2} ms, draw {:.2} ms",
                ms(waited),
                ms(key),
                ms(answers),
                ms(draw)
            );
        }
    }
}

fn view_of(app: &App, state: &mut ViewState, frame: &mut ratatui::Frame) {
    frame.render_stateful_widget(Screen { app }, frame.area(), state)
}

/// Search, filters and a reload on the loaded corpus, each while keys arrive.
fn jobs_while_keys(session: Headless, terminal: Terminal<TestBackend>) {
    let (sender, receiver) = mpsc::channel::<Action>();
    let mut jobs = Jobs {
        loader: Loader::new(sender, CheckOptions::default()),
        receiver,
        terminal,
        view: ViewState::default(),
    };
    let mut app = session.app;
    app.load_generation = jobs.loader.generation();
    let moves = [
        KeyCode::Down,
        KeyCode::Down,
        KeyCode::Char('2'),
        KeyCode::Up,
        KeyCode::PageDown,
        KeyCode::Char('3'),
    ];
    let mut with_mode = moves.to_vec();
    with_mode.push(KeyCode::Char('m'));

    // TUI_BENCH_JOBS=recheck: only the watched file's re-check (the other rows take minutes).
    let only_recheck = std::env::var("TUI_BENCH_JOBS").is_ok_and(|jobs| jobs == "recheck");
    if !only_recheck {
        searches_filters_reload(&mut jobs, &mut app, &moves, &with_mode);
    }

    // The watcher reports the corpus file changed: the loader checks it again on its thread,
    // then its million packets replace the old ones in the list (the rows the keys move over
    // meanwhile are the old ones). Over when the replaced list is shown.
    let corpus: Vec<PathBuf> = app.roots.clone();
    let epoch = app.packets_epoch;
    let effects = update(&mut app, Action::FilesChanged(corpus));
    jobs.perform(&mut app, effects);
    jobs.keys_during(
        "watched file changed (re-check of the 1M-line file, its packets spliced in)",
        &mut app,
        &[],
        &moves,
        &move |app| app.packets_epoch == epoch || filter_busy(app),
    );
    println!(
        "  listed {} packets, message: {}",
        app.list.listed.len(),
        app.message.as_deref().unwrap_or("")
    );
}

/// Search, filters and a reload, each while keys arrive.
fn searches_filters_reload(
    jobs: &mut Jobs,
    app: &mut App,
    moves: &[KeyCode],
    with_mode: &[KeyCode],
) {
    for code in "/msg-999998".chars().map(KeyCode::Char) {
        jobs.press(app, code);
    }
    jobs.keys_during(
        &format!("search /msg-999998 over {} packets", app.list.listed.len()),
        app,
        &[KeyCode::Enter],
        with_mode,
        &|app| app.search.running.is_some(),
    );
    println!(
        "  search found {} match(es)",
        app.search
            .results
            .as_ref()
            .map_or(0, |results| results.matches.len())
    );
    jobs.press(app, KeyCode::Esc);

    // The filter menu's 5th entry (status "no golden": most of the mix), then the coverage
    // matrix's first cell (`6`, Enter to the matrix, Enter), then Esc (the whole list back).
    // `m` is left out of the keys meanwhile: with a status filter it asks for the list again.
    for code in [
        KeyCode::Char('f'),
        KeyCode::Char('j'),
        KeyCode::Char('j'),
        KeyCode::Char('j'),
        KeyCode::Char('j'),
    ] {
        jobs.press(app, code);
    }
    jobs.keys_during(
        "filter status (menu, Enter)",
        app,
        &[KeyCode::Enter],
        moves,
        &filter_busy,
    );
    println!("  listed {} packets", app.list.listed.len());
    jobs.press(app, KeyCode::Char('6'));
    jobs.press(app, KeyCode::Enter);
    jobs.keys_during(
        "filter rule (coverage matrix cell, Enter)",
        app,
        &[KeyCode::Enter],
        moves,
        &filter_busy,
    );
    println!("  listed {} packets", app.list.listed.len());
    jobs.press(app, KeyCode::Char('3'));
    jobs.keys_during(
        "filter cleared (Esc)",
        app,
        &[KeyCode::Esc],
        moves,
        &filter_busy,
    );
    println!("  listed {} packets", app.list.listed.len());

    jobs.keys_during("reload (r)", app, &[KeyCode::Char('r')], moves, &|app| {
        !app.progress.done || filter_busy(app)
    });
    println!("  listed {} packets", app.list.listed.len());
}

/// Whether the list is being built (for a filter, or for packets that arrived).
fn filter_busy(app: &App) -> bool {
    app.list.building.is_some()
}
