//! `rumi catalog build|search|vrt`: catalogues of rumi files (GeoParquet 1.1, issue 16).
//!
//! One implementation serves the CLI and Python: this subcommand runs the `rumi` Python
//! package's `rumi.catalog.main` with the same arguments, so `rumi catalog build` and
//! `rumi.Catalog.build` write the identical table (schema in python/rumi/catalog.py). The
//! interpreter is `$RUMI_PYTHON`, else `python3` on PATH; it needs `pip install ./python[catalog]`.

use std::process::Command;

use clap::Args;

use crate::fail::{Failure, Res};

/// Arguments handed to `python -m rumi.catalog`.
#[derive(Args, Debug)]
#[command(disable_help_flag = true)]
pub struct CatalogArgs {
    /// build FILES_OR_URLS... -o catalog.parquet | search CATALOG [--bbox W S E N] [--crs EPSG:n]
    /// [--time T | START END] [--bands B...] | vrt CATALOG -o mosaic.vrt [search options] [--time-index N]
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Runs the Python implementation (which prints its own errors); its exit code becomes ours.
pub fn run(a: &CatalogArgs) -> Res<u8> {
    let python = std::env::var("RUMI_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let status = Command::new(&python)
        .args(["-c", "import sys; from rumi.catalog import main; sys.exit(main(sys.argv[1:]))"])
        .args(&a.args)
        .status()
        .map_err(|e| {
            Failure(format!("catalog: cannot run {python} (set RUMI_PYTHON to a python with the rumi package): {e}"))
        })?;
    match status.code() {
        Some(c) => Ok(u8::try_from(c).unwrap_or(1)),
        None => Err(Failure(format!("catalog: {python} was killed by a signal"))),
    }
}
