//! The two date-time readers ContextCore's code hands its timestamps to, as they decide:
//! Python 3.11's `datetime.fromisoformat` (`HandoffData.from_dict` on a storage record's
//! `createdAt`) and Pydantic 2's lax `datetime` parsing (the `HandoffContract` model's
//! `created_at` / `deadline`). Each says why it refuses, in the reader's own words where
//! they are short.

use super::py::repr_str;

/// What `datetime.fromisoformat(text)` raises, or `Ok` when it reads the text.
pub(crate) fn fromisoformat(text: &str) -> Result<(), String> {
    let invalid = || format!("Invalid isoformat string: {}", repr_str(text));
    let b = text.as_bytes();
    let (date, rest) = if b.len() >= 10 && b.get(4) == Some(&b'-') && b.get(7) == Some(&b'-') {
        (&text[..10], &text[10..])
    } else if b.len() >= 8 && b[..8].iter().all(u8::is_ascii_digit) {
        (&text[..8], &text[8..])
    } else {
        return Err(invalid());
    };
    let digits: String = date.chars().filter(|c| *c != '-').collect();
    if digits.len() != 8 || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(invalid());
    }
    let number = |range: std::ops::Range<usize>| digits[range].parse::<u32>().unwrap_or(0);
    calendar_date(number(0..4), number(4..6), number(6..8))?;
    let Some(time) = rest.get(1..).filter(|_| !rest.is_empty()) else {
        return if rest.is_empty() {
            Ok(())
        } else {
            Err(invalid())
        };
    };
    // The separator is any one character; the time ends where its zone begins.
    let (clock, zone) = match time.find(['Z', '+', '-']) {
        Some(at) => (&time[..at], &time[at..]),
        None => (time, ""),
    };
    let (hour, minute, second) = clock_fields(clock, true).ok_or_else(invalid)?;
    time_ranges(hour, minute, second)?;
    if zone.is_empty() || zone == "Z" {
        return Ok(());
    }
    let (zone_hour, zone_minute, _) = clock_fields(&zone[1..], true).ok_or_else(invalid)?;
    if zone_hour > 23 || zone_minute > 59 {
        return Err(invalid());
    }
    Ok(())
}

/// Why Pydantic 2 (lax mode) refuses `text` as a `datetime`, or `Ok` when it reads it: an
/// RFC 3339-like date-time (separator `T`, `t`, `_` or a space; seconds, fraction and zone
/// optional; zone `Z`, `±HH:MM` or `±HHMM`), a date alone, or Unix time in digits.
pub(crate) fn pydantic_datetime(text: &str) -> Result<(), &'static str> {
    let unix = text.strip_prefix('-').unwrap_or(text);
    if !unix.is_empty()
        && unix.bytes().all(|c| c.is_ascii_digit() || c == b'.')
        && unix.bytes().filter(|c| *c == b'.').count() <= 1
        && unix.as_bytes()[0].is_ascii_digit()
    {
        return Ok(());
    }
    let b = text.as_bytes();
    if b.len() < 10 || !b[..4].iter().all(u8::is_ascii_digit) {
        return Err("invalid character in year");
    }
    if b[4] != b'-' || b[7] != b'-' {
        return Err("invalid date separator, expected `-`");
    }
    let field = |range: std::ops::Range<usize>| {
        text.get(range)
            .filter(|part| part.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|part| part.parse::<u32>().ok())
    };
    let (Some(year), Some(month), Some(day)) = (field(0..4), field(5..7), field(8..10)) else {
        return Err("invalid character in date");
    };
    if !(1..=12).contains(&month) {
        return Err("month value is outside expected range of 1-12");
    }
    if calendar_date(year, month, day).is_err() {
        return Err("day value is outside expected range");
    }
    if b.len() == 10 {
        return Ok(());
    }
    if !matches!(b[10], b'T' | b't' | b'_' | b' ') {
        return Err("invalid datetime separator, expected `T`, `t`, `_` or space");
    }
    let time = &text[11..];
    let (clock, zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => (&time[..at], &time[at..]),
        None => (time, ""),
    };
    // Pydantic needs at least `HH:MM`, with colons.
    if clock.len() < 5 || clock.as_bytes()[2] != b':' {
        return Err("unexpected extra characters at the end of the input");
    }
    let (hour, minute, second) =
        clock_fields(clock, false).ok_or("unexpected extra characters at the end of the input")?;
    if hour > 23 || minute > 59 || second > 59 {
        return Err("unexpected extra characters at the end of the input");
    }
    match zone {
        "" | "Z" | "z" => Ok(()),
        _ => {
            let offset = &zone[1..];
            let ok = match offset.len() {
                5 => offset.as_bytes()[2] == b':' && clock_fields(offset, false).is_some(),
                4 => offset.bytes().all(|c| c.is_ascii_digit()),
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                Err("invalid timezone sign")
            }
        }
    }
}

