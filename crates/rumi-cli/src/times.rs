//! Time coordinates: from `--time`/`--interval` (`--times`/`--intervals` for stacks) or, when
//! absent, from each source's acquisition metadata. Every time step needs a coordinate; none
//! is ever invented.

use std::path::Path;

use rumi::format::{time_text, TimeAxis, TimeKind};

use crate::fail::{Context, Failure, Res};

/// A time coordinate read from source metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaValue {
    /// an instant, seconds since 1970 (UTC)
    Instant(i64),
    /// an interval START/END (END exclusive)
    Interval(i64, i64),
}

/// A time read from source metadata.
#[derive(Debug, Clone)]
pub struct MetaTime {
    /// the metadata item(s), e.g. `TIFFTAG_DATETIME` or `TIME_START/TIME_END`
    pub key: &'static str,
    /// its text
    pub raw: String,
    /// the coordinate, or why the text could not be read
    pub value: Result<MetaValue, String>,
    /// set when a fraction of a second was rounded away
    pub rounded: bool,
}

/// Metadata items holding an acquisition time, most specific first: `(key, domain)`, after
/// TIME_START/TIME_END and TIME (what rumi's GDAL driver reports, kept by gdal_translate).
/// ACQUISITIONDATETIME (imagery metadata) names the acquisition; TIFFTAG_DATETIME is the
/// TIFF "date and time of image creation", used only when nothing better exists.
pub const META_KEYS: [(&str, &str); 4] =
    [("TIME", ""), ("ACQUISITIONDATETIME", "IMAGERY"), ("ACQUISITIONDATETIME", ""), ("TIFFTAG_DATETIME", "")];

impl MetaTime {
    /// The time in a dataset's metadata (`get(key, domain)`), if any.
    pub fn of(get: impl Fn(&str, &str) -> Option<String>) -> Option<Self> {
        let item = |k: &str, d: &str| get(k, d).filter(|v| !v.trim().is_empty());
        if let (Some(a), Some(b)) = (item("TIME_START", ""), item("TIME_END", "")) {
            let (ra, rb) = (parse_metadata_time(clean(&a)), parse_metadata_time(clean(&b)));
            let rounded = ra.as_ref().is_ok_and(|v| v.1) || rb.as_ref().is_ok_and(|v| v.1);
            let value = match (ra, rb) {
                (Ok((a, _)), Ok((b, _))) if a < b => Ok(MetaValue::Interval(a, b)),
                (Ok(_), Ok(_)) => Err("the interval is empty or reversed: TIME_START must be before TIME_END".into()),
                (Err(e), _) | (_, Err(e)) => Err(e),
            };
            return Some(MetaTime { key: "TIME_START/TIME_END", raw: format!("{a}/{b}"), value, rounded });
        }
        META_KEYS.iter().find_map(|&(key, domain)| item(key, domain).map(|v| MetaTime::new(key, &v)))
    }

    /// Parses a metadata time; texts without a zone (as TIFF's `YYYY:MM:DD HH:MM:SS`) are UTC.
    pub fn new(key: &'static str, raw: &str) -> Self {
        let r = parse_metadata_time(clean(raw));
        MetaTime {
            key,
            raw: raw.to_owned(),
            rounded: r.as_ref().is_ok_and(|v| v.1),
            value: r.map(|v| MetaValue::Instant(v.0)),
        }
    }
}

fn clean(raw: &str) -> &str {
    raw.trim().trim_end_matches('\0').trim()
}

/// The time options of one command.
#[derive(Debug, Clone)]
pub enum TimeArgs {
    /// `convert`: `--time` or `--interval` (at most one, enforced by clap)
    Single {
        /// `--time`
        time: Option<String>,
        /// `--interval`
        interval: Option<String>,
    },
    /// `stack`: `--times` or `--intervals`, one value per source
    List {
        /// `--times`
        times: Vec<String>,
        /// `--intervals`
        intervals: Vec<String>,
    },
}

impl TimeArgs {
    /// Options of `convert`.
    pub fn single(time: Option<String>, interval: Option<String>) -> Self {
        TimeArgs::Single { time, interval }
    }

    /// Options of `stack`.
    pub fn list(times: Vec<String>, intervals: Vec<String>) -> Self {
        TimeArgs::List { times, intervals }
    }

