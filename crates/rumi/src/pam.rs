//! Nodata for GDAL readers: rumi has no nodata field, so every writer that knows nodata
//! values (the CLI's `convert`/`stack`, Python's `rumi.Writer`) stores them in GDAL's PAM
//! sidecar `<OUT>.aux.xml` ([`AUX_SUFFIX`]), which the GDAL driver loads as a PAM
//! dataset (gdalinfo, rasterio and QGIS then report them). Bands are numbered as the driver
//! numbers them: `t * B + b + 1` when a Cube is opened whole, `b + 1` in the
//! `<Subdataset name="t">` entry that `RUMI:"OUT":t` reads.
//!
//! A sidecar holding nothing but such nodata entries is rumi's own ([`is_ours`]): a rewrite
//! replaces or removes it. Anything else in it (statistics, histograms, metadata GDAL saved)
//! belongs to the user and is treated as a derived sidecar.

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
        let times = self.values.len().checked_div(self.bands).unwrap_or(0);
        let mut o = String::from("<PAMDataset>\n");
        let band = |o: &mut String, indent: &str, n: usize, v: &str| {
            o.push_str(&format!(
                "{indent}<PAMRasterBand band=\"{n}\">\n{indent}  <NoDataValue>{}</NoDataValue>\n{indent}</PAMRasterBand>\n",
                escape(v)
            ));
        };
        for (i, v) in self.values.iter().enumerate() {
            if let Some(v) = v {
                band(&mut o, "  ", i + 1, v);
            }
        }
        if times > 1 {
            for t in 0..times {
                let slice = &self.values[t * self.bands..(t + 1) * self.bands];
                if slice.iter().all(Option::is_none) {
                    continue;
                }
                o.push_str(&format!("  <Subdataset name=\"{t}\">\n    <PAMDataset>\n"));
                for (b, v) in slice.iter().enumerate() {
                    if let Some(v) = v {
                        band(&mut o, "      ", b + 1, v);
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

/// True when `text` holds only what [`Nodata::render`] writes (any whitespace): PAMDataset,
/// Subdataset, PAMRasterBand and NoDataValue elements.
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
            "/PAMDataset" | "/PAMRasterBand" | "/Subdataset" => attrs.is_empty(),
            "PAMRasterBand" => numbered("band"),
            "Subdataset" => numbered("name"),
            "NoDataValue" => {
                in_value = true;
                true
            }
            "/NoDataValue" => {
                in_value = false;
                true
            }
            _ => name.starts_with('?') && tag.ends_with('?'), // an XML declaration
        };
        if !ok {
            return false;
        }
    }
    saw_root && rest.trim().is_empty()
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
        assert!(!is_ours(""));
    }
}