/// `HH`, `HH:MM`, `HH:MM:SS[.f]` (and, when `basic`, `HHMM`, `HHMMSS[.f]`): hour, minute,
/// second. A fraction (`.` or `,` then digits) may follow the seconds.
fn clock_fields(clock: &str, basic: bool) -> Option<(u32, u32, u32)> {
    let (whole, fraction) = match clock.find(['.', ',']) {
        Some(at) => (&clock[..at], Some(&clock[at + 1..])),
        None => (clock, None),
    };
    if fraction
        .is_some_and(|digits| digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let digits: String = if whole.contains(':') {
        let parts: Vec<&str> = whole.split(':').collect();
        if parts.iter().any(|part| part.len() != 2) || parts.len() > 3 {
            return None;
        }
        parts.concat()
    } else if basic {
        whole.to_owned()
    } else {
        return None;
    };
    if !matches!(digits.len(), 2 | 4 | 6) || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if fraction.is_some() && digits.len() != 6 {
        return None;
    }
    let number = |at: usize| {
        digits
            .get(at..at + 2)
            .and_then(|part| part.parse().ok())
            .unwrap_or(0)
    };
    Some((number(0), number(2), number(4)))
}

fn calendar_date(year: u32, month: u32, day: u32) -> Result<(), String> {
    if year == 0 {
        return Err(format!("year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Err("month must be in 1..12".into());
    }
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days).contains(&day) {
        return Err("day is out of range for month".into());
    }
    Ok(())
}

fn time_ranges(hour: u32, minute: u32, second: u32) -> Result<(), String> {
    if hour > 23 {
        return Err("hour must be in 0..23".into());
    }
    if minute > 59 {
        return Err("minute must be in 0..59".into());
    }
    if second > 59 {
        return Err("second must be in 0..59".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value with what Python 3.11's fromisoformat and Pydantic 2.14 said of it (run
    /// beside this table: True = accepted).
    const READ: &[(&str, bool, bool)] = &[
        ("2026-02-14", true, true),
        ("2026-02-14 12:00:00", true, true),
        ("2026-02-14T12:00:00", true, true),
        ("2026-02-14T12:00:00+0530", true, true),
        ("1700000000", false, true),
        ("1700000000.5", false, true),
        ("2026-02-14T12:00:60Z", false, false),
        ("2026-13-01T00:00:00Z", false, false),
        ("not-a-date", false, false),
        ("2026-02-14T12:00Z", true, true),
        ("2026-02-14T12Z", true, false),
        ("2026-02-14t12:00:00z", false, true),
        ("20260214T120000Z", true, false),
        ("2026-02-14T12:00:00.123456789Z", true, true),
        ("2026-02-14T24:00:00Z", false, false),
        ("2026-02-30T00:00:00Z", false, false),
        ("2026-02-14x12:00", true, false),
        ("2026-02-14T12:00:00,5", true, true),
        ("2026-02-14T12:00:00-0530", true, true),
    ];

    #[test]
    fn both_readers_decide_as_python_and_pydantic_did() {
        for (text, iso, pydantic) in READ {
            assert_eq!(fromisoformat(text).is_ok(), *iso, "fromisoformat {text}");
            assert_eq!(
                pydantic_datetime(text).is_ok(),
                *pydantic,
                "pydantic {text}"
            );
        }
        assert_eq!(
            fromisoformat("not-a-date").unwrap_err(),
            "Invalid isoformat string: 'not-a-date'"
        );
        assert_eq!(
            fromisoformat("2026-13-01").unwrap_err(),
            "month must be in 1..12"
        );
        assert_eq!(
            fromisoformat("2026-02-14T12:00:60").unwrap_err(),
            "second must be in 0..59"
        );
    }
}
