//! Text with what each part of it is, for a reader scanning it: a failure, a conforming
//! count, a warning, a rule id, a path. The report says *what* a span is; a face decides how
//! it looks (`cli::Output` draws ANSI colours on a terminal and nothing elsewhere). No
//! terminal code here: with the styles dropped, the text is exactly the plain report.

use std::fmt;
use std::io;
use std::ops::Range;

enum_with_all! {
    /// What a span of a report is. A face maps each to its look; a face without colour ignores
    /// them all and loses nothing, since the words already say it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Style {
        /// What fails: a failing count, a failed check, the failing verdict.
        Fail,
        /// What conforms or passed.
        Pass,
        /// A warning, or what is reported without failing (no golden).
        Warn,
        /// An intentional negative that fails exactly as recorded.
        Recorded,
        /// A rule row or error code id (`C6`, `N1`, `E_CONTENT_HASH`).
        Rule,
        /// A file, NDJSON line or bundle event.
        Path,
        /// A heading over a group.
        Heading,
        /// A line-diff line added.
        Added,
        /// A line-diff line removed.
        Removed,
    }
}

impl Style {
    /// The style of a packet status, as the inspector's list colours it; `None` for the
    /// statuses shown plainly (not checked, and no golden where it does not fail).
    pub(crate) fn of_status(status: crate::corpus::Status, require_golden: bool) -> Option<Style> {
        use crate::corpus::Status;
        match status {
            Status::Conforms => Some(Style::Pass),
            Status::FailsAsRecorded => Some(Style::Recorded),
            Status::NoGolden if require_golden => Some(Style::Fail),
            Status::NotChecked | Status::NoGolden => None,
            Status::Finding | Status::Mismatch | Status::Error => Some(Style::Fail),
        }
    }

    /// A unified line-diff line's style by its first character (`-`, `+`; the `---` and `+++`
    /// headers are headings).
    pub(crate) fn of_diff_line(line: &str) -> Option<Style> {
        if line.starts_with("---") || line.starts_with("+++") || line.starts_with("@@") {
            Some(Style::Heading)
        } else if line.starts_with('-') {
            Some(Style::Removed)
        } else if line.starts_with('+') {
            Some(Style::Added)
        } else {
            None
        }
    }
}

/// Text and the styled spans in it (in order, not overlapping). `fmt::Write` appends plain
/// text, so `write!` works as on a `String`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StyledText {
    text: String,
    spans: Vec<(Range<usize>, Style)>,
}

impl StyledText {
    pub fn new() -> StyledText {
        StyledText::default()
    }

    /// Appends plain text.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Appends `text` in `style`.
    pub fn push_styled(&mut self, style: Style, text: &str) {
        let start = self.text.len();
        self.text.push_str(text);
        if !text.is_empty() {
            self.spans.push((start..self.text.len(), style));
        }
    }

    /// Appends `text` in `style` when there is one, plainly otherwise.
    pub fn push_maybe(&mut self, style: Option<Style>, text: &str) {
        match style {
            Some(style) => self.push_styled(style, text),
            None => self.push(text),
        }
    }

    /// Appends another styled text, its spans kept.
    pub fn append(&mut self, other: &StyledText) {
        let offset = self.text.len();
        self.text.push_str(&other.text);
        self.spans.extend(
            other
                .spans
                .iter()
                .map(|(range, style)| (range.start + offset..range.end + offset, *style)),
        );
    }

    /// Appends `text` plainly, then styles each occurrence of `word` in it that stands as a
    /// word of its own (a rule id inside a message: `C6` in `... (C6)`, not in `C60`).
    pub(crate) fn push_marking(&mut self, text: &str, word: &str, style: Style) {
        let start = self.text.len();
        self.text.push_str(text);
        if word.is_empty() {
            return;
        }
        let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        for (at, _) in text.match_indices(word) {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            if before.is_none_or(|c| !is_word(c)) && after.is_none_or(|c| !is_word(c)) {
                self.spans
                    .push((start + at..start + at + word.len(), style));
            }
        }
    }

