//! The Bundle view (a bundle's own packet, on every per-packet tab): upstream's verdict,
//! every check of the spec's §9 in order with its outcome and what the failed one compared,
//! the manifest's values against what the lines give, the run-root computation line by line,
//! and the manifest as stored. Also the lines other screens add for a bundle's events: the
//! red "unverified" banner and the content hash recomputed vs stored (Digests).

use crate::bundle::inspect::Inspection;
use crate::bundle::steps::{outcomes, StepOutcome};
use crate::bundle::{BundleReport, VerifyError};
use crate::corpus::PacketDetail;
use crate::tui::state::app::App;
use crate::tui::views::text::{heading, json_line, reindent, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// Hash rows listed before the rest is summed up (every mismatch is listed regardless, up to
/// the same number again): a 100,000-event bundle must not become 100,000 drawn lines.
const MAX_HASH_ROWS: usize = 200;

/// The Bundle view of a bundle's own packet, drawn from the state (a `StatefulWidget` keeping its
/// scroll extent in the `ViewState`).
pub struct BundleView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for BundleView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let BundleView { app, detail, theme } = self;
        let mut lines = Vec::new();
        lines.push(heading("Bundle view", theme));
        let Some(report) = app.selected_bundle_report() else {
            lines.push(Line::from(Span::styled(
                "no verification report for this bundle",
                theme.bad(),
            )));
            return crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
        };
        lines.extend(verdict_lines(report, theme));
        // What the failed check compared, at once (it is repeated under the check below).
        if let Some(compared) = report.error().and_then(|error| error.compared.as_ref()) {
            lines.extend(expected_and_found(compared, "  ", theme));
        }
        // What verifying establishes is said under a verified verdict only.
        let shows = if report.is_valid() {
            crate::bundle::VERIFIED_SHOWS
        } else {
            crate::bundle::UNVERIFIED_SHOWS
        };
        lines.push(Line::from(Span::styled(shows, theme.secondary())));
        // With trusted keys: who said it, beside what was verified.
        if let Some(attestation) = app.detail_read().and_then(|read| read.attestation.as_ref()) {
            lines.push(Line::default());
            lines.extend(attestation_lines(attestation, theme));
        }
        lines.push(Line::default());
        lines.extend(check_lines(report, theme));
        lines.push(Line::default());
        lines.extend(lint_lines(report, theme));
        let inspection = app.detail_read().and_then(|read| read.bundle.as_ref());
        match inspection {
            Some(Ok(inspection)) => {
                lines.push(Line::default());
                lines.extend(comparison_lines(inspection, theme));
                lines.push(Line::default());
                lines.extend(run_root_lines(inspection, theme));
            }
            Some(Err(reason)) => lines.push(Line::from(Span::styled(
                format!("cannot open the bundle again: {}", safe(reason)),
                theme.bad(),
            ))),
            None => {}
        }
        lines.push(Line::default());
        lines.push(heading("manifest.json as stored", theme));
        if detail.bytes.is_empty() {
            lines.push(Line::from(Span::styled(
                "(no manifest could be read)",
                theme.secondary(),
            )));
        } else {
            let text = String::from_utf8_lossy(&detail.bytes);
            for line in reindent(&text).lines().take(2_000) {
                lines.push(json_line(line, theme));
            }
        }
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}

/// The attestation's state (`✓` verified, `✗` refused or not read, `·` otherwise) and what
/// it established or why it was refused, the lines already terminal-safe.
fn attestation_lines(
    attestation: &crate::tui::state::reads::AttestationShown,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let (mark, style) = match (attestation.refused, attestation.state) {
        (true, _) => ("✗", theme.bad()),
        (false, "attestation verified") => ("✓", theme.good()),
        (false, _) => ("·", theme.secondary()),
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("{mark} {}", attestation.state),
        style,
    ))];
    for line in &attestation.lines {
        lines.push(Line::from(Span::styled(
            format!("  {line}"),
            theme.secondary(),
        )));
    }
    lines
}

/// `✓ verified` with the run root, or `✗ UNVERIFIED` with the failed check.
pub fn verdict_lines(report: &BundleReport, theme: &Theme) -> Vec<Line<'static>> {
    match &report.verdict {
        Ok(facts) => vec![Line::from(vec![
            Span::styled("✓ verified", theme.good()),
            Span::styled(
                format!(
                    ": every check of upstream's verifier passes; {} event(s), run {}, run root {}",
                    facts.event_count,
                    safe(&facts.run_id),
                    safe(&facts.run_root)
                ),
                theme.text(),
            ),
        ])],
        Err(error) => vec![Line::from(Span::styled(
            format!(
                "✗ UNVERIFIED: fails upstream's check {}: {} {}: {}",
                error.step,
                error.class().as_str(),
                error.code.as_str(),
                safe(&error.message)
            ),
            theme.bad(),
        ))],
    }
}

