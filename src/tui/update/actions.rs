//! `update(&mut App, Action) -> Vec<Effect>`: where state changes (besides the runtime's
//! `perform` and `draw_frame`, which apply an effect's outcome and a frame's geometry).
//! Everything that touches the outside world (reading a packet's detail or searching the packets' text,
//! reloading, copying to the clipboard, writing a golden) is returned as an effect, never done
//! here; what was read comes back as an action with the generation it was asked for.

use crate::a2a::Mode;
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::app::{
    filter_choices, App, DiffLayout, FilterChoice, Focus, ListWhy, Overlay, SearchThen, Tab,
};
use crate::tui::state::keymap::{lookup, Command, Context};
use crate::tui::state::reads::LoaderEvent;
use crate::tui::state::selection::browse_context;
use crate::tui::state::whatif::WhatIf;
use crate::tui::update::effect::{Action, Effect, Job};
use crate::tui::update::list_job::wanted_filter;
use crate::tui::update::navigation::{move_or_scroll, on_mouse, select_row, switch_tab};
use crate::tui::update::review::{on_review_key, open_review};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use std::path::PathBuf;

pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    let mut effects = apply(app, action);
    // What the state asked to read while changing is read by the runtime.
    effects.extend(app.take_reads().into_iter().map(Effect::Read));
    let discarded = app.take_discarded();
    if !discarded.is_empty() {
        effects.push(Effect::Discard(discarded));
    }
    effects
}

fn apply(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Detail(answer) => {
            app.receive_detail(*answer);
            Vec::new()
        }
        Action::Search(generation, event) => {
            crate::tui::update::search::on_event(app, generation, event);
            Vec::new()
        }
        Action::List(generation, event) => {
            crate::tui::update::list_job::on_event(app, generation, event);
            Vec::new()
        }
        Action::Key(key) if key.kind != KeyEventKind::Release => on_key(app, key),
        Action::Key(_) => Vec::new(),
        Action::Mouse(mouse) => {
            if !too_small(app) {
                on_mouse(app, mouse);
            }
            Vec::new()
        }
        Action::Resize(width, height) => {
            app.size = (width, height);
            Vec::new()
        }
        Action::Loader(generation, event) => {
            if generation == app.load_generation {
                on_loader(app, event);
            }
            Vec::new()
        }
        Action::FilesChanged(paths) => {
            // A golden manifest changes the verdict of every packet it records: check the
            // files of its directory again (in place, so a review in progress keeps its list).
            let mut files: Vec<PathBuf> = Vec::new();
            for path in &paths {
                if crate::corpus::is_manifest_file(path) {
                    let probe = crate::corpus::Source::file(path.clone());
                    files.extend(app.files_in_dir_of(&probe));
                } else {
                    files.push(path.clone());
                }
            }
            files.sort();
            files.dedup();
            let shown = changed_message(&paths, files.len(), "re-checking");
            let done = changed_message(&paths, files.len(), "re-checked");
            crate::tui::update::list_job::recheck_started(app, files.len(), shown, done);
            vec![Effect::ReloadFiles(files)]
        }
    }
}

/// Names the files that really changed (a manifest change re-checks its whole directory,
/// which is not the same as that many files changing); `verb` says whether the re-check runs
/// or landed.
fn changed_message(changed: &[PathBuf], rechecked: usize, verb: &str) -> String {
    let names: Vec<String> = changed
        .iter()
        .take(3)
        .map(|path| crate::json::safe_text(&path.display().to_string()).into_owned())
        .collect();
    let more = changed.len().saturating_sub(names.len());
    let listed = if more > 0 {
        format!("{} and {more} more", names.join(", "))
    } else {
        names.join(", ")
    };
    format!("changed on disk: {listed}; {verb} {rechecked} packet file(s)")
}

fn on_loader(app: &mut App, event: LoaderEvent) {
    match event {
        LoaderEvent::Packets(summaries) => {
            crate::tui::update::list_job::add_packets(app, summaries)
        }
        LoaderEvent::Errors(errors) => app.load_errors.extend(errors),
        LoaderEvent::Pending(pending) => app.pending = pending,
        LoaderEvent::Progress { packets } => app.progress.packets = packets,
        LoaderEvent::Done => {
            app.progress.done = true;
            // `r`'s progress line ends by saying what was loaded.
            if std::mem::take(&mut app.progress.reloading) {
                app.message = Some(format!(
                    "reloaded: {} packets, {} load error(s)",
                    crate::tui::state::progress::thousands(app.packets.len()),
                    app.load_errors.len()
                ));
            }
            if app.packets.is_empty() && app.load_errors.is_empty() {
                app.message =
                    Some("no packets found (looked for *.json, *.ndjson, *.jsonl)".to_owned());
            }
        }
        LoaderEvent::FileReloaded {
            path,
            checks,
            errors,
        } => crate::tui::update::list_job::replace_file(app, path, checks, errors),
    }
}

