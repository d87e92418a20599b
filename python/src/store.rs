//! `options={...}` of `rumi.open` -> the core's object-storage [`Options`] (the storage itself
//! lives in the core: `rumi::store`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rumi::store::Options;

/// The options a dict sets (None: the defaults); numbers in seconds, bytes or counts, and `env`:
/// a dict of `AWS_*` settings used instead of this process's environment.
pub fn options_from(d: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut o = Options::default();
    let Some(d) = d else { return Ok(o) };
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        if key == "env" {
            let env: std::collections::BTreeMap<String, String> = v
                .extract()
                .map_err(|_| PyValueError::new_err("option env must be a dict of AWS_* names to strings"))?;
            o.env = Some(env.into_iter().collect());
            continue;
        }
        let value: f64 = v.extract()?;
        o.set(&key, value).map_err(PyValueError::new_err)?;
    }
    Ok(o)
}