    /// The text without its styles.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn into_string(self) -> String {
        self.text
    }

    /// The part of the text in `range` (byte offsets on character boundaries), with the
    /// parts of the spans inside it.
    pub fn slice(&self, range: Range<usize>) -> StyledText {
        let text = self.text.get(range.clone()).unwrap_or_default().to_owned();
        let spans = self
            .spans
            .iter()
            .filter_map(|(span, style)| {
                let start = span.start.max(range.start);
                let end = span.end.min(range.end);
                (start < end).then(|| (start - range.start..end - range.start, *style))
            })
            .collect();
        StyledText { text, spans }
    }

    /// Without trailing whitespace.
    pub fn trim_end(&self) -> StyledText {
        self.slice(0..self.text.trim_end().len())
    }

    /// The first line and the rest (after its newline), as `str::split_once('\n')`; the whole
    /// text and nothing when it has one line. The tests' oracle for `take_first_line`.
    #[cfg(test)]
    fn split_first_line(&self) -> (StyledText, StyledText) {
        match self.text.find('\n') {
            Some(at) => (self.slice(0..at), self.slice(at + 1..self.text.len())),
            None => (self.clone(), StyledText::new()),
        }
    }

    /// The first line (as `str::split_once('\n')` splits it) taken off in place and returned,
    /// the rest stays, with no copy of it (an explanation of a raw packet of 400k keys is an
    /// 18 MB text, and its copies were most of `explain`'s memory).
    pub fn take_first_line(&mut self) -> StyledText {
        let Some(at) = self.text.find('\n') else {
            return std::mem::take(self);
        };
        let first = self.slice(0..at);
        let cut = at + 1;
        self.text.drain(..cut);
        self.spans.retain_mut(|(range, _)| {
            *range = range.start.max(cut) - cut..range.end.saturating_sub(cut);
            range.start < range.end
        });
        first
    }

    /// [`StyledText::trim_end`] in place.
    pub fn trim_end_in_place(&mut self) {
        let end = self.text.trim_end().len();
        self.text.truncate(end);
        self.spans.retain_mut(|(range, _)| {
            range.end = range.end.min(end);
            range.start < range.end
        });
    }

    /// The text in order, each piece with its style (`None`: plain).
    pub fn pieces(&self) -> impl Iterator<Item = (Option<Style>, &str)> + '_ {
        let mut pieces = Vec::with_capacity(self.spans.len() * 2 + 1);
        let mut at = 0;
        for (range, style) in &self.spans {
            if range.start > at {
                pieces.push((None, &self.text[at..range.start]));
            }
            pieces.push((Some(*style), &self.text[range.clone()]));
            at = range.end;
        }
        if at < self.text.len() {
            pieces.push((None, &self.text[at..]));
        }
        pieces.into_iter()
    }
}

impl fmt::Write for StyledText {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push(text);
        Ok(())
    }
}

impl From<String> for StyledText {
    fn from(text: String) -> StyledText {
        StyledText {
            text,
            spans: Vec::new(),
        }
    }
}

impl From<&str> for StyledText {
    fn from(text: &str) -> StyledText {
        StyledText::from(text.to_owned())
    }
}

/// A writer that can also take styled text: a face that draws styles overrides
/// [`StyledWrite::write_styled`]; any other writer gets the plain text, byte for byte.
pub trait StyledWrite: io::Write {
    fn write_styled(&mut self, text: &StyledText) -> io::Result<()> {
        self.write_all(text.as_str().as_bytes())
    }
}

impl StyledWrite for Vec<u8> {}

impl StyledWrite for io::Sink {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_taken_in_place_is_the_first_line_split_off() {
        let mut text = StyledText::new();
        text.push_styled(Style::Path, "p.json");
        text.push("  (raw)\n");
        text.push_styled(Style::Rule, "C6");
        text.push(" x ");
        text.push_styled(Style::Fail, "fails\nacross");
        text.push(" end  \n\n");
        let (first, rest) = text.split_first_line();
        let mut in_place = text.clone();
        assert_eq!(in_place.take_first_line(), first);
        assert_eq!(in_place, rest);
        in_place.trim_end_in_place();
        assert_eq!(in_place, rest.trim_end());
        let mut one = StyledText::new();
        one.push_styled(Style::Heading, "one line ");
        let (first, rest) = one.split_first_line();
        let mut trimmed = one.clone();
        assert_eq!((trimmed.take_first_line(), trimmed), (first, rest));
        one.trim_end_in_place();
        assert_eq!(one.as_str(), "one line");
    }
    use std::fmt::Write as _;

    fn shown(text: &StyledText) -> String {
        text.pieces()
            .map(|(style, piece)| match style {
                Some(style) => format!("<{style:?}>{piece}</>"),
                None => piece.to_owned(),
            })
            .collect()
    }

    #[test]
    fn pieces_cover_the_text_in_order() {
        let mut text = StyledText::new();
        let _ = write!(text, "{} packets: ", 3);
        text.push_styled(Style::Pass, "2 conforms");
        text.push(", ");
        text.push_styled(Style::Fail, "1 mismatch");
        assert_eq!(text.as_str(), "3 packets: 2 conforms, 1 mismatch");
        assert_eq!(
            shown(&text),
            "3 packets: <Pass>2 conforms</>, <Fail>1 mismatch</>"
        );
    }

    #[test]
    fn a_word_is_marked_only_where_it_stands_alone() {
        let mut text = StyledText::new();
        text.push_marking("C6 x C60 (C6) aC6", "C6", Style::Rule);
        assert_eq!(shown(&text), "<Rule>C6</> x C60 (<Rule>C6</>) aC6");
    }

    #[test]
    fn slices_and_splits_keep_their_spans() {
        let mut text = StyledText::new();
        text.push_styled(Style::Path, "a.json");
        text.push("  (raw)\n");
        text.push_styled(Style::Fail, "rejected");
        text.push("\n\n");
        let (first, rest) = text.split_first_line();
        assert_eq!(shown(&first), "<Path>a.json</>  (raw)");
        assert_eq!(shown(&rest.trim_end()), "<Fail>rejected</>");
        let mut joined = first.clone();
        joined.push("\n");
        joined.append(&rest);
        assert_eq!(joined, text);
    }
}