fn check_lines(report: &BundleReport, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(
        "Checks (spec §9, in upstream's order; first failure wins)",
        theme,
    )];
    let error = report.error();
    for (step, outcome) in outcomes(report.verdict.as_ref().map(|_| ())) {
        let style = match outcome {
            StepOutcome::Pass => theme.good(),
            StepOutcome::Fail => theme.bad(),
            StepOutcome::NotReached => theme.secondary(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<12}", outcome.label()), style),
            Span::styled(format!("{:>2}  ", step.step), theme.secondary()),
            Span::styled(step.title, theme.text()),
        ]));
        if outcome == StepOutcome::Fail {
            if let Some(error) = error {
                lines.extend(compared_lines(error, theme));
            }
        }
    }
    lines
}

/// Upstream's A2A lint rules for a verified bundle; for a rejected one, that they were not
/// evaluated (upstream lints only a bundle that verifies).
fn lint_lines(report: &BundleReport, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(
        "Upstream's A2A lint rules (a rule passes when one event matches; warnings upstream)",
        theme,
    )];
    let Some(lint) = report.evaluated_lint() else {
        lines.push(Line::from(Span::styled(
            format!("  {}", crate::bundle::LINT_NOT_EVALUATED),
            theme.secondary(),
        )));
        return lines;
    };
    for outcome in lint {
        let (verdict, style) = if outcome.passes() {
            ("pass", theme.good())
        } else {
            ("finding", theme.warn())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<11} ", outcome.rule), theme.text()),
            Span::styled(format!("{verdict:<8}"), style),
            Span::styled(
                format!("{} matching event(s)", outcome.matched.len()),
                theme.secondary(),
            ),
        ]));
    }
    lines
}

fn compared_lines(error: &VerifyError, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "               {} ({}): {}",
            error.code.as_str(),
            error.class().as_str(),
            safe(&error.message)
        ),
        theme.bad(),
    ))];
    if let Some(compared) = &error.compared {
        lines.push(Line::from(Span::styled(
            format!("               {}", safe(&compared.what)),
            theme.text(),
        )));
        lines.extend(expected_and_found(compared, "                 ", theme));
    }
    lines
}

/// The two values a failed check compared, `indent` before each label.
fn expected_and_found(
    compared: &crate::bundle::Compared,
    indent: &str,
    theme: &Theme,
) -> [Line<'static>; 2] {
    [
        Line::from(vec![
            Span::styled(format!("{indent}expected "), theme.secondary()),
            Span::styled(safe(&compared.expected), theme.text()),
        ]),
        Line::from(vec![
            Span::styled(format!("{indent}found    "), theme.secondary()),
            Span::styled(safe(&compared.found), theme.bad()),
        ]),
    ]
}

fn comparison_lines(inspection: &Inspection, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(
        "The manifest's values against the member and its lines (steps 23-24)",
        theme,
    )];
    if inspection.comparisons.is_empty() {
        lines.push(Line::from(Span::styled(
            "  (no manifest or no events member: nothing to compare)",
            theme.secondary(),
        )));
    }
    for comparison in &inspection.comparisons {
        let (mark, style) = if comparison.agrees() {
            ("=", theme.good())
        } else {
            ("≠", theme.bad())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {mark} "), style),
            Span::styled(comparison.what, theme.text()),
        ]));
        lines.push(Line::from(vec![
            Span::styled("      manifest ", theme.secondary()),
            Span::styled(safe(&comparison.expected), theme.text()),
        ]));
        lines.push(Line::from(vec![
            Span::styled("      lines    ", theme.secondary()),
            Span::styled(safe(&comparison.found), style),
        ]));
    }
    lines
}

