//! v1.0 timestamps are `google.protobuf.Timestamp`: RFC 3339 with a zone, and the spec
//! requires UTC `Z` (D10 section 5.6.1). v0.3 examples carry naive values such as
//! `2025-04-02T16:59:25.331844`, which ProtoJSON parsers reject.

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone, Utc};

/// How a timestamp had to be changed to become UTC `Z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Normalised {
    /// Already RFC 3339 with `Z`.
    Unchanged,
    /// No zone: the given zone was assumed (an assumption, so lossy).
    AssumedZone { value: String },
    /// A non-UTC offset was converted (the original offset is lost).
    Converted { value: String, offset: String },
    /// Only the notation changed (`+00:00`, a space or lower-case `t`/`z`).
    Reformatted { value: String },
}

/// `Z` or `+HH:MM` / `-HH:MM`, as seconds east of UTC.
pub(crate) fn parse_offset(text: &str) -> Option<i32> {
    if text == "Z" || text == "z" {
        return Some(0);
    }
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (hours, minutes) = text.get(1..)?.split_once(':')?;
    if hours.len() != 2 || minutes.len() != 2 {
        return None;
    }
    let hours: i32 = hours.parse().ok()?;
    let minutes: i32 = minutes.parse().ok()?;
    (hours < 24 && minutes < 60).then_some(sign * (hours * 3600 + minutes * 60))
}

/// The fractional-second digits as written (`.331844`): no precision is lost.
fn fraction(text: &str) -> &str {
    let Some(start) = text.get(19..).filter(|rest| rest.starts_with('.')) else {
        return "";
    };
    let digits = start
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(start.len(), |(index, _)| index);
    &start[..digits]
}

/// ProtoJSON's canonical fraction (what protobuf's `Timestamp` writes): none for whole
/// seconds, else 3, 6 or 9 digits, the fewest that hold the value. More than 9 digits are
/// kept as written (a Timestamp holds nanoseconds; cutting them would move the instant).
fn canonical_fraction(written: &str) -> String {
    let digits = written.trim_start_matches('.');
    if digits.len() > 9 {
        return written.to_owned();
    }
    let significant = digits.trim_end_matches('0');
    let width = match significant.len() {
        0 => return String::new(),
        1..=3 => 3,
        4..=6 => 6,
        _ => 9,
    };
    format!(".{significant:0<width$}")
}

fn utc_text(instant: DateTime<Utc>, original: &str) -> String {
    format!(
        "{}{}Z",
        instant.format("%Y-%m-%dT%H:%M:%S"),
        canonical_fraction(fraction(original))
    )
}

/// Brings a timestamp to RFC 3339 UTC `Z`; naive values are read in `naive_offset`
/// (seconds east of UTC). Err names what is wrong when the text is no timestamp at all.
pub(crate) fn normalise(text: &str, naive_offset: i32) -> Result<Normalised, String> {
    if let Ok(parsed) = DateTime::parse_from_rfc3339(text) {
        let utc = parsed.with_timezone(&Utc);
        let value = utc_text(utc, text);
        if value == text {
            return Ok(Normalised::Unchanged);
        }
        if parsed.offset().local_minus_utc() == 0 {
            return Ok(Normalised::Reformatted { value });
        }
        return Ok(Normalised::Converted {
            value,
            offset: parsed.offset().to_string(),
        });
    }
    let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f"));
    if let Ok(naive) = naive {
        let zone = FixedOffset::east_opt(naive_offset)
            .ok_or_else(|| "the assumed zone is out of range".to_owned())?;
        let local = zone
            .from_local_datetime(&naive)
            .single()
            .ok_or_else(|| "the time does not exist in the assumed zone".to_owned())?;
        return Ok(Normalised::AssumedZone {
            value: utc_text(local.with_timezone(&Utc), text),
        });
    }
    Err("not an RFC 3339 / ISO 8601 date-time".into())
}

/// True for a v1.0-conformant timestamp: RFC 3339 ending in `Z`.
pub fn is_utc_z(text: &str) -> bool {
    text.ends_with('Z') && DateTime::parse_from_rfc3339(text).is_ok()
}

/// Epoch milliseconds (the DRAFT `lastUpdatedAfter`) as RFC 3339 UTC with milliseconds.
pub(crate) fn from_epoch_millis(millis: i64) -> Option<String> {
    DateTime::from_timestamp_millis(millis)
        .map(|instant| instant.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_values_get_the_assumed_zone_and_keep_their_digits() {
        assert_eq!(
            normalise("2025-04-02T16:59:25.331844", 0),
            Ok(Normalised::AssumedZone {
                value: "2025-04-02T16:59:25.331844Z".into()
            })
        );
        assert_eq!(
            normalise("2025-04-02T16:59:25", 2 * 3600),
            Ok(Normalised::AssumedZone {
                value: "2025-04-02T14:59:25Z".into()
            })
        );
    }

    #[test]
    fn offsets_are_converted_and_utc_is_left_alone() {
        assert_eq!(
            normalise("2024-03-15T10:15:00Z", 0),
            Ok(Normalised::Unchanged)
        );
        assert_eq!(
            normalise("2024-03-15T12:15:00.5+02:00", 0),
            Ok(Normalised::Converted {
                value: "2024-03-15T10:15:00.500Z".into(),
                offset: "+02:00".into()
            })
        );
        assert_eq!(
            normalise("2024-03-15T10:15:00+00:00", 0),
            Ok(Normalised::Reformatted {
                value: "2024-03-15T10:15:00Z".into()
            })
        );
        assert!(normalise("yesterday", 0).is_err());
        assert!(normalise("2024-03-15", 0).is_err());
    }

    #[test]
    fn fractions_are_written_as_protojson_writes_them() {
        for (written, canonical) in [
            ("2025-01-01T00:00:00.5Z", "2025-01-01T00:00:00.500Z"),
            ("2025-01-01T00:00:00.000Z", "2025-01-01T00:00:00Z"),
            ("2025-01-01T00:00:00.1234Z", "2025-01-01T00:00:00.123400Z"),
            (
                "2025-01-01T00:00:00.12345670Z",
                "2025-01-01T00:00:00.123456700Z",
            ),
            (
                "2025-01-01T00:00:00.1234567891Z",
                "2025-01-01T00:00:00.1234567891Z",
            ),
        ] {
            let got = match normalise(written, 0).unwrap() {
                Normalised::Unchanged => written.to_owned(),
                Normalised::Reformatted { value } => value,
                other => panic!("{other:?}"),
            };
            assert_eq!(got, canonical, "{written}");
        }
    }

    #[test]
    fn offsets_and_checks() {
        assert_eq!(parse_offset("Z"), Some(0));
        assert_eq!(parse_offset("-05:30"), Some(-(5 * 3600 + 30 * 60)));
        assert_eq!(parse_offset("+2"), None);
        assert_eq!(parse_offset("+25:00"), None);
        assert!(is_utc_z("2024-03-15T10:15:00.000Z"));
        assert!(!is_utc_z("2024-03-15T10:15:00"));
        assert!(!is_utc_z("2024-03-15T10:15:00+01:00"));
        assert_eq!(
            from_epoch_millis(1_700_000_000_123).as_deref(),
            Some("2023-11-14T22:13:20.123Z")
        );
    }
}
