//! The trailer: band descriptions and time coordinates (spec: "Trailer", "Band descriptions",
//! "Time coordinates", "Time residuals").

use crate::error::{Error, Limits, Measure, Result};
use crate::format::bitpack::{bit_length, pack, unpack, unzigzag, zigzag};
use crate::format::bytes::{packed_len, Cursor};

/// `TAIL`
pub const TRAILER_MAGIC: [u8; 4] = *b"TAIL";
const SECONDS_PER_DAY: i64 = 86400;

/// Whether each time step is an instant or an interval (`time_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    /// 1: each step covers `[time(2i), time(2i+1))`
    Interval,
    /// 2: each step is a point in time
    Instant,
}

impl TimeKind {
    fn code(self) -> u8 {
        match self {
            TimeKind::Interval => 1,
            TimeKind::Instant => 2,
        }
    }
}

/// The time axis: C coordinates in units of `scale` seconds since 1970-01-01T00:00:00Z.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeAxis {
    /// instant or interval
    pub kind: TimeKind,
    /// seconds per unit: 1 or 86400
    pub scale: u32,
    /// C coordinates (T for instants, 2T for intervals)
    pub coords: Vec<i64>,
}

/// One time step, in seconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeStep {
    /// a point in time
    Instant(i128),
    /// `[start, end)`
    Interval(i128, i128),
}

impl TimeAxis {
    /// Builds the axis from coordinates in seconds, choosing `time_scale` as the spec requires
    /// and checking the ordering rules. `times` is T.
    pub fn from_seconds(kind: TimeKind, seconds: Vec<i64>, times: u32) -> Result<Self> {
        let expected = match kind {
            TimeKind::Instant => times as usize,
            TimeKind::Interval => times as usize * 2,
        };
        if seconds.len() != expected {
            return Err(Error::TimeCount { found: seconds.len(), expected });
        }
        let whole_days = seconds.iter().all(|s| s % SECONDS_PER_DAY == 0);
        let (scale, coords) =
            if whole_days { (86400, seconds.iter().map(|s| s / SECONDS_PER_DAY).collect()) } else { (1, seconds) };
        let axis = TimeAxis { kind, scale, coords };
        axis.check_order()?;
        Ok(axis)
    }

    fn check_order(&self) -> Result<()> {
        let c = &self.coords;
        match self.kind {
            TimeKind::Instant => {
                for i in 1..c.len() {
                    if c[i] < c[i - 1] {
                        return Err(Error::InstantOrder { index: i, value: c[i], previous: c[i - 1] });
                    }
                }
            }
            TimeKind::Interval => {
                for i in 0..c.len() / 2 {
                    if c[2 * i] >= c[2 * i + 1] {
                        return Err(Error::IntervalEmpty { index: i, start: c[2 * i], end: c[2 * i + 1] });
                    }
                    if i > 0 && c[2 * i - 1] > c[2 * i] {
                        return Err(Error::IntervalOverlap { index: i, start: c[2 * i], previous_end: c[2 * i - 1] });
                    }
                }
            }
        }
        Ok(())
    }

    /// Number of time steps T.
    pub fn steps(&self) -> usize {
        match self.kind {
            TimeKind::Instant => self.coords.len(),
            TimeKind::Interval => self.coords.len() / 2,
        }
    }

    /// Time step `i` in seconds since the epoch.
    pub fn step(&self, i: usize) -> TimeStep {
        let s = |v: i64| i128::from(v) * i128::from(self.scale);
        match self.kind {
            TimeKind::Instant => TimeStep::Instant(s(self.coords[i])),
            TimeKind::Interval => TimeStep::Interval(s(self.coords[2 * i]), s(self.coords[2 * i + 1])),
        }
    }

    /// ISO 8601 UTC text of a coordinate value in seconds; whole days print as dates when
    /// `time_scale` is 86400.
    pub fn iso(&self, seconds: i128) -> String {
        format_iso(seconds, self.scale == 86400)
    }

