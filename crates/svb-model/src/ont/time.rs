//! Timestamps as BLOW5 headers hold them: POD5's milliseconds since the Unix epoch written as
//! Python writes a UTC `datetime` (what blue-crab's headers hold), and read back from that or
//! any ISO 8601 form.

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of `days` since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `ms` since the epoch as Python's `str()` of a UTC datetime: `2019-05-13 11:11:43+00:00`,
/// with `.ffffff` when there are milliseconds.
///
/// ```
/// assert_eq!(svb_model::ont::format_utc_ms(1_557_745_903_000), "2019-05-13 11:11:43+00:00");
/// assert_eq!(svb_model::ont::format_utc_ms(-1), "1969-12-31 23:59:59.999000+00:00");
/// ```
pub fn format_utc_ms(ms: i64) -> String {
    let (secs, milli) = (ms.div_euclid(1000), ms.rem_euclid(1000));
    let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let (h, min, s) = (sod / 3600, sod % 3600 / 60, sod % 60);
    let frac = if milli == 0 { String::new() } else { format!(".{:06}", milli * 1000) };
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02}:{s:02}{frac}+00:00")
}

/// Milliseconds since the epoch of `YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]`
/// (a missing zone is UTC); `None` when it is not one.
///
/// ```
/// use svb_model::ont::parse_utc_ms;
/// assert_eq!(parse_utc_ms("2019-05-13T11:11:43Z"), Some(1_557_745_903_000));
/// assert_eq!(parse_utc_ms("2019-05-13 13:11:43.5+02:00"), Some(1_557_745_903_500));
/// assert_eq!(parse_utc_ms("yesterday"), None);
/// ```
pub fn parse_utc_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit())).then(|| t.parse().ok()).flatten()
    };
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut at = 19;
    let mut milli = 0i64;
    if b.get(at) == Some(&b'.') {
        let start = at + 1;
        at = start;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let digits = s.get(start..at)?;
        if digits.is_empty() {
            return None;
        }
        let first3: String = digits.chars().chain("000".chars()).take(3).collect();
        milli = first3.parse().ok()?;
    }
    let offset_min = match s.get(at..)? {
        "" | "Z" | "z" => 0,
        zone => {
            let zb = zone.as_bytes();
            if zone.len() != 6 || !matches!(zb[0], b'+' | b'-') || zb[3] != b':' {
                return None;
            }
            let v = num(at + 1..at + 3)? * 60 + num(at + 4..at + 6)?;
            if zb[0] == b'-' {
                -v
            } else {
                v
            }
        }
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset_min * 60;
    Some(secs * 1000 + milli)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_day_of_four_centuries_round_trips() {
        for days in (-200_000i64..200_000).step_by(7) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        for ms in [0i64, 1, 999, 1000, 86_399_999, 951_782_400_123, -62_135_596_800_000] {
            assert_eq!(parse_utc_ms(&format_utc_ms(ms)), Some(ms), "{ms}");
        }
        assert_eq!(format_utc_ms(0), "1970-01-01 00:00:00+00:00");
        assert_eq!(format_utc_ms(951_782_400_123), "2000-02-29 00:00:00.123000+00:00");
        for bad in
            ["", "2019-13-01 00:00:00", "2019-05-13", "2019-05-13 11:11", "2019-05-13T11:11:43+2"]
        {
            assert_eq!(parse_utc_ms(bad), None, "{bad}");
        }
    }
}
