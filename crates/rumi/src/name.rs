//! Dataset names of the form `RUMI:<path>` and `RUMI:"<path>":<t>` (one time step of a Cube):
//! how GDAL hosts, and the CLI reading what they name, refer to a file or one of its steps.

const SYNTAX: &str = "expected RUMI:<path> or RUMI:\"<path>\":<time index>";

/// The prefix of a dataset name (matched case-insensitively).
pub const PREFIX: &str = "RUMI:";

/// A parsed `RUMI:` dataset name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatasetName<'a> {
    /// the path as written (quoted: between the quotes; unquoted: everything after the prefix)
    pub path: &'a [u8],
    /// the time step (`RUMI:"<path>":<t>`)
    pub time: Option<u32>,
    /// the unquoted reading `RUMI:<head>:<t>` (how rasterio lists subdatasets), when the name
    /// has one: a host takes it when `path` is not a file but `head` is
    pub unquoted: Option<(&'a [u8], u32)>,
}

impl<'a> DatasetName<'a> {
    /// The file and time step a host opens: the unquoted reading when `is_file(path)` is false
    /// and `is_file(head)` is true, else the name as written.
    pub fn resolve(&self, is_file: impl Fn(&[u8]) -> bool) -> (&'a [u8], Option<u32>) {
        match self.unquoted {
            Some((head, t)) if !is_file(self.path) && is_file(head) => (head, Some(t)),
            _ => (self.path, self.time),
        }
    }
}

/// Whether `name` starts with `RUMI:` (any case).
pub fn is_dataset_name(name: &[u8]) -> bool {
    name.len() >= PREFIX.len() && name[..PREFIX.len()].eq_ignore_ascii_case(PREFIX.as_bytes())
}

fn time_index(digits: &[u8]) -> Option<u32> {
    let ok = !digits.is_empty() && digits.len() <= 9 && digits.iter().all(u8::is_ascii_digit);
    ok.then(|| digits.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')))
}

/// Parses a `RUMI:` name (`None` when `name` does not start with the prefix); bad syntax is an
/// error saying what was expected.
pub fn parse(name: &[u8]) -> Option<Result<DatasetName<'_>, String>> {
    if !is_dataset_name(name) {
        return None;
    }
    let shown = String::from_utf8_lossy(name);
    let rest = &name[PREFIX.len()..];
    if let Some(quoted) = rest.strip_prefix(b"\"") {
        let end = quoted.iter().rposition(|&c| c == b'"').filter(|&e| e > 0);
        let Some(end) = end else {
            return Some(Err(format!("invalid dataset name '{shown}': unterminated or empty quoted path; {SYNTAX}")));
        };
        let (path, tail) = (&quoted[..end], &quoted[end + 1..]);
        if tail.is_empty() {
            return Some(Ok(DatasetName { path, time: None, unquoted: None }));
        }
        return Some(match (tail[0], time_index(&tail[1..])) {
            (b':', Some(t)) => Ok(DatasetName { path, time: Some(t), unquoted: None }),
            _ => Err(format!(
                "invalid dataset name '{shown}': '{}' after the quoted path is not ':' followed by a time index \
                 (a non-negative integer); {SYNTAX}",
                String::from_utf8_lossy(tail)
            )),
        });
    }
    if rest.is_empty() {
        return Some(Err(format!("invalid dataset name '{shown}': no path; {SYNTAX}")));
    }
    let alt = rest.iter().rposition(|&c| c == b':').filter(|&c| c > 0);
    let unquoted = alt.and_then(|c| time_index(&rest[c + 1..]).map(|t| (&rest[..c], t)));
    Some(Ok(DatasetName { path: rest, time: None, unquoted }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(name: &str) -> DatasetName<'_> {
        parse(name.as_bytes()).unwrap().unwrap()
    }

    #[test]
    fn quoted_unquoted_and_bad_names() {
        assert_eq!(ok("RUMI:\"a b.rumi\":3"), DatasetName { path: b"a b.rumi", time: Some(3), unquoted: None });
        assert_eq!(ok("rumi:\"c.rumi\""), DatasetName { path: b"c.rumi", time: None, unquoted: None });
        let n = ok("rumi:/x/c.rumi:12");
        assert_eq!(n, DatasetName { path: b"/x/c.rumi:12", time: None, unquoted: Some((b"/x/c.rumi", 12)) });
        assert_eq!(n.resolve(|p| p == b"/x/c.rumi"), (&b"/x/c.rumi"[..], Some(12)));
        assert_eq!(n.resolve(|_| true), (&b"/x/c.rumi:12"[..], None));
        assert_eq!(ok("RUMI:c.rumi").unquoted, None);
        assert!(parse(b"c.rumi").is_none());
        let e = parse(b"RUMI:\"\":0").unwrap().unwrap_err();
        assert!(e.contains("unterminated or empty quoted path"), "{e}");
        let e = parse(b"RUMI:\"a\":x").unwrap().unwrap_err();
        assert!(e.contains("'x'") || e.contains("':x'"), "{e}");
        assert!(parse(b"RUMI:").unwrap().unwrap_err().contains("no path"));
    }
}