    /// ISO text of step `i`: the instant, or `start/end` for an interval.
    pub fn step_iso(&self, i: usize) -> String {
        match self.step(i) {
            TimeStep::Instant(t) => self.iso(t),
            TimeStep::Interval(a, b) => format!("{}/{}", self.iso(a), self.iso(b)),
        }
    }
}

/// Formats seconds since 1970 as ISO 8601 UTC (`YYYY-MM-DD` when `date_only`).
pub fn format_iso(seconds: i128, date_only: bool) -> String {
    let parsed = i64::try_from(seconds).ok().and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok());
    match parsed {
        Some(dt) => {
            let (y, m, d) = (dt.year(), u8::from(dt.month()), dt.day());
            // ISO 8601: four digits, and a sign before years outside 0000..=9999 (-0001, not -001)
            let year = match y {
                0..=9999 => format!("{y:04}"),
                ..=-1 => format!("-{:04}", y.unsigned_abs()),
                _ => format!("+{y}"),
            };
            if date_only {
                format!("{year}-{m:02}-{d:02}")
            } else {
                format!("{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", dt.hour(), dt.minute(), dt.second())
            }
        }
        None => format!("{seconds} s since 1970-01-01T00:00:00Z"),
    }
}

/// Parses an ISO 8601 date or date-time to seconds: [`super::time_text::parse_instant`] (the
/// one parser of time texts), a fraction of a second rounded to the nearest second.
pub fn parse_iso(text: &str) -> std::result::Result<i64, String> {
    super::time_text::parse_instant(text).map(|i| i.seconds)
}

/// The parsed trailer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trailer {
    /// One text per band.
    pub band_texts: Vec<String>,
    /// The time axis.
    pub time: TimeAxis,
}

/// `time_step = round((time(C-1) - time(0)) / (C-1))`, halves toward +infinity.
/// `None` when the slope does not fit in int64.
pub fn time_step(coords: &[i64]) -> Option<i64> {
    let c = coords.len();
    if c < 2 {
        return Some(0);
    }
    let diff = i128::from(coords[c - 1]) - i128::from(coords[0]);
    let n = (c - 1) as i128;
    // floor((2*diff + n) / (2n)) is round-half-up of diff / n.
    let q = (2 * diff + n).div_euclid(2 * n);
    i64::try_from(q).ok()
}

fn check_texts(texts: &[String]) -> Result<()> {
    for (i, t) in texts.iter().enumerate() {
        if t.is_empty() {
            return Err(Error::BandTextEmpty(i));
        }
        if t.as_bytes().contains(&0) {
            return Err(Error::BandTextNul(i));
        }
        if t.len() > usize::from(u16::MAX) {
            return Err(Error::BandTextTooLong { index: i, len: t.len() });
        }
    }
    let mut sorted: Vec<(usize, &String)> = texts.iter().enumerate().collect();
    sorted.sort_by(|a, b| a.1.cmp(b.1));
    for w in sorted.windows(2) {
        if w[0].1 == w[1].1 {
            let (first, second) = (w[0].0.min(w[1].0), w[0].0.max(w[1].0));
            return Err(Error::BandTextDuplicate { first, second, text: w[0].1.clone() });
        }
    }
    Ok(())
}

