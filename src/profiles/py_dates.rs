//! The two date-time readers ContextCore's code hands its timestamps to, as they decide and
//! word it: Python 3.11's `datetime.fromisoformat` (`HandoffData.from_dict` on a storage
//! record's `createdAt`; a port of CPython's `_datetimemodule.c`, byte by byte, quirks
//! included) and Pydantic 2's lax `datetime` (the `HandoffContract` model's `created_at` /
//! `deadline`; speedate's parser in pydantic-core, whose refusal Pydantic words with the
//! *date* parser's reason after its datetime parse fails). Checked against both by
//! `scripts/contextcore_differential.py`.

use super::py::repr_str;

/// The byte at `at`, or 0 past the end: CPython reads the NUL-terminated UTF-8 buffer, so
/// where it reads one byte too far it sees 0.
fn byte(bytes: &[u8], at: usize) -> u8 {
    bytes.get(at).copied().unwrap_or(0)
}

/// CPython's `parse_digits`: `count` ASCII digits at `at`.
fn digits(bytes: &[u8], at: usize, count: usize) -> Option<u32> {
    (at..at + count).try_fold(0u32, |value, index| {
        let digit = byte(bytes, index);
        digit
            .is_ascii_digit()
            .then(|| value * 10 + u32::from(digit - b'0'))
    })
}

/// What `datetime.fromisoformat(text)` raises, or `Ok` when it reads the text.
pub(crate) fn fromisoformat(text: &str) -> Result<(), String> {
    let invalid = || format!("Invalid isoformat string: {}", repr_str(text));
    let bytes = text.as_bytes();
    let separator = separator_location(bytes).ok_or_else(invalid)?;
    let (year, month, day) = iso_date(bytes, separator).ok_or_else(invalid)?;
    let mut clock = Clock::default();
    let mut offset = None;
    if bytes.len() > separator {
        let (time, zone) = iso_time(bytes, separator + 1).ok_or_else(invalid)?;
        clock = time;
        offset = zone;
    }
    if let Some((seconds, microseconds)) = offset {
        timezone(seconds, microseconds)?;
    }
    date_ranges(year, month, day)?;
    time_ranges(clock.hour, clock.minute, clock.second)
}

/// `_find_isoformat_datetime_separator`: where the date ends (any one character follows it),
/// told from characters 4 and 5 (`YYYY-MM-DD`, `YYYYMMDD`, the ISO week forms).
fn separator_location(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    if len == 7 {
        return Some(7);
    }
    if byte(bytes, 4) == b'-' {
        if byte(bytes, 5) != b'W' {
            return Some(10);
        }
        if len < 8 {
            return None;
        }
        if len > 8 && byte(bytes, 8) == b'-' {
            if len == 9 {
                return None;
            }
            if len > 10 && byte(bytes, 10).is_ascii_digit() {
                return Some(8);
            }
            return Some(10);
        }
        return Some(8);
    }
    if byte(bytes, 4) == b'W' {
        let mut index = 7;
        while index < len && bytes[index].is_ascii_digit() {
            index += 1;
        }
        if index < 9 {
            return Some(index);
        }
        return Some(if index % 2 == 0 { 7 } else { 8 });
    }
    Some(8)
}