fn run_root_lines(inspection: &Inspection, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![
        heading(
            "Run root (spec §6): SHA-256 over each line's content hash + \"\\n\", in stored order",
            theme,
        ),
        Line::from(Span::styled(
            format!(
                "  {} line(s), {} with a content hash that differs from the stored one or is missing",
                inspection.hashes.len(),
                inspection.hash_mismatches
            ),
            if inspection.hash_mismatches == 0 {
                theme.secondary()
            } else {
                theme.bad()
            },
        )),
    ];
    let mut shown_mismatches = 0;
    let mut skipped = 0;
    for row in &inspection.hashes {
        let agrees = row.stored.is_some() && row.stored == row.recomputed;
        let show = row.position < MAX_HASH_ROWS || (!agrees && shown_mismatches < MAX_HASH_ROWS);
        if !show {
            skipped += 1;
            continue;
        }
        if !agrees {
            shown_mismatches += 1;
        }
        let text = |hash: &Option<String>| hash.as_deref().map_or("(none)".to_owned(), safe);
        if agrees {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:>7} = ", format!(":{}", row.position)),
                    theme.good(),
                ),
                Span::styled(text(&row.recomputed), theme.text()),
            ]));
        } else {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:>7} ≠ stored     ", format!(":{}", row.position)),
                    theme.bad(),
                ),
                Span::styled(text(&row.stored), theme.text()),
            ]));
            lines.push(Line::from(vec![
                Span::styled("            recomputed ", theme.bad()),
                Span::styled(text(&row.recomputed), theme.bad()),
            ]));
        }
    }
    if skipped > 0 {
        lines.push(Line::from(Span::styled(
            format!("  … {skipped} more line(s), all matching (`explain` lists every one)"),
            theme.secondary(),
        )));
    }
    let recomputed = inspection
        .run_root_recomputed
        .as_deref()
        .unwrap_or("(none)");
    let stored = inspection
        .run_root_stored
        .as_deref()
        .unwrap_or("(no manifest)");
    let style = if inspection.run_root_recomputed.as_deref() == Some(stored) {
        theme.good()
    } else {
        theme.bad()
    };
    lines.push(Line::from(vec![
        Span::styled("  recomputed run root  ", theme.secondary()),
        Span::styled(safe(recomputed), style),
    ]));
    lines.push(Line::from(vec![
        Span::styled("  manifest run_root    ", theme.secondary()),
        Span::styled(safe(stored), theme.text()),
    ]));
    lines
}

/// The red lines every per-packet screen of a bundle's packets starts with: it fails
/// verification; its attestation is refused by the trusted keys.
pub fn bundle_banners(
    loaded: &crate::tui::state::list_rows::LoadedBundle,
    on_event: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut banners: Vec<Line<'static>> = unverified_banner(&loaded.report, theme)
        .into_iter()
        .collect();
    if loaded.attestation_refused {
        // On an event the reason is a row away; on the bundle's own row it is in its view.
        let text = if on_event {
            "✗ ATTESTATION REFUSED (the bundle's row says why)"
        } else {
            "✗ ATTESTATION REFUSED (the check and why below)"
        };
        banners.push(Line::from(Span::styled(text, theme.bad())));
    }
    banners
}

/// The red line every per-packet screen of an unverified bundle's packets starts with.
pub fn unverified_banner(report: &BundleReport, theme: &Theme) -> Option<Line<'static>> {
    let error = report.error()?;
    Some(Line::from(Span::styled(
        format!(
            "✗ UNVERIFIED BUNDLE: check {} fails ({})",
            error.step,
            error.code.as_str()
        ),
        theme.bad(),
    )))
}

/// Digests tab, for a bundle's event: its content hash recomputed vs stored (spec §5).
pub fn content_hash_lines(detail: &PacketDetail, theme: &Theme) -> Vec<Line<'static>> {
    let facts = crate::bundle::verify::lenient_facts(&detail.bytes);
    let mut lines = vec![heading(
        "content hash (spec §5), recomputed vs stored",
        theme,
    )];
    let text = |hash: &Option<String>| hash.as_deref().map_or("(none)".to_owned(), safe);
    let agrees = facts.stored_hash.is_some() && facts.stored_hash == facts.computed_hash;
    let style = if agrees { theme.good() } else { theme.bad() };
    lines.push(Line::from(vec![
        Span::styled("  stored     ", theme.secondary()),
        Span::styled(text(&facts.stored_hash), theme.text()),
    ]));
    lines.push(Line::from(vec![
        Span::styled("  recomputed ", theme.secondary()),
        Span::styled(text(&facts.computed_hash), style),
    ]));
    lines.push(Line::from(Span::styled(
        if agrees {
            "  = matches the stored hash"
        } else {
            "  ≠ differs from the stored hash (upstream: IntegrityEventHash)"
        },
        style,
    )));
    lines.push(Line::default());
    lines
}