impl Trailer {
    /// Serialises the trailer (spec layout, minimal `time_bits`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        check_texts(&self.band_texts)?;
        self.time.check_order()?;
        let c = &self.time.coords;
        let epoch = c.first().copied().unwrap_or(0);
        let step = time_step(c).ok_or(Error::TimeOverflow { index: c.len().saturating_sub(1), what: "time_step" })?;
        let mut packed = Vec::with_capacity(c.len());
        for (i, &v) in c.iter().enumerate() {
            let predicted = i128::from(epoch) + (i as i128) * i128::from(step);
            let r = i64::try_from(i128::from(v) - predicted)
                .map_err(|_| Error::TimeOverflow { index: i, what: "residual" })?;
            packed.push(zigzag(r));
        }
        let bits = bit_length(packed.iter().copied().max().unwrap_or(0));
        let mut out = Vec::new();
        out.extend_from_slice(&TRAILER_MAGIC);
        out.extend_from_slice(&1u16.to_le_bytes());
        for t in &self.band_texts {
            out.extend_from_slice(&(t.len() as u16).to_le_bytes());
            out.extend_from_slice(t.as_bytes());
        }
        out.push(self.time.kind.code());
        out.push(bits as u8);
        out.extend_from_slice(&epoch.to_le_bytes());
        out.extend_from_slice(&step.to_le_bytes());
        out.extend_from_slice(&self.time.scale.to_le_bytes());
        out.extend_from_slice(&pack(&packed, bits));
        Ok(out)
    }

    /// Parses and validates a trailer of a file with `bands` bands and `times` time steps.
    /// `bytes` is everything from the trailer offset to the end of the file; `base` its offset.
    pub fn parse(bytes: &[u8], bands: u16, times: u32, base: u64, limits: &Limits) -> Result<Self> {
        if times == 0 {
            return Err(Error::ZeroDimension("TimeCount"));
        }
        Limits::check(Measure::TrailerSize, bytes.len() as u64, limits.max_trailer_bytes)?;
        let mut c = Cursor::new(bytes, base, "trailer");
        let magic: [u8; 4] = c.array()?;
        if magic != TRAILER_MAGIC {
            return Err(Error::TrailerMagic { found: magic });
        }
        let version = c.u16()?;
        if version != 1 {
            return Err(Error::TrailerVersion(version));
        }
        let band_texts = parse_band_texts(&mut c, bands, bytes.len())?;
        check_texts(&band_texts)?;
        let time = parse_time_axis(&mut c, bytes.len(), times, limits)?;
        Ok(Trailer { band_texts, time })
    }
}

/// The `bands` band texts at the cursor (a trailer of `len` bytes): each non-empty UTF-8
/// without NUL.
fn parse_band_texts(c: &mut Cursor<'_>, bands: u16, len: usize) -> Result<Vec<String>> {
    let mut band_texts = Vec::with_capacity(usize::from(bands).min(len / 2));
    for i in 0..usize::from(bands) {
        let n = c.u16()?;
        let raw = c.take(usize::from(n))?;
        if raw.is_empty() {
            return Err(Error::BandTextEmpty(i));
        }
        if raw.contains(&0) {
            return Err(Error::BandTextNul(i));
        }
        let text = std::str::from_utf8(raw).map_err(|_| Error::BandTextUtf8(i))?;
        band_texts.push(text.to_owned());
    }
    check_texts(&band_texts)?;
    Ok(band_texts)
}

