//! What GDAL keeps in its PAM sidecar `<OUT>.aux.xml` ([`AUX_SUFFIX`]) and rumi has no field
//! for: per band, the nodata value, the scale, offset and unit of the values (`<Scale>`,
//! `<Offset>`, `<UnitType>`: a value is `raw * scale + offset` in `unit`), the colour
//! interpretation (`Red`, `Gray`, `Palette`...) and the colour table (palette). Every writer
//! that knows them writes the sidecar (nodata, scale, offset, unit: the CLI's
//! `convert`/`stack` and Python's `rumi.write`/`rumi.Writer`; colour: the CLI, from its GDAL
//! sources), and the GDAL driver loads it as a PAM dataset (gdalinfo, rasterio and QGIS then
//! report them, as GDAL does for any format without such fields). [`parse`] is the one reader
//! of a sidecar (rumi's or one GDAL saved): the CLI's `info` and the Python package use it. Bands are numbered as the driver
//! numbers them: `t * B + b + 1` when a Cube is opened whole, `b + 1` in the
//! `<Subdataset name="t">` entry that `RUMI:"OUT":t` reads.
//!
//! A sidecar holding nothing but such entries is rumi's own ([`is_ours`]): a rewrite replaces
//! or removes it. Anything else in it (statistics, histograms, metadata GDAL saved) belongs to
//! the user and is treated as a derived sidecar.

/// The PAM sidecar's suffix: `<file>.aux.xml`.
pub const AUX_SUFFIX: &str = ".aux.xml";

/// Nodata value per GDAL band of the whole file (`t * B + b`), as text GDAL parses.
pub struct Nodata {
    /// B
    pub bands: usize,
    /// T * B entries
    pub values: Vec<Option<String>>,
}

impl Nodata {
    /// True when no band has a nodata value.
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(Option::is_none)
    }

    /// The `<OUT>.aux.xml` text.
    pub fn render(&self) -> String {
        Pam::from(self).render()
    }
}

/// What the PAM sidecar records of one GDAL band.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BandPam {
    /// the nodata value, as text GDAL parses
    pub nodata: Option<String>,
    /// GDAL's name of the colour interpretation (`Gray`, `Red`, `Palette`, `Alpha`...; what
    /// `GDALGetColorInterpretationName` gives); `None` (or `Undefined`) records none
    pub color_interp: Option<String>,
    /// the colour table: an RGB(A) palette's entries `(c1, c2, c3, c4)` = (red, green, blue,
    /// alpha), as GDAL's `GDALColorEntry` (GDAL's PAM records RGB palettes only)
    pub color_table: Option<Vec<[i16; 4]>>,
    /// the scale of the values (GDAL's `GetScale`; a value is `raw * scale + offset`); `None`:
    /// none (1). Written only when finite ([`BandPam::check`]).
    pub scale: Option<f64>,
    /// the offset of the values (GDAL's `GetOffset`); `None`: none (0)
    pub offset: Option<f64>,
    /// the unit of the values (GDAL's `GetUnitType`: `metre`, `ft`, `K`...); `None` or empty:
    /// none
    pub unit: Option<String>,
}

impl BandPam {
    fn is_empty(&self) -> bool {
        self.nodata.is_none()
            && self.interp().is_none()
            && self.color_table.is_none()
            && !self.is_scaled()
            && self.unit_type().is_none()
    }

    /// True when the band has a scale or an offset (GDAL's PAM then records both).
    pub fn is_scaled(&self) -> bool {
        self.scale.is_some() || self.offset.is_some()
    }

    fn unit_type(&self) -> Option<&str> {
        self.unit.as_deref().filter(|u| !u.is_empty())
    }

    /// A problem with what would be written: a scale or offset that is not a finite number
    /// (GDAL would read NaN or infinity back and scale every value to it).
    pub fn check(&self) -> Result<(), PamError> {
        for (what, v) in [("scale", self.scale), ("offset", self.offset)] {
            if let Some(v) = v.filter(|v| !v.is_finite()) {
                return Err(PamError(format!("the {what} {v} is not a finite number")));
            }
        }
        Ok(())
    }

