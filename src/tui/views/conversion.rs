//! Conversion tab: the canonical event and payload, lossiness and notes; strict and lenient
//! side by side when the width allows, stacked otherwise.

use crate::a2a::Mode;
use crate::corpus::{NoTree, PacketDetail};
use crate::freeze::Explanation;
use crate::tui::state::app::App;
use crate::tui::views::text::{canonical_text_lines, heading, json_value_lines, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::cached;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// The Conversion tab, drawn from the state (a `StatefulWidget` keeping its lines and scroll extent
/// in the `ViewState`).
pub struct ConversionView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for ConversionView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let ConversionView { app, detail, theme } = self;
        if detail.explanations.is_empty() {
            // The whole object, pretty: built once, not on every frame.
            let lines = cached(state, format!("conversion object {}", app.color), || {
                let title = format!(
                    "Not the adapter's input ({}): nothing is converted.",
                    crate::corpus::PacketKind::RawA2a.name()
                );
                let mut lines = vec![heading(&title, theme)];
                lines.push(crate::tui::views::text::classified_as(detail, theme));
                match detail.tree() {
                    Ok(value) => {
                        lines.push(Line::default());
                        lines.extend(json_value_lines(&value, theme));
                    }
                    Err(NoTree::OverCap(reason)) => {
                        lines.push(Line::default());
                        lines.push(Line::styled(
                            format!("Not shown: {reason}."),
                            theme.secondary(),
                        ));
                    }
                    Err(NoTree::NotJson) => {}
                }
                lines
            });
            lines.draw(app, &mut state.scroll_max, buf, area);
            return;
        }
        let strict = detail.explanation(Mode::Strict);
        let lenient = detail.explanation(Mode::Lenient);
        let differ = match (strict, lenient) {
            (Some(strict), Some(lenient)) => !same_outcome(strict, lenient),
            _ => false,
        };
        // Side by side when both modes converted the packet and each column gets 40 columns.
        if strict.is_some() && lenient.is_some() && area.width >= 80 {
            let [left, right] =
                Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(area);
            for (explanation, column) in [(strict, left), (lenient, right)] {
                if let Some(explanation) = explanation {
                    let key = format!("conversion column {} {}", explanation.mode(), app.color);
                    cached(state, key, || mode_lines(explanation, theme)).draw(
                        app,
                        &mut state.scroll_max,
                        buf,
                        column,
                    );
                }
            }
            return;
        }
        let key = format!("conversion stacked {} {}", app.mode, app.color);
        let lines = cached(state, key, || {
            stacked_lines(app.mode, strict, lenient, differ, theme)
        });
        lines.draw(app, &mut state.scroll_max, buf, area);
    }
}

/// Both modes' outcomes one above the other (a narrow pane), `mode`'s first.
fn stacked_lines(
    mode: Mode,
    strict: Option<&Explanation>,
    lenient: Option<&Explanation>,
    differ: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if !differ && strict.is_some() && lenient.is_some() {
        lines.push(Line::from(Span::styled(
            "strict and lenient emit the same event",
            theme.secondary(),
        )));
    }
    let shown = match mode {
        Mode::Strict => strict,
        Mode::Lenient => lenient,
    }
    .or(strict)
    .or(lenient);
    if let Some(explanation) = shown {
        lines.extend(mode_lines(explanation, theme));
    }
    if differ {
        let other = if mode == Mode::Strict {
            lenient
        } else {
            strict
        };
        if let Some(other) = other {
            lines.push(Line::default());
            lines.extend(mode_lines(other, theme));
        }
    }
    lines
}

/// Whether two modes' outcomes show the same: both rejected, or both converted from the same
/// facts (the batch is written from them; comparing them builds no bytes of it).
fn same_outcome(a: &Explanation, b: &Explanation) -> bool {
    a.conversion.converted() == b.conversion.converted()
}

fn mode_lines(explanation: &Explanation, theme: &Theme) -> Vec<Line<'static>> {
    let mode = explanation.mode();
    let mut lines = vec![heading(&format!("{mode} mode"), theme)];
    match &explanation.conversion.result {
        Err(error) => {
            lines.push(Line::from(vec![
                Span::styled("rejected ", theme.bad()),
                Span::raw(format!(
                    "[{}] {}: {}",
                    error.rule,
                    error.kind.name(),
                    safe(&error.message)
                )),
            ]));
            lines.push(Line::from(Span::styled(
                "no event emitted",
                theme.secondary(),
            )));
        }
        Ok(converted) => {
            let lossiness = &converted.lossiness;
            lines.push(Line::from(vec![
                Span::styled("event ", theme.secondary()),
                Span::styled(converted.canonical_type.name(), theme.accent()),
            ]));
            lines.push(Line::from(vec![
                Span::styled("lossiness ", theme.secondary()),
                Span::raw(format!(
                    "{} ({} unmapped)",
                    lossiness.level(),
                    lossiness.unmapped_fields_count
                )),
            ]));
            for substitution in &lossiness.substitutions {
                lines.push(Line::from(vec![
                    Span::styled(format!("  note [{}] ", substitution.rule()), theme.warn()),
                    Span::raw(substitution.note()),
                ]));
            }
            lines.push(Line::default());
            lines.push(heading("envelope", theme));
            lines.extend(json_value_lines(&converted.envelope(), theme));
            lines.push(heading("payload (data)", theme));
            lines.extend(canonical_text_lines(&converted.payload_bytes(), theme));
        }
    }
    lines
}
