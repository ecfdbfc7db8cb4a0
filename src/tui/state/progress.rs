//! The progress lines the status bar shows while a job runs (a search, a list build, a
//! reload), from the state alone: the views draw them, `update` words its messages with
//! the same numbers.

use crate::tui::state::app::{App, ListWhy};

/// What the status bar shows while a scan runs.
pub fn search_line(app: &App) -> Option<String> {
    let run = app.search.running.as_ref()?;
    let query = app.search.query.as_deref().unwrap_or_default();
    Some(format!(
        "searching /{}: {} of {} packets, {} match(es) so far  Esc cancels",
        crate::json::safe_text(query),
        thousands(run.scanned),
        thousands(run.total),
        run.matches
    ))
}

/// What the status bar shows while a filter's list is built, a reload runs, or files changed
/// on disk are spliced in.
pub fn list_line(app: &App) -> Option<String> {
    let reloading = || {
        (app.progress.reloading && !app.progress.done).then(|| {
            format!(
                "reloading: {} packets checked so far",
                thousands(app.progress.packets)
            )
        })
    };
    let Some(build) = &app.list.building else {
        return reloading();
    };
    let what = match build.why {
        ListWhy::Load => return reloading(),
        ListWhy::Filter if build.filter.is_active() => {
            format!(
                "filtering {}",
                crate::json::safe_text(&build.filter.describe())
            )
        }
        ListWhy::Filter => "clearing the filter".to_owned(),
        ListWhy::Replace => {
            let names: Vec<String> = app
                .list
                .replacing
                .iter()
                .map(|replacement| {
                    crate::json::safe_text(&replacement.path.display().to_string()).into_owned()
                })
                .collect();
            format!(
                "updating the list for {} (changed on disk)",
                names.join(", ")
            )
        }
        ListWhy::Mode => format!(
            "listing {} in {} mode",
            crate::json::safe_text(&build.filter.describe()),
            app.mode
        ),
    };
    let cancel = if build.why == ListWhy::Filter {
        "  Esc cancels"
    } else {
        ""
    };
    Some(format!(
        "{what}: {} of {} packets{cancel}",
        thousands(build.scanned),
        thousands(build.total)
    ))
}

/// 1234567 -> "1,234,567".
pub fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