/// The time axis at the cursor, for `times` steps: the packed coordinates, which must fill
/// the trailer of `len` bytes exactly and be packed minimally (epoch, step, bits, scale).
fn parse_time_axis(c: &mut Cursor<'_>, len: usize, times: u32, limits: &Limits) -> Result<TimeAxis> {
    let time_type = c.u8()?;
    let kind = match time_type {
        1 => TimeKind::Interval,
        2 => TimeKind::Instant,
        other => return Err(Error::TimeType(other)),
    };
    let bits = c.u8()?;
    if bits > 64 {
        return Err(Error::TimeBits(bits));
    }
    let epoch = c.i64()?;
    let step = c.i64()?;
    let scale = c.u32()?;
    if scale != 1 && scale != 86400 {
        return Err(Error::TimeScale(scale));
    }
    let count = match kind {
        TimeKind::Instant => u64::from(times),
        TimeKind::Interval => u64::from(times) * 2,
    };
    Limits::check(Measure::TimeCoordCount, count, limits.max_time_coords)?;
    let region_len = packed_len(count, u32::from(bits))?;
    let fixed = c.position() as u64;
    let expected = fixed + region_len;
    if len as u64 != expected {
        return Err(Error::TrailerSize { found: len as u64, expected });
    }
    let region = c.take(region_len as usize)?;
    let packed = unpack(region, count as usize, u32::from(bits), "time residuals")?;
    let mut coords = Vec::with_capacity(count as usize);
    for (i, &p) in packed.iter().enumerate() {
        let v = i128::from(epoch) + (i as i128) * i128::from(step) + i128::from(unzigzag(p));
        coords.push(i64::try_from(v).map_err(|_| Error::TimeOverflow { index: i, what: "coordinate" })?);
    }
    // C >= 1 because T > 0; `first` only avoids an index.
    let first = coords.first().copied().unwrap_or(epoch);
    if first != epoch {
        return Err(Error::TimeEpoch { found: epoch, expected: first });
    }
    let expected_step =
        time_step(&coords).ok_or(Error::TimeOverflow { index: coords.len().saturating_sub(1), what: "time_step" })?;
    if expected_step != step {
        return Err(Error::TimeStep { found: step, expected: expected_step });
    }
    let max_packed = packed.iter().copied().max().unwrap_or(0);
    let min_bits = bit_length(max_packed) as u8;
    if min_bits != bits {
        return Err(Error::TimeBitsNotMinimal { found: bits, expected: min_bits });
    }
    if scale == 1 && coords.iter().all(|v| v % SECONDS_PER_DAY == 0) {
        return Err(Error::TimeScaleNotMinimal);
    }
    let time = TimeAxis { kind, scale, coords };
    time.check_order()?;
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_years_have_four_digits_and_a_sign_before_year_zero() {
        let year_minus_1 = parse_iso("-0001-01-01").unwrap();
        assert_eq!(format_iso(i128::from(year_minus_1), true), "-0001-01-01");
        assert_eq!(format_iso(i128::from(parse_iso("0000-03-01").unwrap()), true), "0000-03-01");
        assert_eq!(format_iso(i128::from(parse_iso("0999-12-31").unwrap()), false), "0999-12-31T00:00:00Z");
        assert_eq!(format_iso(i128::from(parse_iso("-9999-01-01").unwrap()), true), "-9999-01-01");
    }

    #[test]
    fn step_rounds_halves_up() {
        assert_eq!(time_step(&[0, 3]), Some(3));
        assert_eq!(time_step(&[0, 5, 1]), Some(1)); // 1/2 -> 1
        assert_eq!(time_step(&[0, 5, -1]), Some(0)); // -1/2 -> 0
        assert_eq!(time_step(&[0, 0, -3]), Some(-1)); // -3/2 -> -1
        assert_eq!(time_step(&[i64::MIN, i64::MAX]), None);
        assert_eq!(time_step(&[i64::MIN, 0, i64::MAX - 1]), Some(i64::MAX));
    }

    #[test]
    fn round_trip_with_residuals() {
        let time =
            TimeAxis::from_seconds(TimeKind::Instant, vec![-86400 * 3, 10, 86400 * 7, 86400 * 7 + 5], 4).unwrap();
        assert_eq!(time.scale, 1);
        let t = Trailer { band_texts: vec!["B4, Red".into(), "NIR".into()], time };
        let bytes = t.to_bytes().unwrap();
        assert_eq!(Trailer::parse(&bytes, 2, 4, 0, &Limits::default()).unwrap(), t);
    }

    #[test]
    fn whole_days_use_day_scale() {
        let time = TimeAxis::from_seconds(TimeKind::Interval, vec![0, 86400, 86400, 2 * 86400], 2).unwrap();
        assert_eq!(time.scale, 86400);
        assert_eq!(time.coords, vec![0, 1, 1, 2]);
        assert_eq!(time.step_iso(1), "1970-01-02/1970-01-03");
    }

    #[test]
    fn iso_parsing() {
        assert_eq!(parse_iso("1970-01-02").unwrap(), 86400);
        assert_eq!(parse_iso("1969-12-31T23:59:59Z").unwrap(), -1);
        assert!(parse_iso("yesterday").is_err());
    }
}