/// How far a key scrolls the help (None: the key closes it).
fn scrolls_help(key: &KeyEvent) -> Option<i32> {
    match key.code {
        KeyCode::Char('j') | KeyCode::Down => Some(1),
        KeyCode::Char('k') | KeyCode::Up => Some(-1),
        KeyCode::PageDown => Some(10),
        KeyCode::PageUp => Some(-10),
        _ => None,
    }
}

/// Whether the last drawn size is below the minimum: only the "too small" message shows then.
fn too_small(app: &App) -> bool {
    crate::tui::state::geometry::too_small(ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1))
}

fn on_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    if too_small(app) {
        // Nothing else is on screen, so no key may change what is hidden behind the message.
        if matches!(key.code, KeyCode::Char('q'))
            || lookup(Context::Global, &key) == Some(Command::Quit) && key.code != KeyCode::Esc
        {
            app.should_quit = true;
        }
        return Vec::new();
    }
    if let Some(message) = app.message.take() {
        app.last_message = Some(message);
    }
    if app.search.input.is_some() {
        on_search_key(app, key);
        return Vec::new();
    }
    match app.overlay.take() {
        Some(Overlay::Help { scroll }) if scrolls_help(&key).is_some() => {
            let delta = scrolls_help(&key).unwrap_or(0);
            let scroll = (i32::from(scroll) + delta).clamp(0, i32::from(u16::MAX / 2)) as u16;
            app.overlay = Some(Overlay::Help { scroll });
            return Vec::new();
        }
        Some(Overlay::Help { .. }) => {
            // Any key closes; `?` would reopen, so it just closes too.
            if lookup(Context::Global, &key) == Some(Command::Quit)
                && key.code != KeyCode::Esc
                && key.code != KeyCode::Char('q')
            {
                app.should_quit = true;
            }
            return Vec::new();
        }
        Some(Overlay::Filter { cursor }) => {
            on_filter_key(app, key, cursor);
            return Vec::new();
        }
        Some(Overlay::Review(review)) => return on_review_key(app, key, review),
        Some(Overlay::WhatIf(mut whatif)) => {
            match lookup(Context::WhatIf, &key) {
                Some(Command::WhatIfEvent) => whatif.cycle_event(),
                Some(Command::WhatIfKind) => whatif.cycle_kind(),
                Some(Command::WhatIfTaskId) => whatif.toggle_task_id(),
                Some(Command::WhatIfMessageId) => whatif.toggle_message_id(),
                Some(Command::ToggleMode) => whatif.toggle_mode(),
                Some(Command::Back) => return Vec::new(),
                Some(Command::Quit) if key.code == KeyCode::Char('c') => {
                    app.should_quit = true;
                    return Vec::new();
                }
                _ => {}
            }
            app.overlay = Some(Overlay::WhatIf(whatif));
            return Vec::new();
        }
        None => {}
    }
    match lookup(browse_context(app), &key) {
        Some(command) => on_command(app, command, key),
        None => Vec::new(),
    }
}

/// Migrate tab: move between the steps of the selected packet's migration, switch them off.
fn on_migrate_command(app: &mut App, command: Command) {
    let steps: Vec<&'static str> = app
        .selected_detail()
        .and_then(|detail| detail.migration())
        .map(|migration| migration.steps.iter().map(|run| run.step.id).collect())
        .unwrap_or_default();
    if steps.is_empty() {
        return;
    }
    match command {
        Command::StepNext => {
            app.tabs.migrate.cursor = (app.tabs.migrate.cursor + 1).min(steps.len() - 1)
        }
        Command::StepPrev => app.tabs.migrate.cursor = app.tabs.migrate.cursor.saturating_sub(1),
        Command::Toggle => {
            let id = steps[app.tabs.migrate.cursor.min(steps.len() - 1)];
            match app.tabs.migrate.off.iter().position(|off| *off == id) {
                Some(index) => {
                    app.tabs.migrate.off.remove(index);
                }
                None => app.tabs.migrate.off.push(id),
            }
        }
        _ => {}
    }
}

