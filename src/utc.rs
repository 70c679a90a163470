//! Time in UTC from the system clock, with no zone file: the deny path must not read
//! whatever `TZ` names (a FIFO there would hang the process after its verdict). Dates are
//! computed with the proleptic Gregorian calendar (days from 1970-01-01, Howard Hinnant's
//! `civil_from_days`); RFC 3339 text is read back for `log`'s time filter, with any offset.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since 1970-01-01T00:00:00Z (negative before it).
pub fn now_millis() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

/// The calendar date of a day count since 1970-01-01: (year, month 1-12, day 1-31).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March first
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The day count since 1970-01-01 of a calendar date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = year - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

struct Parts {
    year: i64,
    month: u32,
    day: u32,
    hour: i64,
    minute: i64,
    second: i64,
    millis: i64,
}

fn parts(millis: i64) -> Parts {
    let days = millis.div_euclid(86_400_000);
    let in_day = millis.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    Parts {
        year,
        month,
        day,
        hour: in_day / 3_600_000,
        minute: in_day / 60_000 % 60,
        second: in_day / 1000 % 60,
        millis: in_day % 1000,
    }
}

/// RFC 3339 in UTC with milliseconds: `2026-12-01T15:10:00.123Z`.
pub fn rfc3339(millis: i64) -> String {
    let p = parts(millis);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        p.year, p.month, p.day, p.hour, p.minute, p.second, p.millis
    )
}

/// A compact stamp for file names, in UTC: `20261201T151000.123Z`.
pub fn stamp(millis: i64) -> String {
    let p = parts(millis);
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}.{:03}Z",
        p.year, p.month, p.day, p.hour, p.minute, p.second, p.millis
    )
}

fn number(text: &str, digits: usize) -> Option<i64> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// Reads `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or `±HH:MM` (or no offset,
/// read as UTC), into milliseconds since the epoch. A space may stand for the `T`.
pub fn parse(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, rest) = match text.find(['T', 't', ' ']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let mut d = date.split('-');
    let year = number(d.next()?, 4)?;
    let month = u32::try_from(number(d.next()?, 2)?).ok()?;
    let day = u32::try_from(number(d.next()?, 2)?).ok()?;
    if d.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut millis = days_from_civil(year, month, day) * 86_400_000;
    let Some(rest) = rest else {
        return Some(millis);
    };
    let (clock, offset) = if let Some(c) = rest.strip_suffix(['Z', 'z']) {
        (c, 0)
    } else if let Some(i) = rest.rfind(['+', '-']) {
        let (c, o) = rest.split_at(i);
        let sign = if o.starts_with('-') { -1 } else { 1 };
        let (h, m) = o[1..].split_once(':')?;
        (c, sign * (number(h, 2)? * 60 + number(m, 2)?) * 60_000)
    } else {
        (rest, 0)
    };
    let mut c = clock.split(':');
    let hour = number(c.next()?, 2)?;
    let minute = number(c.next()?, 2)?;
    let (second, fraction) = match c.next() {
        None => (0, 0),
        Some(s) => match s.split_once('.') {
            None => (number(s, 2)?, 0),
            Some((s, f)) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
                let ms: String = f.chars().chain("000".chars()).take(3).collect();
                (number(s, 2)?, ms.parse().ok()?)
            }
            Some(_) => return None,
        },
    };
    if c.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    millis += ((hour * 60 + minute) * 60 + second) * 1000 + fraction;
    Some(millis - offset)
}

#[cfg(test)]
mod tests {
    use super::{parse, rfc3339, stamp};

    #[test]
    fn known_instants_print_as_their_calendar_dates() {
        // Values checked against `date -u -d @SECONDS`.
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_138_329_487), "2026-12-01T15:18:49.487Z");
        assert_eq!(rfc3339(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(stamp(1_796_138_329_487), "20261201T151849.487Z");
    }

    #[test]
    fn rfc3339_text_reads_back_with_any_offset() {
        assert_eq!(parse("2026-12-01T15:18:49.487Z"), Some(1_796_138_329_487));
        assert_eq!(
            parse("2026-12-01T16:18:49.487+01:00"),
            Some(1_796_138_329_487)
        );
        assert_eq!(
            parse("2026-12-01T10:18:49.4-05:00"),
            Some(1_796_138_329_400)
        );
        assert_eq!(parse("2026-12-01"), Some(1_796_083_200_000));
        assert_eq!(parse("2026-12-01 15:18"), Some(1_796_138_280_000));
        for bad in [
            "2026-13-01",
            "2026-12-01T25:00",
            "yesterday",
            "2026-12-01T10:00+1",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
