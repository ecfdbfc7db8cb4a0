//! `check --format junit`: one testcase per packet and mode (one per canonical or unchecked
//! packet, one per load error). The counts go in the opening tag, before the testcases, so the
//! testcases are spooled to an anonymous temporary file and copied after it: memory stays
//! bounded for a million packets.

use super::text::diff_lines;
use crate::a2a::Mode;
use crate::corpus::{CheckFinding, CheckItem, PacketCheck, Source, Status};
use crate::json::safe_text;
use std::io::{self, BufWriter, Read, Seek, Write};

pub struct JunitWriter {
    spool: BufWriter<std::fs::File>,
    require_golden: bool,
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
}

/// Escapes text for XML attributes and content; the text is already terminal-safe, so no
/// control character (which XML 1.0 cannot carry at all) is left.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in safe_text(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

fn class_and_name(source: &Source) -> (String, String) {
    let class = source
        .path
        .parent()
        .map(|parent| parent.to_string_lossy().into_owned())
        .filter(|parent| !parent.is_empty())
        .unwrap_or_else(|| ".".to_owned());
    let mut name = source
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(line) = source.line {
        name.push_str(&format!(":{line}"));
    }
    (class, name)
}

impl JunitWriter {
    pub fn new(require_golden: bool) -> io::Result<JunitWriter> {
        Ok(JunitWriter {
            spool: BufWriter::new(tempfile::tempfile()?),
            require_golden,
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        })
    }

    pub fn add(&mut self, item: &CheckItem) -> io::Result<()> {
        match item {
            CheckItem::LoadError(error) => {
                let finding = CheckFinding::new(
                    crate::corpus::FindingKind::LoadError,
                    None,
                    error.reason.clone(),
                );
                self.testcase(&error.source, "load", Status::Error, &[&finding])
            }
            CheckItem::Packet(check) => self.packet(check),
        }
    }

    fn packet(&mut self, check: &PacketCheck) -> io::Result<()> {
        let source = &check.summary.source;
        let modes: Vec<Mode> = check.modes.iter().flatten().map(|mode| mode.mode).collect();
        if modes.is_empty() {
            let kind = check.summary.kind;
            let label = if kind == crate::corpus::PacketKind::Bundle {
                "bundle"
            } else if check.status == Status::NotChecked {
                "not checked"
            } else if kind.canonical_shape().is_some() {
                "audit"
            } else if kind.is_profile() {
                "profile"
            } else if kind.is_a2a_object() {
                "migrate"
            } else {
                "not checked"
            };
            let findings: Vec<&CheckFinding> = check.findings.iter().collect();
            return self.testcase(source, label, check.status, &findings);
        }
        for mode in modes {
            let status = check.mode(mode).map_or(check.status, |mode| mode.status);
            let findings: Vec<&CheckFinding> = check
                .findings
                .iter()
                .filter(|finding| finding.mode.is_none() || finding.mode == Some(mode))
                .collect();
            self.testcase(source, mode.name(), status, &findings)?;
        }
        Ok(())
    }

    fn testcase(
        &mut self,
        source: &Source,
        label: &str,
        status: Status,
        findings: &[&CheckFinding],
    ) -> io::Result<()> {
        self.tests += 1;
        let (class, name) = class_and_name(source);
        write!(
            self.spool,
            "    <testcase classname=\"{}\" name=\"{} [{label}]\"",
            xml_escape(&class),
            xml_escape(&name)
        )?;
        let message = findings
            .first()
            .map(|finding| finding.message.clone())
            .unwrap_or_else(|| status.label().to_owned());
        let body = || {
            let mut lines = Vec::new();
            for finding in findings {
                lines.push(format!("{}: {}", finding.kind.key(), finding.message));
                if let Some(diff) = &finding.diff {
                    lines.extend(diff_lines(diff, "  "));
                }
            }
            // Each line escaped on its own: the escape would also turn newlines into text.
            lines
                .iter()
                .map(|line| xml_escape(line))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let element = match status {
            // An intentional negative that fails exactly as recorded passes its test case.
            Status::Conforms | Status::FailsAsRecorded => None,
            Status::NotChecked => Some("skipped"),
            Status::NoGolden if !self.require_golden => Some("skipped"),
            Status::NoGolden | Status::Finding | Status::Mismatch => Some("failure"),
            Status::Error => Some("error"),
        };
        match element {
            None => writeln!(self.spool, "/>")?,
            Some("skipped") => {
                self.skipped += 1;
                writeln!(
                    self.spool,
                    ">\n      <skipped message=\"{}: {}\"/>\n    </testcase>",
                    status.label(),
                    xml_escape(&message)
                )?;
            }
            Some(element) => {
                if element == "error" {
                    self.errors += 1;
                } else {
                    self.failures += 1;
                }
                writeln!(
                    self.spool,
                    ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
                    status.key(),
                    xml_escape(&message),
                    body()
                )?;
            }
        }
        Ok(())
    }

    /// Writes the whole document: header with the counts, then the spooled testcases.
    pub fn finish(self, out: &mut dyn Write) -> io::Result<()> {
        let mut spool = self
            .spool
            .into_inner()
            .map_err(|error| error.into_error())?;
        spool.rewind()?;
        let counts = format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
            self.tests, self.failures, self.errors, self.skipped
        );
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            out,
            "<testsuites name=\"handoff-inspector check\" {counts}>"
        )?;
        writeln!(
            out,
            "  <testsuite name=\"handoff-inspector check\" {counts}>"
        )?;
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            let read = spool.read(&mut buffer)?;
            if read == 0 {
                break;
            }
            out.write_all(&buffer[..read])?;
        }
        writeln!(out, "  </testsuite>")?;
        writeln!(out, "</testsuites>")?;
        Ok(())
    }
}

impl super::writer::CheckWriter for JunitWriter {
    fn item(
        &mut self,
        item: &CheckItem,
        _line: Option<Result<Vec<u8>, String>>,
        _out: &mut dyn Write,
    ) -> Result<(), super::writer::OutputError> {
        self.add(item).map_err(super::writer::OutputError::Spool)
    }

    fn finish(
        self: Box<Self>,
        _tally: &crate::report::tally::CheckTally,
        out: &mut dyn crate::report::styled::StyledWrite,
    ) -> io::Result<()> {
        JunitWriter::finish(*self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_controls() {
        assert_eq!(
            xml_escape("a<b>&\"'\u{1b}"),
            "a&lt;b&gt;&amp;&quot;&apos;\\u{1b}"
        );
    }
}
