//! What GDAL keeps in its PAM sidecar `<OUT>.aux.xml` ([`AUX_SUFFIX`]) and rumi has no field
//! for: per band, the nodata value, the colour interpretation (`Red`, `Gray`, `Palette`...) and
//! the colour table (palette). Every writer that knows them writes the sidecar (nodata: the
//! CLI's `convert`/`stack` and Python's `rumi.Writer`; colour: the CLI, from its GDAL sources),
//! and the GDAL driver loads it as a PAM dataset (gdalinfo, rasterio and QGIS then report
//! them, as GDAL does for any format without such fields). Bands are numbered as the driver
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BandPam {
    /// the nodata value, as text GDAL parses
    pub nodata: Option<String>,
    /// GDAL's name of the colour interpretation (`Gray`, `Red`, `Palette`, `Alpha`...; what
    /// `GDALGetColorInterpretationName` gives); `None` (or `Undefined`) records none
    pub color_interp: Option<String>,
    /// the colour table: an RGB(A) palette's entries `(c1, c2, c3, c4)` = (red, green, blue,
    /// alpha), as GDAL's `GDALColorEntry` (GDAL's PAM records RGB palettes only)
    pub color_table: Option<Vec<[i16; 4]>>,
}

impl BandPam {
    fn is_empty(&self) -> bool {
        self.nodata.is_none() && self.interp().is_none() && self.color_table.is_none()
    }

    fn interp(&self) -> Option<&str> {
        self.color_interp.as_deref().filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("Undefined"))
    }

    fn render(&self, o: &mut String, indent: &str, n: usize) {
        o.push_str(&format!("{indent}<PAMRasterBand band=\"{n}\">\n"));
        if let Some(v) = &self.nodata {
            o.push_str(&format!("{indent}  <NoDataValue>{}</NoDataValue>\n", escape(v)));
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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

fn escape(v: &str) -> String {
    v.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// True when `text` holds only what [`Pam::render`] writes (any whitespace): PAMDataset,
/// Subdataset, PAMRasterBand, NoDataValue, ColorInterp, and ColorTable elements with their
/// numeric Entry elements.
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
            "NoDataValue" | "ColorInterp" => {
                in_value = true;
                attrs.is_empty()
            }
            "/NoDataValue" | "/ColorInterp" => {
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

/// The nodata values of the whole file's GDAL bands (1-based GDAL band number, text) in a
/// sidecar [`is_ours`] accepts; the per-time-step `Subdataset` entries are skipped.
pub fn top_level_nodata(text: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let mut depth_sub = 0usize;
    let mut band: Option<u32> = None;
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let Some(end) = rest[start..].find('>') else { break };
        let tag = &rest[start + 1..start + end];
        let after = &rest[start + end + 1..];
        if tag.starts_with("Subdataset") {
            depth_sub += 1;
        } else if tag == "/Subdataset" {
            depth_sub = depth_sub.saturating_sub(1);
        } else if let Some(n) = tag.strip_prefix("PAMRasterBand band=\"").and_then(|r| r.strip_suffix('"')) {
            band = n.parse().ok();
        } else if tag.starts_with("NoDataValue") && depth_sub == 0 {
            if let (Some(b), Some(v)) = (band, after.split('<').next()) {
                out.push((b, v.trim().replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")));
            }
        }
        rest = after;
    }
    out
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
}