    fn flags(&self) -> &'static str {
        match self {
            TimeArgs::Single { .. } => "--time ISO or --interval START/END",
            TimeArgs::List { .. } => "--times ISO,... or --intervals START/END,...",
        }
    }

    /// The time axis of T = `sources.len()` steps, each source given with its metadata time.
    /// Returns the axis and notes for the user (where metadata times came from).
    pub fn resolve(&self, sources: &[(&Path, Option<&MetaTime>)]) -> Res<(TimeAxis, Vec<String>)> {
        let t = sources.len();
        let (instants, intervals, instant_flag, interval_flag) = match self {
            TimeArgs::Single { time, interval } => {
                (time.iter().collect(), interval.iter().collect(), "--time", "--interval")
            }
            TimeArgs::List { times, intervals } => {
                (times.iter().collect::<Vec<_>>(), intervals.iter().collect::<Vec<_>>(), "--times", "--intervals")
            }
        };
        let mut notes = Vec::new();
        let (kind, seconds) = if !instants.is_empty() {
            check_count(instant_flag, instants.len(), t)?;
            let s =
                instants.iter().map(|v| parse_instant(v.trim()).context(|| instant_flag)).collect::<Res<Vec<_>>>()?;
            (TimeKind::Instant, s)
        } else if !intervals.is_empty() {
            check_count(interval_flag, intervals.len(), t)?;
            let mut s = Vec::with_capacity(2 * t);
            for v in intervals {
                let (a, b) = parse_interval(v.trim()).context(|| interval_flag)?;
                s.extend([a, b]);
            }
            (TimeKind::Interval, s)
        } else {
            self.metadata_times(sources, &mut notes)?
        };
        check_order(kind, &seconds)?;
        let times = u32::try_from(t).map_err(|_| Failure("too many time steps".into()))?;
        let axis = TimeAxis::from_seconds(kind, seconds, times).context(|| "time coordinates")?;
        Ok((axis, notes))
    }
}

impl TimeArgs {
    /// The time coordinates the sources' metadata gives (all instants or all intervals), with
    /// a note per source saying where its time came from.
    fn metadata_times(
        &self,
        sources: &[(&Path, Option<&MetaTime>)],
        notes: &mut Vec<String>,
    ) -> Res<(TimeKind, Vec<i64>)> {
        let mut s = Vec::with_capacity(2 * sources.len());
        let mut kind = None;
        for (path, meta) in sources {
            let Some(meta) = meta else {
                return Err(Failure(format!(
                    "{} has no acquisition time (no TIME, TIME_START/TIME_END, ACQUISITIONDATETIME or \
                     TIFFTAG_DATETIME metadata); rumi labels every time step, so pass {}",
                    path.display(),
                    self.flags()
                )));
            };
            let value = meta.value.as_ref().map_err(|why| {
                Failure(format!(
                    "{}: {} metadata {:?} cannot be used as a time ({why}); pass {}",
                    path.display(),
                    meta.key,
                    meta.raw,
                    self.flags()
                ))
            })?;
            let this = match value {
                MetaValue::Instant(v) => {
                    s.push(*v);
                    TimeKind::Instant
                }
                MetaValue::Interval(a, b) => {
                    s.extend([*a, *b]);
                    TimeKind::Interval
                }
            };
            if kind.is_some_and(|k| k != this) {
                return Err(Failure(format!(
                    "{}: its {} metadata is {} but the sources before it have {}; a Cube's time steps are \
                     all instants or all intervals: pass {}",
                    path.display(),
                    meta.key,
                    if this == TimeKind::Interval { "an interval" } else { "an instant" },
                    if this == TimeKind::Interval { "instants" } else { "intervals" },
                    self.flags()
                )));
            }
            kind = Some(this);
            notes.push(metadata_note(path, meta));
        }
        Ok((kind.unwrap_or(TimeKind::Instant), s))
    }
}

/// Where a source's time came from; a warning when it is a guess (TIFF's creation time) or
/// was rounded.
fn metadata_note(path: &Path, meta: &MetaTime) -> String {
    let tiff = meta.key == "TIFFTAG_DATETIME";
    format!(
        "{}time of {} taken from its {} metadata ({:?}{}{})",
        // TIFF's creation time standing for the acquisition is a guess: always said
        if tiff || meta.rounded { "warning: " } else { "" },
        path.display(),
        meta.key,
        meta.raw,
        if tiff { ", read as UTC; TIFF records the image creation time, not the acquisition" } else { "" },
        if meta.rounded { ", rounded to the nearest second: rumi stores whole seconds" } else { "" }
    )
}

fn iso(seconds: i64) -> String {
    rumi::format::trailer::format_iso(i128::from(seconds), seconds % 86400 == 0)
}

/// The trailer's ordering rules (spec "time_type"), explained in ISO 8601 and 0-based steps.
fn check_order(kind: TimeKind, s: &[i64]) -> Res<()> {
    match kind {
        TimeKind::Instant => {
            if let Some(i) = (1..s.len()).find(|&i| s[i] < s[i - 1]) {
                return Err(Failure(format!(
                    "time step {i} ({}) is before time step {} ({}); give the sources in time order",
                    iso(s[i]),
                    i - 1,
                    iso(s[i - 1])
                )));
            }
        }
        TimeKind::Interval => {
            if let Some(i) = (1..s.len() / 2).find(|&i| s[2 * i] < s[2 * i - 1]) {
                return Err(Failure(format!(
                    "interval {i} starts ({}) before interval {} ends ({}); intervals must be in time order and must not overlap",
                    iso(s[2 * i]),
                    i - 1,
                    iso(s[2 * i - 1])
                )));
            }
        }
    }
    Ok(())
}

fn check_count(flag: &str, found: usize, expected: usize) -> Res<()> {
    if found == expected {
        Ok(())
    } else {
        Err(Failure(format!(
            "{flag} has {found} value(s) but there are {expected} source(s); give one per source, in order"
        )))
    }
}

