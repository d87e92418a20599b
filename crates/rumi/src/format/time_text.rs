//! The one parser of time texts for every host (the CLI's `--time`/`--times`/`--intervals` and
//! source metadata; Python's `rumi.write(times=...)` strings): ISO 8601 dates and date-times
//! to whole seconds since 1970-01-01T00:00:00Z (spec "Time coordinates").
//!
//! Accepted, as NumPy's `datetime64` and RFC 3339 read them:
//! - a date `YYYY-MM-DD`, or the reduced `YYYY-MM` and `YYYY`: their first instant, UTC;
//! - a date-time `YYYY-MM-DDTHH:MM[:SS[.fff]]` (`T`, `t` or a space between date and time),
//!   followed by a zone (`Z`, `+HH:MM`, `+HHMM`, `+HH`, or `-` those) or nothing: a date-time
//!   without a zone is UTC;
//! - years before 0000 or after 9999 as ISO 8601's expanded years: a sign and four or more
//!   digits (`-0001-01-01`, `+10000-01-01`).
//!
//! A fraction of a second is rounded to the nearest second, halves up ([`Instant::rounded`]
//! says so: each host decides whether to warn or refuse). Days that do not exist, leap
//! seconds (POSIX seconds have no 23:59:60), hour 24 and out-of-range fields are errors naming
//! the text and the field.

/// A time text read as whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instant {
    /// seconds since 1970-01-01T00:00:00Z, the fraction rounded to the nearest second (halves up)
    pub seconds: i64,
    /// true when the text had a non-zero fraction of a second, rounded away
    pub rounded: bool,
    /// the seconds the text covers from `seconds` on: its year, month or day for a reduced date
    /// or a date, 60 for `HH:MM`, 1 with seconds (a date covers its day, as STAC searches read
    /// dates)
    pub span: i64,
}

/// The forms [`parse_instant`] reads, for error messages.
pub const FORMS: &str = "YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM] (no zone: UTC)";

/// Parses one ISO 8601 date or date-time (module docs) to whole seconds since 1970 (UTC).
pub fn parse_instant(text: &str) -> Result<Instant, String> {
    let t = text.trim();
    Parser { rest: t.as_bytes() }.instant().map_err(|why| format!("{t:?} is not an ISO 8601 time: {why}"))
}

/// Parses an interval `START/END` of two [`parse_instant`] texts; END (exclusive) must be after
/// START.
pub fn parse_interval(text: &str) -> Result<(Instant, Instant), String> {
    let t = text.trim();
    let (a, b) = t.split_once('/').ok_or_else(|| format!("{t:?} is not an interval START/END"))?;
    let (a, b) = (parse_instant(a)?, parse_instant(b)?);
    if a.seconds >= b.seconds {
        return Err(format!("interval {t:?} is empty or reversed: START must be before END"));
    }
    Ok((a, b))
}

/// Days from 1970-01-01 to `y-m-d` of the proleptic Gregorian calendar (H. Hinnant's
/// days_from_civil), for any year.
fn days_from_civil(y: i128, m: u32, d: u32) -> i128 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i128::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i128::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i128) -> bool {
    y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0)
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

