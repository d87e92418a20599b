//! Time coordinates: from `--time`/`--interval` (`--times`/`--intervals` for stacks) or, when
//! absent, from each source's acquisition metadata. Every time step needs a coordinate; none
//! is ever invented.

use std::path::Path;

use rumi::format::{TimeAxis, TimeKind};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

use crate::fail::{Context, Failure, Res};

/// A time read from source metadata.
#[derive(Debug, Clone)]
pub struct MetaTime {
    /// the metadata item, e.g. `TIFFTAG_DATETIME`
    pub key: &'static str,
    /// its text
    pub raw: String,
    /// seconds since 1970 (UTC), or why the text could not be read
    pub seconds: Result<i64, String>,
}

/// Metadata items holding an acquisition time, most specific first: `(key, domain)`.
/// ACQUISITIONDATETIME (imagery metadata) names the acquisition; TIFFTAG_DATETIME is the
/// TIFF "date and time of image creation", used only when nothing better exists.
pub const META_KEYS: [(&str, &str); 3] =
    [("ACQUISITIONDATETIME", "IMAGERY"), ("ACQUISITIONDATETIME", ""), ("TIFFTAG_DATETIME", "")];

impl MetaTime {
    /// Parses a metadata time; texts without a zone (as TIFF's `YYYY:MM:DD HH:MM:SS`) are UTC.
    pub fn new(key: &'static str, raw: &str) -> Self {
        MetaTime { key, raw: raw.to_owned(), seconds: parse_metadata_time(raw.trim().trim_end_matches('\0')) }
    }
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
        let (instants, intervals): (Vec<&String>, Vec<&String>) = match self {
            TimeArgs::Single { time, interval } => (time.iter().collect(), interval.iter().collect()),
            TimeArgs::List { times, intervals } => (times.iter().collect(), intervals.iter().collect()),
        };
        let mut notes = Vec::new();
        let (kind, seconds) = if !instants.is_empty() {
            check_count("--times", instants.len(), t)?;
            let s = instants.iter().map(|v| parse_instant(v).context(|| "--time")).collect::<Res<Vec<_>>>()?;
            (TimeKind::Instant, s)
        } else if !intervals.is_empty() {
            check_count("--intervals", intervals.len(), t)?;
            let mut s = Vec::with_capacity(2 * t);
            for v in intervals {
                let (a, b) = parse_interval(v).context(|| "--interval")?;
                s.extend([a, b]);
            }
            (TimeKind::Interval, s)
        } else {
            let mut s = Vec::with_capacity(t);
            for (path, meta) in sources {
                let Some(meta) = meta else {
                    return Err(Failure(format!(
                        "{} has no acquisition time (no ACQUISITIONDATETIME or TIFFTAG_DATETIME metadata); \
                         rumi labels every time step, so pass {}",
                        path.display(),
                        self.flags()
                    )));
                };
                match &meta.seconds {
                    Ok(v) => {
                        notes.push(format!(
                            "time of {} taken from its {} metadata ({:?}{})",
                            path.display(),
                            meta.key,
                            meta.raw,
                            if meta.key == "TIFFTAG_DATETIME" {
                                ", read as UTC; TIFF records the image creation time"
                            } else {
                                ""
                            }
                        ));
                        s.push(*v);
                    }
                    Err(why) => {
                        return Err(Failure(format!(
                            "{}: {} metadata {:?} cannot be used as a time ({why}); pass {}",
                            path.display(),
                            meta.key,
                            meta.raw,
                            self.flags()
                        )))
                    }
                }
            }
            (TimeKind::Instant, s)
        };
        check_order(kind, &seconds)?;
        let times = u32::try_from(t).map_err(|_| Failure("too many time steps".into()))?;
        let axis = TimeAxis::from_seconds(kind, seconds, times).context(|| "time coordinates")?;
        Ok((axis, notes))
    }
}

fn iso(seconds: i64) -> String {
    rumi::format::trailer::format_iso(i128::from(seconds), seconds % 86400 == 0)
}

