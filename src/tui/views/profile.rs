//! Master/sub, ContextCore and UAIX packets: the profile report (the same text `explain`
//! prints, so both faces say the same thing), with verdicts coloured.

use crate::profiles::ProfileReport;
use crate::report::profile_text;
use crate::tui::views::text::heading;
use crate::tui::views::theme::Theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

pub fn report_lines(report: &ProfileReport, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading("profile report", theme)];
    for text in profile_text::render(report).lines() {
        lines.push(Line::from(Span::styled(
            text.to_owned(),
            style_for(text, theme),
        )));
    }
    lines
}

/// Colour by what a line says: the verdict column of a row, evidence, must-not-imply.
fn style_for(line: &str, theme: &Theme) -> Style {
    let trimmed = line.trim_start();
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let verdict = words.get(1).copied().unwrap_or("");
    let is_row = words
        .first()
        .is_some_and(|id| id.contains('-') && id.chars().any(|c| c.is_ascii_digit()))
        || words
            .first()
            .is_some_and(|id| id.len() == 2 && id.starts_with('V'));
    if is_row {
        return match verdict {
            "FAIL" => theme.bad(),
            "pass" => theme.good(),
            "warn" | "unverifiable" => theme.warn(),
            _ => theme.secondary(),
        };
    }
    if trimmed.starts_with("evidence:") {
        theme.secondary()
    } else if trimmed.starts_with("must not imply") {
        theme.warn()
    } else {
        theme.text()
    }
}