/// Parses an ISO 8601 instant given on the command line with the core's one parser of time
/// texts (`rumi::format::time_text`, also Python's): a date (`2020-05-18`, midnight UTC) or a
/// date-time with or without a zone (`2020-05-18T13:40:00Z`, `2020-05-18T15:40:00+02:00`;
/// none: UTC). A fraction of a second is refused: rumi stores whole seconds, and a time given
/// explicitly is not rounded behind the user's back.
pub fn parse_instant(text: &str) -> Result<i64, String> {
    let i = time_text::parse_instant(text)?;
    if i.rounded {
        return Err(format!("{:?} has a fraction of a second; rumi stores whole seconds", text.trim()));
    }
    Ok(i.seconds)
}

/// Parses `START/END` (END exclusive, after START) by the core's parser; a fraction of a second
/// is refused as [`parse_instant`] refuses it.
pub fn parse_interval(text: &str) -> Result<(i64, i64), String> {
    let (a, b) = time_text::parse_interval(text)?;
    if a.rounded || b.rounded {
        return Err(format!("{:?} has a fraction of a second; rumi stores whole seconds", text.trim()));
    }
    Ok((a.seconds, b.seconds))
}

/// Metadata date-times: TIFF's `YYYY:MM:DD HH:MM:SS` (read as `YYYY-MM-DD HH:MM:SS`) or any
/// text the core's parser reads, without a zone as UTC; a fraction of a second is rounded to
/// the nearest second (the flag says so).
fn parse_metadata_time(text: &str) -> Result<(i64, bool), String> {
    let b = text.as_bytes();
    let tiff = b.len() >= 10 && b[4] == b':' && b[7] == b':' && b[..4].iter().all(u8::is_ascii_digit);
    let iso = if tiff { format!("{}-{}-{}", &text[..4], &text[5..7], &text[8..]) } else { text.to_owned() };
    time_text::parse_instant(&iso).map(|i| (i.seconds, i.rounded)).map_err(|e| {
        if tiff {
            e.replacen(&format!("{iso:?}"), &format!("{text:?}"), 1)
        } else {
            e
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_intervals() {
        assert_eq!(parse_instant("1970-01-02").unwrap(), 86400);
        assert_eq!(parse_instant("1970-01-01T01:00:00+01:00").unwrap(), 0);
        assert!(parse_instant("1970-01-01T00:00:00.5Z").unwrap_err().contains("fraction of a second"));
        // no zone: UTC, as Python's rumi.write reads it
        assert_eq!(parse_instant("2015-03-09T17:30:17").unwrap(), 1_425_922_217);
        assert_eq!(parse_instant(" 2015-03-09T17:30:17Z").unwrap(), 1_425_922_217);
        let e = parse_instant("2015-03-09T17:30:17Q").unwrap_err();
        assert!(e.contains("\"2015-03-09T17:30:17Q\" is not an ISO 8601 time"), "{e}");
        assert_eq!(parse_interval("1970-01-01/1970-01-02").unwrap(), (0, 86400));
        assert!(parse_interval("1970-01-02/1970-01-01").is_err());
        assert!(parse_interval("1970-01-02").is_err());
        let e = parse_interval("1970-01-01T00:00:00.5Z/1970-01-02").unwrap_err();
        assert!(e.contains("fraction of a second"), "{e}");
    }

    #[test]
    fn metadata_forms() {
        assert_eq!(parse_metadata_time("1970:01:01 00:01:00").unwrap(), (60, false));
        assert_eq!(parse_metadata_time("1970-01-01 00:01:00").unwrap(), (60, false));
        assert_eq!(parse_metadata_time("1970-01-01T00:01:00Z").unwrap(), (60, false));
        assert_eq!(parse_metadata_time("1970-01-01T00:01:00.5Z").unwrap(), (61, true));
        assert_eq!(parse_metadata_time("1970-01-01T00:01:00.499").unwrap(), (60, true));
        assert_eq!(parse_metadata_time("1970:01:01 00:01:00,7").unwrap(), (61, true));
        assert!(parse_metadata_time("yesterday").unwrap_err().contains("\"yesterday\" is not an ISO 8601 time"));
        assert!(parse_metadata_time("2021:02:29 00:00:00").unwrap_err().contains("day 29 does not exist"));
        assert!(parse_metadata_time("2016-12-31T23:59:60Z").unwrap_err().contains("leap second"));
    }

    #[test]
    fn impossible_dates_and_leap_seconds_say_so() {
        assert!(parse_instant("2021-02-29")
            .unwrap_err()
            .contains("February 2021 has 28 days, so day 29 does not exist"));
        assert!(parse_instant("2020-02-29").is_ok());
        assert!(parse_instant("2021-13-01").unwrap_err().contains("month 13 does not exist"));
        assert!(parse_instant("2016-12-31T23:59:60Z").unwrap_err().contains("leap seconds are not representable"));
        assert!(parse_instant("2021-02-29T00:00:00Z").unwrap_err().contains("does not exist"));
    }
}
