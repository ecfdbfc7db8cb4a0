//! The committed screenshots in `screenshots/` are exactly what the code draws. After a
//! deliberate change to a screen, regenerate them with
//! `UPDATE_SCREENSHOTS=1 cargo test --test tui screenshots::` and look at the result.

use handoff_inspector::a2a::Mode;
use handoff_inspector::tui::runtime::render::{render, RenderSpec, View};
use handoff_inspector::tui::views::svg::buffer_to_svg;
use std::path::{Path, PathBuf};

struct Shot {
    file: &'static str,
    paths: &'static [&'static str],
    view: View,
    size: (u16, u16),
    select: Option<&'static str>,
    keys: &'static str,
}

const SHOTS: &[Shot] = &[
    Shot {
        file: "list-handoff.svg",
        paths: &["fixtures/a2a"],
        view: View::Handoff,
        size: (120, 40),
        select: Some("happy_task_requested.json"),
        keys: "",
    },
    Shot {
        file: "digest-diff.svg",
        paths: &["screenshots/demo-drift"],
        view: View::Digests,
        size: (120, 40),
        select: Some("delegation.json"),
        keys: "",
    },
    Shot {
        file: "small-80x24.svg",
        paths: &["fixtures"],
        view: View::Handoff,
        size: (80, 24),
        select: Some("happy_task_requested.json"),
        keys: "",
    },
    Shot {
        file: "golden-drift.svg",
        paths: &["screenshots/demo-golden-drift"],
        view: View::Digests,
        size: (120, 40),
        select: None,
        keys: "m",
    },
    Shot {
        file: "rules-matrix.svg",
        paths: &["fixtures/a2a"],
        view: View::Rules,
        size: (120, 40),
        select: None,
        keys: "l",
    },
    Shot {
        file: "migrate-stepper.svg",
        paths: &["fixtures/migrate"],
        view: View::Migrate,
        size: (120, 36),
        select: Some("migrate/task.v03.jsonrpc.json"),
        keys: "lnn",
    },
    Shot {
        file: "what-if.svg",
        paths: &["fixtures/a2a"],
        view: View::WhatIf,
        size: (120, 40),
        select: Some("happy_task_requested.json"),
        keys: "k",
    },
    Shot {
        file: "bundle-view.svg",
        paths: &["fixtures/bundles/a2a-ten-events.tar.gz"],
        view: View::Handoff,
        size: (120, 40),
        select: Some("a2a-ten-events.tar.gz"),
        keys: "",
    },
    Shot {
        file: "bundle-failed.svg",
        paths: &["fixtures/bundles/neg-tampered-event-hash.tar.gz"],
        view: View::Handoff,
        size: (120, 40),
        select: Some("neg-tampered-event-hash.tar.gz"),
        keys: "",
    },
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn draw(shot: &Shot) -> String {
    // Paths are relative to the crate root, so the pictures carry no machine-specific path.
    std::env::set_current_dir(root()).unwrap();
    let spec = RenderSpec {
        paths: shot.paths.iter().map(PathBuf::from).collect(),
        view: shot.view,
        width: shot.size.0,
        height: shot.size.1,
        select: shot.select.map(str::to_owned),
        mode: Mode::Strict,
        keys: shot.keys.to_owned(),
        color: true,
        now: crate::common::fixture_options().evaluate.profile.now,
        walk: Default::default(),
        trusted_keys: std::sync::Arc::new([]),
    };
    buffer_to_svg(&render(&spec).unwrap())
}

#[test]
fn committed_screenshots_match_what_the_code_draws() {
    let update = std::env::var_os("UPDATE_SCREENSHOTS").is_some();
    let mut stale = Vec::new();
    for shot in SHOTS {
        let path = root().join("screenshots").join(shot.file);
        let drawn = draw(shot);
        if update {
            std::fs::write(&path, &drawn).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(drawn.as_str()) {
            stale.push(shot.file);
        }
    }
    assert!(stale.is_empty(), "screenshots no longer match the code: {stale:?}; run UPDATE_SCREENSHOTS=1 cargo test --test tui screenshots::");
}

#[test]
fn the_inspector_page_shows_every_screenshot() {
    let readme = std::fs::read_to_string(root().join("docs/inspector.md")).unwrap();
    for shot in SHOTS {
        assert!(
            readme.contains(&format!("screenshots/{}", shot.file)),
            "docs/inspector.md does not show {}",
            shot.file
        );
    }
}

/// The Compare view on the two demo runs, first pair selected (the state change).
#[test]
fn the_compare_view_screenshot_matches_what_the_code_draws() {
    use handoff_inspector::compare::{compare, CompareOptions};
    std::env::set_current_dir(root()).unwrap();
    let options = CompareOptions::new(Mode::Strict, Default::default(), Default::default());
    let comparison = compare(
        Path::new("screenshots/demo-compare/run1"),
        Path::new("screenshots/demo-compare/run2"),
        &options,
    )
    .unwrap();
    let buffer = handoff_inspector::tui::compare::render_to_buffer(comparison, &[], (140, 40));
    let drawn = buffer_to_svg(&buffer);
    let path = root().join("screenshots/compare-view.svg");
    if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
        std::fs::write(&path, &drawn).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&path).ok().as_deref(),
        Some(drawn.as_str()),
        "run UPDATE_SCREENSHOTS=1 cargo test --test tui screenshots::"
    );
    let page = std::fs::read_to_string(root().join("docs/diff.md")).unwrap();
    assert!(page.contains("screenshots/compare-view.svg"));
    let width = buffer.area.width as usize;
    let cells: Vec<&str> = buffer.content().iter().map(|cell| cell.symbol()).collect();
    let text: String = cells.chunks(width).map(|row| row.concat() + "\n").collect();
    // The state change comes first and is selected: both states, both sides' deciding rows.
    for shown in [
        "│~ happy_task_requested.json",
        "≠ state: typed positive: task + message refs",
        "≠ state: defaults (not visible)",
        "≠   visible = true  [P]",
        "≠   visible = false  [N5 X5 N6]",
        "≠   $.task.kind = \"analysis\"",
    ] {
        assert!(text.contains(shown), "{shown:?} not in\n{text}");
    }
}