/// `parse_isoformat_date`: year, month, day (an ISO week date turned into its calendar day).
fn iso_date(bytes: &[u8], len: usize) -> Option<(i32, u32, u32)> {
    let year = digits(bytes, 0, 4)?;
    let mut at = 4;
    let separated = byte(bytes, at) == b'-';
    if separated {
        at += 1;
    }
    if byte(bytes, at) == b'W' {
        at += 1;
        let week = digits(bytes, at, 2)?;
        at += 2;
        let weekday = if at < len {
            if separated {
                if byte(bytes, at) != b'-' {
                    return None;
                }
                at += 1;
            }
            digits(bytes, at, 1)?
        } else {
            1
        };
        let weekday = match weekday {
            1 => chrono::Weekday::Mon,
            2 => chrono::Weekday::Tue,
            3 => chrono::Weekday::Wed,
            4 => chrono::Weekday::Thu,
            5 => chrono::Weekday::Fri,
            6 => chrono::Weekday::Sat,
            7 => chrono::Weekday::Sun,
            _ => return None,
        };
        use chrono::Datelike;
        let date = chrono::NaiveDate::from_isoywd_opt(year as i32, week, weekday)?;
        return Some((date.year(), date.month(), date.day()));
    }
    let month = digits(bytes, at, 2)?;
    at += 2;
    if separated {
        if byte(bytes, at) != b'-' {
            return None;
        }
        at += 1;
    }
    let day = digits(bytes, at, 2)?;
    Some((year as i32, month, day))
}

#[derive(Default)]
struct Clock {
    hour: u32,
    minute: u32,
    second: u32,
    microsecond: u32,
}

/// `parse_hh_mm_ss_ff` over `start..end`: the fields, and whether something follows them
/// (C's return 1); `None` for its -3 and -4.
fn hh_mm_ss_ff(bytes: &[u8], start: usize, end: usize) -> Option<(Clock, bool)> {
    let mut values = [0u32; 3];
    let mut at = start;
    let mut separated = true;
    for (index, value) in values.iter_mut().enumerate() {
        *value = digits(bytes, at, 2)?;
        at += 2;
        let next = byte(bytes, at);
        at += 1;
        if index == 0 {
            separated = next == b':';
        }
        let clock = |values: &[u32; 3]| Clock {
            hour: values[0],
            minute: values[1],
            second: values[2],
            microsecond: 0,
        };
        if at >= end {
            return Some((clock(&values), next != 0));
        } else if separated && next == b':' {
            continue;
        } else if next == b'.' || next == b',' {
            break;
        } else if !separated {
            at -= 1;
        } else {
            return None;
        }
    }
    let count = (end - at).min(6);
    let mut microsecond = digits(bytes, at, count)?;
    at += count;
    if count < 6 {
        microsecond *= 10u32.pow(6 - count as u32);
    }
    while byte(bytes, at).is_ascii_digit() {
        at += 1;
    }
    let clock = Clock {
        hour: values[0],
        minute: values[1],
        second: values[2],
        microsecond,
    };
    Some((clock, byte(bytes, at) != 0))
}

/// `parse_isoformat_time` from `start` to the end: the clock, and the zone's offset in
/// seconds and microseconds when one is given; `None` for a malformed time or zone.
fn iso_time(bytes: &[u8], start: usize) -> Option<(Clock, Option<(i64, i64)>)> {
    let end = bytes.len();
    let mut zone = start;
    loop {
        if matches!(byte(bytes, zone), b'Z' | b'+' | b'-') {
            break;
        }
        zone += 1;
        if zone >= end {
            break;
        }
    }
    let (clock, more) = hh_mm_ss_ff(bytes, start, zone)?;
    if zone == end {
        return (!more).then_some((clock, None));
    }
    if byte(bytes, zone) == b'Z' {
        return (byte(bytes, zone + 1) == 0).then_some((clock, Some((0, 0))));
    }
    let sign = if byte(bytes, zone) == b'-' { -1 } else { 1 };
    let (offset, more) = hh_mm_ss_ff(bytes, zone + 1, end)?;
    if more {
        return None;
    }
    let seconds =
        i64::from(offset.hour) * 3600 + i64::from(offset.minute) * 60 + i64::from(offset.second);
    Some((
        clock,
        Some((sign * seconds, sign * i64::from(offset.microsecond))),
    ))
}