fn on_command(app: &mut App, command: Command, key: KeyEvent) -> Vec<Effect> {
    match command {
        Command::Quit => return quit_or_back(app, key),
        Command::Down => move_or_scroll(app, 1),
        Command::Up => move_or_scroll(app, -1),
        Command::PageDown => move_or_scroll(app, i64::from(app.list.area_height.max(2) - 1)),
        Command::PageUp => move_or_scroll(app, -i64::from(app.list.area_height.max(2) - 1)),
        Command::Top => {
            if app.focus == Focus::Detail {
                app.tabs.scroll = 0;
            } else {
                select_row(app, app.first_packet_row_from(0, true));
            }
        }
        Command::Bottom => {
            if app.focus == Focus::Detail {
                app.tabs.scroll = u16::MAX / 2;
            } else {
                select_row(
                    app,
                    app.first_packet_row_from(app.list.rows.len().saturating_sub(1), false),
                );
            }
        }
        Command::Left => {
            if app.tab == Tab::Rules && app.focus == Focus::Detail && app.tabs.rules.cursor.1 == 1 {
                app.tabs.rules.cursor.1 = 0;
            } else if app.focus == Focus::List {
                crate::tui::update::rows::fold_selected_group(app);
            } else {
                app.focus = Focus::List;
            }
        }
        Command::Right => {
            if app.tab == Tab::Rules && app.focus == Focus::Detail {
                app.tabs.rules.cursor.1 = 1;
            } else if !(app.focus == Focus::List
                && crate::tui::update::rows::unfold_selected_group(app))
            {
                app.focus = Focus::Detail;
            }
        }
        Command::NextTab => switch_tab(app, (app.tab.index() + 1) % Tab::ALL.len()),
        Command::PrevTab => {
            switch_tab(app, (app.tab.index() + Tab::ALL.len() - 1) % Tab::ALL.len())
        }
        Command::GoTab(index) => switch_tab(app, index),
        Command::Enter => {
            if app.tab == Tab::Rules && app.focus == Focus::Detail {
                let (row, column) = app.tabs.rules.cursor;
                let mode = Mode::BOTH[column.min(1)];
                let mut filter = wanted_filter(app);
                filter.rule = COVERAGE_ROW_IDS.get(row).map(|id| (*id, mode));
                app.focus = Focus::List;
                let done = format!(
                    "filtered: {} (f to change, Esc to clear)",
                    filter.describe()
                );
                crate::tui::update::list_job::start(app, filter, ListWhy::Filter, Some(done));
            } else if !(app.focus == Focus::List
                && crate::tui::update::rows::unfold_selected_group(app))
            {
                app.focus = Focus::Detail;
            }
        }
        Command::ToggleMode => {
            app.mode = match app.mode {
                Mode::Strict => Mode::Lenient,
                Mode::Lenient => Mode::Strict,
            };
            // Which packets are listed depends on the mode only through a status filter (a
            // rule filter names its own mode); a million rows are not rebuilt for nothing.
            let filter = wanted_filter(app);
            if filter.status.is_some() {
                crate::tui::update::list_job::start(app, filter, ListWhy::Mode, None);
            }
        }
        Command::Search => app.search.input = Some(String::new()),
        Command::NextMatch => crate::tui::update::search::step(app, true),
        Command::PrevMatch => crate::tui::update::search::step(app, false),
        Command::Filter => app.overlay = Some(Overlay::Filter { cursor: 0 }),
        Command::WhatIf => open_whatif(app),
        Command::DiffLayout => {
            app.tabs.digests.layout = match app.tabs.digests.layout {
                DiffLayout::Unified => DiffLayout::SideBySide,
                DiffLayout::SideBySide => DiffLayout::Unified,
            };
            let layout = match app.tabs.digests.layout {
                DiffLayout::Unified => "unified",
                DiffLayout::SideBySide => "side by side",
            };
            app.message = Some(if crate::tui::state::selection::has_payload_diff(app) {
                format!("payload diff: {layout}")
            } else {
                format!(
                    "payload diff set to {layout}, but nothing to diff here: no paired expected payload differs from the conversion (golden drift shows on the Digests tab without a diff)"
                )
            });
        }
        Command::Reload => {
            crate::tui::update::list_job::clear_packets(app);
            app.progress.reloading = true;
            return vec![Effect::ReloadAll];
        }
        Command::Copy => {
            if let Some(text) = crate::tui::state::selection::copy_target(app) {
                app.message = Some(format!("copied {}", crate::json::safe_text(&text)));
                return vec![Effect::Copy(text)];
            }
        }
        Command::OpenEditor => match crate::tui::state::selection::editor_target(app) {
            Some(target) => return vec![Effect::OpenEditor(target)],
            None => app.message = Some("no packet selected to open".to_owned()),
        },
        Command::Help => app.overlay = Some(Overlay::Help { scroll: 0 }),
        Command::Review => open_review(app),
        Command::StepNext | Command::StepPrev | Command::Toggle => on_migrate_command(app, command),
        _ => {}
    }
    Vec::new()
}