    fn interp(&self) -> Option<&str> {
        self.color_interp.as_deref().filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("Undefined"))
    }

    fn render(&self, o: &mut String, indent: &str, n: usize) {
        o.push_str(&format!("{indent}<PAMRasterBand band=\"{n}\">\n"));
        if let Some(v) = &self.nodata {
            o.push_str(&format!("{indent}  <NoDataValue>{}</NoDataValue>\n", escape(v)));
        }
        if let Some(u) = self.unit_type() {
            o.push_str(&format!("{indent}  <UnitType>{}</UnitType>\n", escape(u)));
        }
        // both, as GDAL's PAM writes them (a missing one is read as its default)
        if self.is_scaled() {
            let (offset, scale) = (self.offset.unwrap_or(0.0), self.scale.unwrap_or(1.0));
            o.push_str(&format!("{indent}  <Offset>{}</Offset>\n", number(offset)));
            o.push_str(&format!("{indent}  <Scale>{}</Scale>\n", number(scale)));
        }
        if let Some(c) = self.interp() {
            o.push_str(&format!("{indent}  <ColorInterp>{}</ColorInterp>\n", escape(c)));
        }
        if let Some(t) = &self.color_table {
            o.push_str(&format!("{indent}  <ColorTable>\n"));
            for [c1, c2, c3, c4] in t {
                o.push_str(&format!("{indent}    <Entry c1=\"{c1}\" c2=\"{c2}\" c3=\"{c3}\" c4=\"{c4}\" />\n"));
            }
            o.push_str(&format!("{indent}  </ColorTable>\n"));
        }
        o.push_str(&format!("{indent}</PAMRasterBand>\n"));
    }
}

/// The PAM sidecar of a whole file: one [`BandPam`] per GDAL band (`t * B + b`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pam {
    /// B
    pub bands: usize,
    /// T * B entries
    pub values: Vec<BandPam>,
}

impl From<&Nodata> for Pam {
    fn from(n: &Nodata) -> Self {
        let values = n.values.iter().map(|v| BandPam { nodata: v.clone(), ..BandPam::default() }).collect();
        Pam { bands: n.bands, values }
    }
}

impl Pam {
    /// True when no band records anything (no sidecar is needed).
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(BandPam::is_empty)
    }

    /// True when some band has a nodata value.
    pub fn has_nodata(&self) -> bool {
        self.values.iter().any(|v| v.nodata.is_some())
    }

    /// True when some band has a colour interpretation or a colour table.
    pub fn has_color(&self) -> bool {
        self.values.iter().any(|v| v.interp().is_some() || v.color_table.is_some())
    }

    /// True when some band has a scale, an offset or a unit.
    pub fn has_scale_or_unit(&self) -> bool {
        self.values.iter().any(|v| v.is_scaled() || v.unit_type().is_some())
    }

    /// The first band whose values cannot be written ([`BandPam::check`]), named by its
    /// GDAL band number.
    pub fn check(&self) -> Result<(), PamError> {
        for (i, v) in self.values.iter().enumerate() {
            v.check().map_err(|e| PamError(format!("band {}: {e}", i + 1)))?;
        }
        Ok(())
    }

    /// The `<OUT>.aux.xml` text: the whole file's bands, then (for a Cube) each time step's
    /// bands in its `Subdataset` entry.
    pub fn render(&self) -> String {
        let times = self.values.len().checked_div(self.bands).unwrap_or(0);
        let mut o = String::from("<PAMDataset>\n");
        for (i, v) in self.values.iter().enumerate() {
            if !v.is_empty() {
                v.render(&mut o, "  ", i + 1);
            }
        }
        if times > 1 {
            for t in 0..times {
                let slice = &self.values[t * self.bands..(t + 1) * self.bands];
                if slice.iter().all(BandPam::is_empty) {
                    continue;
                }
                o.push_str(&format!("  <Subdataset name=\"{t}\">\n    <PAMDataset>\n"));
                for (b, v) in slice.iter().enumerate() {
                    if !v.is_empty() {
                        v.render(&mut o, "      ", b + 1);
                    }
                }
                o.push_str("    </PAMDataset>\n  </Subdataset>\n");
            }
        }
        o.push_str("</PAMDataset>\n");
        o
    }
}

/// A scale or offset as text: the shortest that parses back to the same f64 (Rust's `{:?}`:
/// `0.5`, `100.0`, `2.75e-5`, `1e300`), which GDAL's `CPLAtof` reads exactly.
fn number(v: f64) -> String {
    format!("{v:?}")
}