/// `new_timezone`'s range: strictly within a day either way, said with the timedelta's repr.
fn timezone(seconds: i64, microseconds: i64) -> Result<(), String> {
    if seconds == 0 {
        return Ok(()); // CPython returns UTC for a zero offset before it looks at the rest
    }
    let total = seconds * 1_000_000 + microseconds;
    let day = 86_400 * 1_000_000;
    if total > -day && total < day {
        return Ok(());
    }
    let days = total.div_euclid(day);
    let rest = total.rem_euclid(day);
    let (secs, micros) = (rest / 1_000_000, rest % 1_000_000);
    let mut fields = Vec::new();
    if days != 0 {
        fields.push(format!("days={days}"));
    }
    if secs != 0 {
        fields.push(format!("seconds={secs}"));
    }
    if micros != 0 {
        fields.push(format!("microseconds={micros}"));
    }
    let delta = if fields.is_empty() {
        "0".to_owned()
    } else {
        fields.join(", ")
    };
    Err(format!(
        "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta({delta})."
    ))
}

/// Why Pydantic 2 (lax mode) refuses `text` as a `datetime`, in its words, or `Ok` when it
/// reads it: speedate's RFC 3339-like date-time, or a Unix time; else the date parser's
/// reason (`Input should be a valid datetime or date, ...`); a date it parses but Python
/// cannot hold is Python's reason (`Input should be a valid datetime, year 0 is out of
/// range`).
pub(crate) fn pydantic_datetime(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    let parsed = speedate_datetime(bytes)
        .map(Some)
        .or_else(|| unix_time(bytes).then_some(None));
    let year = match parsed {
        Some(year) => year,
        None => match speedate_date(bytes) {
            Ok(year) => Some(year),
            Err(why) => return Err(format!("Input should be a valid datetime or date, {why}")),
        },
    };
    if year == Some(0) {
        return Err("Input should be a valid datetime, year 0 is out of range".into());
    }
    Ok(())
}

/// speedate's `Date::parse_bytes_rfc3339`: the year, or its reason in pydantic's words.
fn speedate_date(bytes: &[u8]) -> Result<u32, &'static str> {
    let year = speedate_date_partial(bytes)?;
    if bytes.len() > 10 {
        return Err("unexpected extra characters at the end of the input");
    }
    Ok(year)
}

/// speedate's `Date::parse_bytes_partial`: `YYYY-MM-DD` at the start, in its order of checks.
fn speedate_date_partial(bytes: &[u8]) -> Result<u32, &'static str> {
    if bytes.len() < 10 {
        return Err("input is too short");
    }
    let year = digits(bytes, 0, 4).ok_or("invalid character in year")?;
    if bytes[4] != b'-' {
        return Err("invalid date separator, expected `-`");
    }
    let month = digits(bytes, 5, 2).ok_or("invalid character in month")?;
    if bytes[7] != b'-' {
        return Err("invalid date separator, expected `-`");
    }
    let day = digits(bytes, 8, 2).ok_or("invalid character in day")?;
    if !(1..=12).contains(&month) {
        return Err("month value is outside expected range of 1-12");
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err("day value is outside expected range");
    }
    Ok(year)
}

/// speedate's `DateTime::parse_bytes_rfc3339`: the year when the whole text is a date-time
/// (separator `T`, `t`, space or `_`; `HH:MM[:SS[.f]]`; zone `Z`, `z`, `+`, `-` or U+2212
/// with `HH:MM` or `HHMM`).
fn speedate_datetime(bytes: &[u8]) -> Option<u32> {
    let year = speedate_date_partial(bytes).ok()?;
    if !matches!(bytes.get(10), Some(b'T' | b't' | b' ' | b'_')) {
        return None;
    }
    let start = 11;
    if bytes.len() < start + 5 {
        return None;
    }
    let hour = digits(bytes, start, 2)?;
    if bytes[start + 2] != b':' {
        return None;
    }
    let minute = digits(bytes, start + 3, 2)?;
    if hour > 23 || minute > 59 {
        return None;
    }
    let mut at = start + 5;
    if bytes.get(at) == Some(&b':') {
        let second = digits(bytes, at + 1, 2)?;
        if second > 59 {
            return None;
        }
        at += 3;
        if matches!(bytes.get(at), Some(b'.' | b',')) {
            at += 1;
            let first = at;
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            if at == first {
                return None;
            }
        }
    }
    match bytes.get(at) {
        None => {}
        Some(b'Z' | b'z') => at += 1,
        Some(_) => {
            let sign_len = match bytes.get(at) {
                Some(b'+' | b'-') => 1,
                _ if bytes.get(at..at + 3) == Some("\u{2212}".as_bytes()) => 3,
                _ => return None,
            };
            at += sign_len;
            let zone_hour = digits(bytes, at, 2)?;
            at += 2;
            if bytes.get(at) == Some(&b':') {
                at += 1;
            }
            let zone_minute = digits(bytes, at, 2)?;
            at += 2;
            if zone_hour > 23 || zone_minute > 59 {
                return None;
            }
        }
    }
    (at == bytes.len()).then_some(year)
}