struct Parser<'a> {
    rest: &'a [u8],
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.rest = &self.rest[1..];
            true
        } else {
            false
        }
    }

    /// Exactly `n` digits, as a number; `what` names the field in the error.
    fn digits(&mut self, n: usize, what: &str) -> Result<u32, String> {
        let run = self.rest.iter().take_while(|c| c.is_ascii_digit()).count();
        if run != n {
            return Err(format!("the {what} must be {n} digits"));
        }
        let v = self.rest[..n].iter().fold(0u32, |v, c| v * 10 + u32::from(c - b'0'));
        self.rest = &self.rest[n..];
        Ok(v)
    }

    fn year(&mut self) -> Result<i128, String> {
        let sign = match self.peek() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => 0,
        };
        if sign != 0 {
            self.rest = &self.rest[1..];
        }
        let run = self.rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let ok = if sign == 0 { run == 4 } else { (4..=12).contains(&run) };
        if !ok {
            return Err(if sign == 0 {
                format!("expected {FORMS}")
            } else {
                "an expanded year is a sign and 4 to 12 digits".into()
            });
        }
        let v = self.rest[..run].iter().fold(0i128, |v, c| v * 10 + i128::from(c - b'0'));
        self.rest = &self.rest[run..];
        Ok(if sign < 0 { -v } else { v })
    }

    fn instant(mut self) -> Result<Instant, String> {
        if self.rest.is_empty() {
            return Err("the text is empty".into());
        }
        let year = self.year()?;
        let (mut month, mut day, mut full_date) = (1, 1, false);
        let mut next = days_from_civil(year + 1, 1, 1); // the first day after what the date covers
        if self.eat(b'-') {
            month = self.digits(2, "month")?;
            if !(1..=12).contains(&month) {
                return Err(format!("month {month} does not exist"));
            }
            next = if month == 12 { days_from_civil(year + 1, 1, 1) } else { days_from_civil(year, month + 1, 1) };
            if self.eat(b'-') {
                day = self.digits(2, "day")?;
                let name = MONTHS[month as usize - 1];
                let days = match month {
                    2 if is_leap(year) => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                if day == 0 || day > days {
                    return Err(format!("{name} {year} has {days} days, so day {day} does not exist"));
                }
                full_date = true;
                next = days_from_civil(year, month, day) + 1;
            } else if !self.rest.is_empty() {
                return Err(format!("expected {FORMS}"));
            }
        }
        let mut seconds = days_from_civil(year, month, day) * 86_400;
        let mut span = next * 86_400 - seconds;
        let mut rounded = false;
        if full_date && matches!(self.peek(), Some(b'T' | b't' | b' ')) {
            self.rest = &self.rest[1..];
            let hour = self.digits(2, "hour")?;
            if !self.eat(b':') {
                return Err("the time must be HH:MM or HH:MM:SS".into());
            }
            let minute = self.digits(2, "minute")?;
            let mut second = 0;
            span = 60;
            if self.eat(b':') {
                span = 1;
                second = self.digits(2, "second")?;
                if matches!(self.peek(), Some(b'.' | b',')) {
                    self.rest = &self.rest[1..];
                    let run = self.rest.iter().take_while(|c| c.is_ascii_digit()).count();
                    if run == 0 {
                        return Err("a fraction of a second needs digits after its point".into());
                    }
                    rounded = self.rest[..run].iter().any(|&c| c != b'0');
                    seconds += i128::from(self.rest[0] >= b'5');
                    self.rest = &self.rest[run..];
                }
            }
            if hour == 24 {
                return Err("hour 24 is not accepted; write 00:00 of the next day".into());
            }
            if hour > 23 || minute > 59 {
                return Err(format!("{hour:02}:{minute:02} is not a time of day"));
            }
            if second == 60 {
                return Err("it is a leap second; leap seconds are not representable (rumi counts POSIX \
                            seconds, which have no 23:59:60)"
                    .into());
            }
            if second > 59 {
                return Err(format!("second {second} does not exist"));
            }
            seconds += i128::from(hour * 3600 + minute * 60 + second);
            seconds -= self.zone()?;
        }
        if !self.rest.is_empty() {
            return Err(format!(
                "unexpected {:?} (expected {FORMS})",
                String::from_utf8_lossy(self.rest).chars().take(16).collect::<String>()
            ));
        }
        let seconds = i64::try_from(seconds)
            .map_err(|_| "it is outside the range of 64-bit seconds since 1970 that rumi stores".to_string())?;
        let span = i64::try_from(span).expect("a year's seconds fit in 64 bits");
        Ok(Instant { seconds, rounded, span })
    }

    /// The zone's offset east of UTC in seconds: `Z`, `+HH:MM`, `+HHMM`, `+HH` (or `-`), or
    /// none (UTC).
    fn zone(&mut self) -> Result<i128, String> {
        if self.eat(b'Z') || self.eat(b'z') {
            return Ok(0);
        }
        let sign = match self.peek() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return Ok(0),
        };
        self.rest = &self.rest[1..];
        // +HHMM: the hours are the first two of four digits
        let run = self.rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let hours = if run == 4 {
            let h = self.rest[..2].iter().fold(0u32, |v, c| v * 10 + u32::from(c - b'0'));
            self.rest = &self.rest[2..];
            h
        } else {
            let h = self.digits(2, "zone's hours")?;
            self.eat(b':');
            h
        };
        let minutes =
            if self.peek().is_some_and(|c| c.is_ascii_digit()) { self.digits(2, "zone's minutes")? } else { 0 };
        if hours > 23 || minutes > 59 {
            return Err(format!("the zone offset {hours:02}:{minutes:02} is not one"));
        }
        Ok(sign * i128::from(hours * 3600 + minutes * 60))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(t: &str) -> i64 {
        let i = parse_instant(t).unwrap_or_else(|e| panic!("{e}"));
        assert!(!i.rounded, "{t}");
        i.seconds
    }

    fn err(t: &str) -> String {
        parse_instant(t).expect_err(t)
    }

    #[test]
    fn dates_and_date_times() {
        assert_eq!(secs("1970-01-02"), 86_400);
        assert_eq!(secs("1970-01"), 0);
        assert_eq!(secs("1971"), 365 * 86_400);
        // no zone: UTC, as Python's rumi.write (numpy) reads it
        assert_eq!(secs("2015-03-09T17:30:17"), 1_425_922_217);
        assert_eq!(secs("2015-03-09T17:30:17Z"), 1_425_922_217);
        assert_eq!(secs(" 2015-03-09 17:30:17z "), 1_425_922_217);
        assert_eq!(secs("2015-03-09t17:30"), 1_425_922_200);
        assert_eq!(secs("2015-03-09T19:30:17+02:00"), 1_425_922_217);
        assert_eq!(secs("2015-03-09T15:00:17-0230"), 1_425_922_217);
        assert_eq!(secs("2015-03-09T18:30:17+01"), 1_425_922_217);
        assert_eq!(secs("1969-12-31T23:59:59Z"), -1);
        assert_eq!(secs("2000-01-01T00:00:00.000Z"), 946_684_800);
        // leap years and expanded years
        assert_eq!(secs("2020-02-29"), 1_582_934_400);
        assert_eq!(secs("2000-02-29"), 951_782_400);
        assert_eq!(secs("-0001-01-01"), -62_198_755_200);
        assert_eq!(secs("0000-03-01"), -62_162_035_200);
        assert_eq!(secs("+10000-01-01"), 253_402_300_800);
        // what the trailer writes reads back
        for s in [-62_198_755_200i64, -1, 0, 1_425_922_217, 253_402_300_799] {
            let text = crate::format::trailer::format_iso(i128::from(s), false);
            assert_eq!(secs(&text), s, "{text}");
        }
    }

    #[test]
    fn fractions_round_to_the_nearest_second_halves_up() {
        let p = |t: &str| parse_instant(t).unwrap();
        assert_eq!(p("1970-01-01T00:01:00.5Z"), Instant { seconds: 61, rounded: true, span: 1 });
        assert_eq!(p("1970-01-01T00:01:00,499"), Instant { seconds: 60, rounded: true, span: 1 });
        assert_eq!(p("1969-12-31T23:59:59.5"), Instant { seconds: 0, rounded: true, span: 1 });
        assert_eq!(p("1970-01-01T00:00:00.000000001"), Instant { seconds: 0, rounded: true, span: 1 });
    }

    #[test]
    fn errors_name_the_text_and_the_field() {
        let e = err("2021-02-29");
        assert!(e.starts_with("\"2021-02-29\" is not an ISO 8601 time: "), "{e}");
        assert!(e.contains("February 2021 has 28 days, so day 29 does not exist"), "{e}");
        assert!(err("1900-02-29").contains("February 1900 has 28 days"));
        assert!(err("2021-13-01").contains("month 13 does not exist"));
        assert!(err("2021-04-31T00:00:00Z").contains("April 2021 has 30 days"));
        assert!(err("2016-12-31T23:59:60Z").contains("leap seconds are not representable"));
        assert!(err("2016-12-31T24:00:00").contains("hour 24"));
        assert!(err("2016-12-31T23:60").contains("23:60 is not a time of day"));
        assert!(err("2016-12-31T23:59:00+25:00").contains("zone offset"));
        assert!(err("yesterday").contains("expected YYYY-MM-DD"));
        assert!(err("").contains("empty"));
        assert!(err("2015-3-9").contains("the month must be 2 digits"));
        assert!(err("2015-03-09T17:30:17Zjunk").contains("unexpected \"junk\""));
        assert!(err("2015-03-09T17:30:17.").contains("digits after its point"));
        assert!(err("20150309").contains("expected"));
        assert!(err("+999999999999-01-01").contains("outside the range"));
    }

    #[test]
    fn spans_cover_the_precision_of_the_text() {
        let span = |t: &str| parse_instant(t).unwrap().span;
        assert_eq!(span("2024"), 366 * 86_400);
        assert_eq!(span("2023"), 365 * 86_400);
        assert_eq!(span("2024-02"), 29 * 86_400);
        assert_eq!(span("2023-12"), 31 * 86_400);
        assert_eq!(span("2023-05-11"), 86_400);
        assert_eq!(span("-0001-03-01"), 86_400);
        assert_eq!(span("2023-05-11T10:30"), 60);
        assert_eq!(span("2023-05-11T10:30+02:00"), 60);
        assert_eq!(span("2023-05-11 10:30:05"), 1);
        assert_eq!(span("2023-05-11T10:30:05.7Z"), 1);
    }

    #[test]
    fn intervals() {
        let (a, b) = parse_interval("1970-01-01/1970-01-02T00:00:00").unwrap();
        assert_eq!((a.seconds, b.seconds), (0, 86_400));
        assert!(parse_interval("1970-01-02/1970-01-01").unwrap_err().contains("empty or reversed"));
        assert!(parse_interval("1970-01-02").unwrap_err().contains("not an interval"));
        assert!(parse_interval("1970-01-01/x").unwrap_err().contains("\"x\" is not an ISO 8601 time"));
    }
}