fn escape(v: &str) -> String {
    v.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// True when `text` holds only what [`Pam::render`] writes (any whitespace): PAMDataset,
/// Subdataset, PAMRasterBand, NoDataValue, UnitType, Offset, Scale, ColorInterp, and ColorTable
/// elements with their numeric Entry elements.
pub fn is_ours(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    let mut in_value = false;
    let mut saw_root = false;
    while let Some(start) = rest.find('<') {
        let between = &rest[..start];
        if !in_value && !between.trim().is_empty() {
            return false;
        }
        let Some(end) = rest[start..].find('>') else { return false };
        let tag = &rest[start + 1..start + end];
        rest = &rest[start + end + 1..];
        let name = tag.split_whitespace().next().unwrap_or("");
        let attrs = tag[name.len()..].trim();
        let numbered = |key: &str| {
            attrs
                .strip_prefix(key)
                .and_then(|r| r.strip_prefix("=\""))
                .and_then(|r| r.strip_suffix('"'))
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
        };
        let ok = match name {
            "PAMDataset" => {
                saw_root = true;
                attrs.is_empty()
            }
            "/PAMDataset" | "/PAMRasterBand" | "/Subdataset" | "ColorTable" | "/ColorTable" => attrs.is_empty(),
            "PAMRasterBand" => numbered("band"),
            "Subdataset" => numbered("name"),
            "NoDataValue" | "ColorInterp" | "UnitType" | "Offset" | "Scale" => {
                in_value = true;
                attrs.is_empty()
            }
            "/NoDataValue" | "/ColorInterp" | "/UnitType" | "/Offset" | "/Scale" => {
                in_value = false;
                attrs.is_empty()
            }
            "Entry" => is_entry(attrs),
            _ => name.starts_with('?') && tag.ends_with('?'), // an XML declaration
        };
        if !ok {
            return false;
        }
    }
    saw_root && rest.trim().is_empty()
}

/// The attributes of a colour table's `<Entry c1="0" c2="0" c3="0" c4="255" />`: c1 to c4 in
/// order, each an integer.
fn is_entry(attrs: &str) -> bool {
    let Some(attrs) = attrs.strip_suffix('/') else { return false };
    let mut keys = attrs.split_whitespace();
    let ok = ["c1", "c2", "c3", "c4"].iter().all(|key| {
        keys.next()
            .and_then(|kv| kv.strip_prefix(key))
            .and_then(|r| r.strip_prefix("=\""))
            .and_then(|r| r.strip_suffix('"'))
            .is_some_and(|v| v.parse::<i16>().is_ok())
    });
    ok && keys.next().is_none()
}

/// A PAM sidecar that cannot be read, or values that cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PamError(pub String);

/// What a PAM sidecar (rumi's or one GDAL saved, with statistics or metadata besides) records of
/// the whole file's bands: `(GDAL band number from 1, its entry)` in the order of the text, one
/// per band (a band listed twice takes the later values, as GDAL does). The per-time-step
/// `Subdataset` entries and everything but nodata, scale, offset, unit and colour
/// interpretation are skipped (the colour table is not read back). Errors name the problem:
/// text that is not XML or not a `<PAMDataset>`, a band number that is not one, a scale or
/// offset that is not a finite number, a band with `<Scale>` but no `<Offset>` or the reverse
/// (GDAL ignores both then: reporting one would differ from GDAL, ignoring it would hide it).
pub fn parse(text: &str) -> Result<Vec<(u32, BandPam)>, PamError> {
    use quick_xml::events::Event;
    let err = |m: String| PamError(format!("not a GDAL PAM sidecar: {m}"));
    let mut reader = quick_xml::Reader::from_str(text.trim_start_matches('\u{feff}'));
    let mut out: Vec<(u32, BandPam)> = Vec::new();
    // open elements' names; the band being read (its index in `out`); the value being read
    let mut path: Vec<String> = Vec::new();
    let mut band: Option<usize> = None;
    let mut value = String::new();
    let mut saw_root = false;
    loop {
        let ev = reader.read_event().map_err(|e| err(format!("{e} at byte {}", reader.error_position())))?;
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if path.is_empty() && name != "PAMDataset" {
                    return Err(err(format!("the root element is <{name}>, not <PAMDataset>")));
                }
                if path.len() == 1 && name == "PAMRasterBand" {
                    let n = e
                        .try_get_attribute("band")
                        .map_err(|e| err(e.to_string()))?
                        .map(|a| String::from_utf8_lossy(&a.value).into_owned());
                    let n = match n.as_deref().map(str::trim).map(str::parse::<u32>) {
                        Some(Ok(n)) if n >= 1 => n,
                        _ => return Err(err(format!("<PAMRasterBand band={n:?}> is not a band number (from 1)"))),
                    };
                    let i = match out.iter().position(|(b, _)| *b == n) {
                        Some(i) => i,
                        None => {
                            out.push((n, BandPam::default()));
                            out.len() - 1
                        }
                    };
                    band = Some(i);
                }
                value.clear();
                if matches!(ev, Event::Start(_)) {
                    path.push(name);
                } else if path.len() == 2 {
                    band_value(&mut out, band, &name, "")?;
                } else if path.len() == 1 && name == "PAMRasterBand" {
                    band = None;
                }
                saw_root = true;
            }
            Event::End(_) => {
                let name = path.pop().unwrap_or_default();
                if path.len() == 2 && band.is_some() {
                    band_value(&mut out, band, &name, &value)?;
                } else if path.len() == 1 && name == "PAMRasterBand" {
                    band = None;
                }
                value.clear();
            }
            Event::Text(t) => {
                value.push_str(&t.xml10_content().map_err(|e| err(e.to_string()))?);
            }
            Event::CData(t) => value.push_str(&t.decode().map_err(|e| err(e.to_string()))?),
            Event::GeneralRef(r) => {
                if let Some(c) = r.resolve_char_ref().map_err(|e| err(e.to_string()))? {
                    value.push(c);
                } else {
                    let name = r.decode().map_err(|e| err(e.to_string()))?;
                    match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(v) => value.push_str(v),
                        None => return Err(err(format!("unknown entity &{name};"))),
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !path.is_empty() {
        return Err(err(format!("<{}> is not closed", path.last().map(String::as_str).unwrap_or(""))));
    }
    if !saw_root {
        return Err(err("no <PAMDataset>".into()));
    }
    Ok(out)
}

/// Keeps the value of the element `name` (text `v`) of the band `out[band]`.
fn band_value(out: &mut [(u32, BandPam)], band: Option<usize>, name: &str, v: &str) -> Result<(), PamError> {
    let Some(i) = band else { return Ok(()) };
    let (n, b) = &mut out[i];
    let number = |what: &str| -> Result<f64, PamError> {
        let t = v.trim();
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => Err(PamError(format!("band {n}: the {what} {t:?} is not a finite number"))),
            Err(_) => Err(PamError(format!("band {n}: the {what} {t:?} is not a number"))),
        }
    };
    match name {
        "NoDataValue" => b.nodata = Some(v.trim().to_string()),
        // one without the other: GDAL's PAM sets both, the missing one to its default (scale 1, offset 0)
        "Scale" => {
            b.scale = Some(number("scale")?);
            b.offset.get_or_insert(0.0);
        }
        "Offset" => {
            b.offset = Some(number("offset")?);
            b.scale.get_or_insert(1.0);
        }
        "UnitType" => b.unit = Some(v.to_string()).filter(|u| !u.is_empty()),
        "ColorInterp" => b.color_interp = Some(v.trim().to_string()),
        _ => {}
    }
    Ok(())
}

/// The nodata values of the whole file's GDAL bands (1-based GDAL band number, text) that
/// [`parse`] reads (none when it cannot).
pub fn top_level_nodata(text: &str) -> Vec<(u32, String)> {
    parse(text).unwrap_or_default().into_iter().filter_map(|(n, b)| b.nodata.map(|v| (n, v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_and_recognises() {
        let n = Nodata { bands: 2, values: vec![Some("-9999".into()), None, Some("nan".into()), Some("0".into())] };
        let t = n.render();
        assert!(t.contains("<PAMRasterBand band=\"3\">\n    <NoDataValue>nan</NoDataValue>"), "{t}");
        assert!(t.contains("<Subdataset name=\"1\">\n    <PAMDataset>\n      <PAMRasterBand band=\"1\">"), "{t}");
        assert!(is_ours(&t));
        assert_eq!(top_level_nodata(&t), [(1, "-9999".to_string()), (3, "nan".into()), (4, "0".into())]);
        assert!(is_ours(
            "<PAMDataset><PAMRasterBand band=\"1\"><NoDataValue>1</NoDataValue></PAMRasterBand></PAMDataset>"
        ));
        let stats =
            t.replace("</PAMDataset>\n", "<Metadata><MDI key=\"STATISTICS_MEAN\">3</MDI></Metadata></PAMDataset>\n");
        assert!(!is_ours(&stats));
        assert!(!is_ours(
            "<PAMDataset><PAMRasterBand band=\"1\"><Description>x</Description></PAMRasterBand></PAMDataset>"
        ));
        assert!(!is_ours("not xml"));
        assert!(!is_ours("<PAMDataset><PAMRasterBand band=\"1\"><ColorTable><Entry c1=\"1\" c2=\"x\" c3=\"3\" c4=\"4\" /></ColorTable></PAMRasterBand></PAMDataset>"));
        assert!(!is_ours(""));
    }

    #[test]
    fn colour_interpretation_and_tables() {
        let red = BandPam { color_interp: Some("Red".into()), ..BandPam::default() };
        let palette = BandPam {
            nodata: Some("0".into()),
            color_interp: Some("Palette".into()),
            color_table: Some(vec![[0, 0, 0, 255], [255, 10, 20, 0]]),
            ..BandPam::default()
        };
        let undefined = BandPam { color_interp: Some("Undefined".into()), ..BandPam::default() };
        let pam = Pam { bands: 2, values: vec![red, undefined.clone(), palette, undefined] };
        assert!(pam.has_color() && pam.has_nodata() && !pam.is_empty());
        let t = pam.render();
        assert!(
            t.contains("  <PAMRasterBand band=\"1\">\n    <ColorInterp>Red</ColorInterp>\n  </PAMRasterBand>\n"),
            "{t}"
        );
        assert!(!t.contains("band=\"2\"") && !t.contains("Undefined"), "{t}");
        assert!(
            t.contains(
                "  <PAMRasterBand band=\"3\">\n    <NoDataValue>0</NoDataValue>\n    <ColorInterp>Palette</ColorInterp>\n    \
                 <ColorTable>\n      <Entry c1=\"0\" c2=\"0\" c3=\"0\" c4=\"255\" />\n      <Entry c1=\"255\" c2=\"10\" c3=\"20\" c4=\"0\" />\n    </ColorTable>\n"
            ),
            "{t}"
        );
        // the time step's own entry, band numbered within it
        assert!(t.contains("<Subdataset name=\"1\">\n    <PAMDataset>\n      <PAMRasterBand band=\"1\">\n        <NoDataValue>0</NoDataValue>"), "{t}");
        assert!(is_ours(&t), "{t}");
        assert_eq!(top_level_nodata(&t), [(3, "0".to_string())]);
        let nothing =
            Pam { bands: 1, values: vec![BandPam { color_interp: Some("Undefined".into()), ..BandPam::default() }] };
        assert!(nothing.is_empty() && !nothing.has_color());
        // Nodata renders as before (what Python's writer gives)
        let n = Nodata { bands: 1, values: vec![Some("-1".into())] };
        assert_eq!(n.render(), "<PAMDataset>\n  <PAMRasterBand band=\"1\">\n    <NoDataValue>-1</NoDataValue>\n  </PAMRasterBand>\n</PAMDataset>\n");
    }

    #[test]
    fn scale_offset_unit_round_trip() {
        let landsat = BandPam { scale: Some(2.75e-5), offset: Some(-0.2), ..BandPam::default() };
        let s2 = BandPam { scale: Some(1e-4), offset: Some(-1000.0), unit: Some("1".into()), ..BandPam::default() };
        let feet = BandPam { unit: Some("ft & <inches>".into()), nodata: Some("-9999".into()), ..BandPam::default() };
        let huge = BandPam { scale: Some(f64::MAX), offset: Some(f64::MIN_POSITIVE), ..BandPam::default() };
        let only_scale = BandPam { scale: Some(0.5), ..BandPam::default() };
        let pam = Pam { bands: 5, values: vec![landsat, s2, feet, huge, only_scale] };
        assert!(pam.has_scale_or_unit() && pam.check().is_ok());
        let t = pam.render();
        assert!(t.contains("    <Offset>-0.2</Offset>\n    <Scale>2.75e-5</Scale>\n"), "{t}");
        assert!(t.contains("<UnitType>ft &amp; &lt;inches&gt;</UnitType>"), "{t}");
        // GDAL's PAM reads a scale only beside an offset: both are written
        assert!(t.contains("<PAMRasterBand band=\"5\">\n    <Offset>0.0</Offset>\n    <Scale>0.5</Scale>"), "{t}");
        assert!(is_ours(&t), "{t}");
        let back = parse(&t).unwrap();
        let nums: Vec<u32> = back.iter().map(|(n, _)| *n).collect();
        assert_eq!(nums, [1, 2, 3, 4, 5]);
        for ((_, got), want) in back.iter().zip(&pam.values) {
            assert_eq!(
                got.scale.map(f64::to_bits),
                want.scale.map(f64::to_bits).or(want.offset.map(|_| 1f64.to_bits()))
            );
            assert_eq!(
                got.offset.map(f64::to_bits),
                want.offset.map(f64::to_bits).or(want.scale.map(|_| 0f64.to_bits()))
            );
            assert_eq!(got.unit, want.unit);
            assert_eq!(got.nodata, want.nodata);
        }
        assert_eq!(top_level_nodata(&t), [(3, "-9999".to_string())]);
        // a Cube: the per-time-step entries are not the whole file's bands
        let cube = Pam { bands: 1, values: vec![pam.values[0].clone(), pam.values[0].clone()] };
        let t = cube.render();
        assert!(t.contains("<Subdataset name=\"1\">"), "{t}");
        assert_eq!(parse(&t).unwrap().len(), 2);
    }

    #[test]
    fn hostile_values() {
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let p = Pam { bands: 1, values: vec![BandPam { offset: Some(v), ..BandPam::default() }] };
            let e = p.check().unwrap_err().to_string();
            assert!(e.starts_with("band 1: the offset") && e.ends_with("is not a finite number"), "{e}");
        }
        let band = |inner: &str| format!("<PAMDataset><PAMRasterBand band=\"2\">{inner}</PAMRasterBand></PAMDataset>");
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            e(&band("<Offset>0</Offset><Scale>nan</Scale>")),
            "band 2: the scale \"nan\" is not a finite number"
        );
        assert_eq!(
            e(&band("<Offset>-inf</Offset><Scale>1</Scale>")),
            "band 2: the offset \"-inf\" is not a finite number"
        );
        assert_eq!(
            e(&band("<Offset>1e999</Offset><Scale>1</Scale>")),
            "band 2: the offset \"1e999\" is not a finite number"
        );
        assert_eq!(e(&band("<Offset>0</Offset><Scale>half</Scale>")), "band 2: the scale \"half\" is not a number");
        assert_eq!(e(&band("<Offset>0</Offset><Scale/>")), "band 2: the scale \"\" is not a number");
        // one without the other: read as GDAL's PAM reads it, the other at its default
        let lone = parse(&band("<Scale>2</Scale>")).unwrap();
        assert_eq!((lone[0].0, lone[0].1.scale, lone[0].1.offset), (2, Some(2.0), Some(0.0)));
        let lone = parse(&band("<Offset>7</Offset>")).unwrap();
        assert_eq!((lone[0].0, lone[0].1.scale, lone[0].1.offset), (2, Some(1.0), Some(7.0)));
        let both = parse(&band("<Offset>7</Offset><Scale>2</Scale>")).unwrap();
        assert_eq!((both[0].1.scale, both[0].1.offset), (Some(2.0), Some(7.0)));
        assert!(e("<PAMDataset><PAMRasterBand band=\"0\"/></PAMDataset>").contains("is not a band number"));
        assert!(
            e("<PAMDataset><PAMRasterBand band=\"x\"></PAMRasterBand></PAMDataset>").contains("is not a band number")
        );
        assert!(e("<VRTDataset/>").contains("the root element is <VRTDataset>"));
        assert!(e("not xml").contains("not a GDAL PAM sidecar"));
        assert!(e("").contains("no <PAMDataset>"));
        assert!(e("<PAMDataset><PAMRasterBand band=\"1\">").contains("not closed"));
        assert!(e(&band("<UnitType>&bogus;</UnitType>")).contains("unknown entity"));
        // what GDAL saves besides (statistics, metadata, descriptions) is read past
        let gdal = "<?xml version=\"1.0\"?>\n<PAMDataset>\n  <Metadata><MDI key=\"A\">1</MDI></Metadata>\n  \
                    <PAMRasterBand band=\"1\">\n    <Description>elev</Description>\n    <NoDataValue le_hex_equiv=\"0000000000C0C3C0\">-1e4</NoDataValue>\n    \
                    <UnitType>m&#233;tre</UnitType>\n    <Offset>100</Offset>\n    <Scale>2.75e-05</Scale>\n    \
                    <Metadata><MDI key=\"STATISTICS_MEAN\">3</MDI></Metadata>\n  </PAMRasterBand>\n</PAMDataset>\n";
        let got = parse(gdal).unwrap();
        assert_eq!(got.len(), 1);
        let b = &got[0].1;
        assert_eq!(
            (b.scale, b.offset, b.unit.as_deref(), b.nodata.as_deref()),
            (Some(2.75e-5), Some(100.0), Some("m\u{e9}tre"), Some("-1e4"))
        );
        assert!(!is_ours(gdal));
    }
}