/// speedate's Unix time: an integer or a decimal number (digits, one `.`, a leading `-`),
/// read as milliseconds beyond 2e10, within the years 1600..9999.
fn unix_time(bytes: &[u8]) -> bool {
    let unsigned = bytes.strip_prefix(b"-").unwrap_or(bytes);
    if !unsigned.first().is_some_and(u8::is_ascii_digit)
        || !unsigned.iter().all(|c| c.is_ascii_digit() || *c == b'.')
        || unsigned.iter().filter(|c| **c == b'.').count() > 1
    {
        return false;
    }
    let Some(value) = std::str::from_utf8(bytes)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
    else {
        return false;
    };
    let seconds = if value.abs() > 2e10 {
        value / 1000.0
    } else {
        value
    };
    (-11_676_096_000.0..253_402_300_800.0).contains(&seconds)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `check_date_args`, in its order and words.
fn date_ranges(year: i32, month: u32, day: u32) -> Result<(), String> {
    if !(1..=9999).contains(&year) {
        return Err(format!("year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Err("month must be in 1..12".into());
    }
    if day < 1 || day > days_in_month(year as u32, month) {
        return Err("day is out of range for month".into());
    }
    Ok(())
}

/// `check_time_args`, in its order and words.
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

    /// Words Python 3.11 and Pydantic 2.14 gave for these (scripts/contextcore_differential.py
    /// compares many more).
    #[test]
    fn refusals_are_worded_as_python_and_pydantic_word_them() {
        let range = "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta";
        for (text, delta) in [
            ("2026-03-01T09:00:00+24:00", "(days=1)."),
            ("2026-03-01T09:00:00-24:00", "(days=-1)."),
            ("2026-03-01T09:00:00+25:00", "(days=1, seconds=3600)."),
        ] {
            assert_eq!(fromisoformat(text).unwrap_err(), format!("{range}{delta}"));
        }
        // 3.11 reads ISO week dates, an empty fraction, a minute offset of 60.
        for text in [
            "2026-W09-7",
            "2026-03-01T09:00:00.Z",
            "2026-03-01T09:00:00+05:60",
        ] {
            assert_eq!(fromisoformat(text), Ok(()), "{text}");
        }
        let pydantic = |text| pydantic_datetime(text).unwrap_err();
        let reason = "Input should be a valid datetime or date, ";
        assert_eq!(pydantic("normal"), format!("{reason}input is too short"));
        assert_eq!(
            pydantic("2026-W09-7"),
            format!("{reason}invalid character in month")
        );
        assert_eq!(
            pydantic("2026-03-01T09:00:00+24:00"),
            format!("{reason}unexpected extra characters at the end of the input")
        );
        assert_eq!(
            pydantic("0000-01-01T00:00:00Z"),
            "Input should be a valid datetime, year 0 is out of range"
        );
        assert_eq!(
            pydantic_datetime("2026-03-01T09:00:00\u{2212}05:00"),
            Ok(())
        );
    }
}