/// The trailer's ordering rules (spec "time_type"), explained in ISO 8601 and 1-based steps.
fn check_order(kind: TimeKind, s: &[i64]) -> Res<()> {
    match kind {
        TimeKind::Instant => {
            if let Some(i) = (1..s.len()).find(|&i| s[i] < s[i - 1]) {
                return Err(Failure(format!(
                    "time step {} ({}) is before time step {} ({}); give the sources in time order",
                    i + 1,
                    iso(s[i]),
                    i,
                    iso(s[i - 1])
                )));
            }
        }
        TimeKind::Interval => {
            if let Some(i) = (1..s.len() / 2).find(|&i| s[2 * i] < s[2 * i - 1]) {
                return Err(Failure(format!(
                    "interval {} starts ({}) before interval {} ends ({}); intervals must be in time order and must not overlap",
                    i + 1,
                    iso(s[2 * i]),
                    i,
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

/// Parses an ISO 8601 instant: a date (`2020-05-18`, midnight UTC) or an RFC 3339 date-time
/// with a zone (`2020-05-18T13:40:00Z`, `2020-05-18T15:40:00+02:00`). Fractions of a second are
/// refused: rumi stores whole seconds.
pub fn parse_instant(text: &str) -> Result<i64, String> {
    if let Ok(dt) = time::OffsetDateTime::parse(text, &Rfc3339) {
        if dt.nanosecond() != 0 {
            return Err(format!("{text:?} has a fraction of a second; rumi stores whole seconds"));
        }
        return Ok(dt.unix_timestamp());
    }
    rumi::format::trailer::parse_iso(text)
}

/// Parses `START/END` (END exclusive, after START).
pub fn parse_interval(text: &str) -> Result<(i64, i64), String> {
    let (a, b) = text.split_once('/').ok_or_else(|| format!("{text:?} is not an interval START/END"))?;
    let (a, b) = (parse_instant(a)?, parse_instant(b)?);
    if a >= b {
        return Err(format!("interval {text:?} is empty or reversed: START must be before END"));
    }
    Ok((a, b))
}

/// Metadata date-times: TIFF `YYYY:MM:DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS`,
/// `YYYY-MM-DDTHH:MM:SS` (all read as UTC), or anything [`parse_instant`] reads.
fn parse_metadata_time(text: &str) -> Result<i64, String> {
    let forms = [
        format_description!("[year]:[month]:[day] [hour]:[minute]:[second]"),
        format_description!("[year]-[month]-[day] [hour]:[minute]:[second]"),
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"),
    ];
    for f in forms {
        if let Ok(dt) = time::PrimitiveDateTime::parse(text, &f) {
            return Ok(dt.assume_utc().unix_timestamp());
        }
    }
    parse_instant(text)
        .map_err(|_| "not a date-time of a known form (YYYY:MM:DD HH:MM:SS, YYYY-MM-DD[THH:MM:SS[Z]])".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_intervals() {
        assert_eq!(parse_instant("1970-01-02").unwrap(), 86400);
        assert_eq!(parse_instant("1970-01-01T01:00:00+01:00").unwrap(), 0);
        assert!(parse_instant("1970-01-01T00:00:00.5Z").is_err());
        assert!(parse_instant("1970-01-01T00:00:00").is_err());
        assert_eq!(parse_interval("1970-01-01/1970-01-02").unwrap(), (0, 86400));
        assert!(parse_interval("1970-01-02/1970-01-01").is_err());
        assert!(parse_interval("1970-01-02").is_err());
    }

    #[test]
    fn metadata_forms() {
        assert_eq!(parse_metadata_time("1970:01:01 00:01:00").unwrap(), 60);
        assert_eq!(parse_metadata_time("1970-01-01 00:01:00").unwrap(), 60);
        assert_eq!(parse_metadata_time("1970-01-01T00:01:00Z").unwrap(), 60);
        assert!(parse_metadata_time("yesterday").is_err());
    }
}