/// q and Ctrl-C quit; Esc first stops a running job (search or list build), then steps back
/// (detail focus, search, filter), then quits. The search goes before the filter, as in the
/// Compare view: it is the narrower, newer choice, set on top of the filtered list, so Esc
/// undoes the last thing set first and one order holds on both screens.
fn quit_or_back(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    // A running search or filter is on screen (its progress line): Esc stops it first.
    if key.code == KeyCode::Esc {
        let stopped: Vec<Effect> = [
            (crate::tui::update::search::cancel(app), Job::Search),
            (crate::tui::update::list_job::cancel(app), Job::List),
        ]
        .into_iter()
        .filter_map(|(stopped, job)| stopped.then_some(Effect::Cancel(job)))
        .collect();
        if !stopped.is_empty() {
            return stopped;
        }
    }
    if key.code != KeyCode::Esc {
        app.should_quit = true;
    } else if app.focus == Focus::Detail {
        app.focus = Focus::List;
    } else if let Some(query) = app.search.query.take() {
        app.message = Some(format!(
            "search \"{}\" cleared",
            crate::json::safe_text(&query)
        ));
    } else if wanted_filter(app).is_active() {
        let done = Some("filter cleared".to_owned());
        crate::tui::update::list_job::start(app, Default::default(), ListWhy::Filter, done);
    } else {
        app.should_quit = true;
    }
    Vec::new()
}

fn on_search_key(app: &mut App, key: KeyEvent) {
    let Some(input) = app.search.input.as_mut() else {
        return;
    };
    match key.code {
        KeyCode::Char('c')
            if key
                .modifiers
                .contains(ratatui::crossterm::event::KeyModifiers::CONTROL) =>
        {
            app.search.input = None;
        }
        KeyCode::Char(c) => input.push(c),
        KeyCode::Backspace => {
            input.pop();
        }
        KeyCode::Esc => app.search.input = None,
        KeyCode::Enter => {
            let query = app.search.input.take().unwrap_or_default();
            app.search.query = (!query.is_empty()).then_some(query);
            if app.search.query.is_some() {
                crate::tui::update::search::start(app, SearchThen::SelectFirst);
            }
        }
        _ => {}
    }
}

fn on_filter_key(app: &mut App, key: KeyEvent, cursor: usize) {
    let choices = filter_choices();
    let mut cursor = cursor.min(choices.len() - 1);
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => cursor = (cursor + 1).min(choices.len() - 1),
        KeyCode::Up | KeyCode::Char('k') => cursor = cursor.saturating_sub(1),
        KeyCode::PageDown => cursor = (cursor + 10).min(choices.len() - 1),
        KeyCode::PageUp => cursor = cursor.saturating_sub(10),
        KeyCode::Enter => {
            let mut filter = wanted_filter(app);
            match choices[cursor] {
                FilterChoice::Clear => filter = Default::default(),
                FilterChoice::Status(status) => filter.status = Some(status),
                FilterChoice::Kind(kind) => filter.kind = Some(kind),
                FilterChoice::Rule(rule) => filter.rule = Some((rule, app.mode)),
            }
            crate::tui::update::list_job::start(app, filter, ListWhy::Filter, None);
            return;
        }
        KeyCode::Esc | KeyCode::Char('f') | KeyCode::Char('q') => return,
        _ => {}
    }
    app.overlay = Some(Overlay::Filter { cursor });
}

fn open_whatif(app: &mut App) {
    let Some(detail) = app.selected_detail() else {
        app.message = Some("select a packet first".to_owned());
        return;
    };
    let whatif = match (&detail.classification.kind, detail.tree_fits()) {
        (crate::corpus::PacketKind::RawA2a, Ok(())) => WhatIf::new(
            detail.source.to_string(),
            std::sync::Arc::clone(&detail.bytes),
            &app.options.evaluate.conversion,
            app.mode,
        ),
        (crate::corpus::PacketKind::RawA2a, Err(crate::corpus::NoTree::OverCap(reason))) => {
            app.message = Some(format!(
                "the what-if panel needs the packet's tree: {reason}"
            ));
            return;
        }
        _ => None,
    };
    match whatif {
        Some(whatif) => app.overlay = Some(Overlay::WhatIf(Box::new(whatif))),
        None => {
            app.message = Some(format!(
                "the what-if panel works on the adapter's input ({}s)",
                crate::corpus::PacketKind::RawA2a.name()
            ))
        }
    }
}
