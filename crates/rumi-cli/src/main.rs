//! `rumi`: the command-line tool of the rumi 0.1.0 raster format.
//!
//! `convert` and `stack` turn rasters GDAL can read into rumi Images and Cubes; `header`,
//! `validate` and `info` build header blobs for, check and describe rumi files. Files may be
//! objects in object storage (`s3://bucket/key` read and written, `http(s)://` read). Errors print
//! `rumi: <message>` on stderr and exit with 1 (2 for usage errors, 128 + n after signal n).

mod convert;

mod fail;

mod inspect;

mod interrupt;

mod output;

mod remote;

mod source;

mod times;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};
use rumi::codec::Graph;

use crate::fail::Failure;

#[derive(Parser)]
#[command(name = "rumi", version, about = "Convert, stack, validate and describe rumi 0.1.0 raster files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert one raster GDAL can read into a rumi Image (T = 1).
    Convert(ConvertArgs),
    /// Stack co-registered rasters (same size, transform, CRS, type, bands) into a rumi Cube.
    Stack(StackArgs),
    /// Build the external header blob of a rumi file, validating the file first.
    Header(HeaderArgs),
    /// Check that a file is rumi 0.1.0 compliant (exit 0) or say why not (exit 1).
    Validate(ValidateArgs),
    /// Describe a rumi file: shape, encoding, tiling, georeferencing, bands, times, sizes.
    Info(InfoArgs),
}

/// Options shared by `convert` and `stack`.
#[derive(Args, Debug, Clone)]
pub struct WriteOpts {
    /// Nominal tile size: N for N x N, or WIDTHxLENGTH.
    #[arg(long, value_name = "N|WxL", default_value = "256", value_parser = parse_tile)]
    pub tile: (u16, u16),
    /// frame_unit (0..=9). Default: 0 for one band, whatever the dates (a frame a date), 1 for
    /// a multi-band Image (2 for multi-band Images of 8-bit samples with --graph image), 9 when
    /// B and T both exceed 1 (tiles, time then band: a chip's dates are one run of frames).
    #[arg(long, value_name = "N")]
    pub frame_unit: Option<u16>,
    /// OpenZL compression level, 1..=22 (default 7): the numeric graph's, or with auto/image the
    /// level of their numeric candidate.
    #[arg(long, value_name = "L", allow_negative_numbers = true, value_parser = parse_level)]
    pub level: Option<i32>,
    /// Compression graph: auto (default: per frame the smallest of the image candidates unless a
    /// faster one is within 4 % per decode-speed class), auto:<percent> (that weight instead,
    /// 0..=100: 0 the smallest, larger the faster to decode), fast (the fastest decode: the left
    /// predictor, each byte-plane stream stored, LZ4, PivCo Huffman or zstd by its bytes and
    /// modelled decode time; 2-3x auto's decode speed for 3-30 % more bytes), image (the
    /// smallest: every candidate on every frame), numeric, generic, or best (numeric at levels 6
    /// and 7, smaller kept). All write standard OpenZL frames.
    #[arg(long, value_name = "GRAPH", value_parser = parse_graph)]
    pub graph: Option<GraphArg>,
    /// Band text, once per band in band order (default: the sources' BAND_TEXT metadata, else
    /// their band descriptions, else `band N`, N counted from 0).
    #[arg(long = "band-text", value_name = "TEXT")]
    pub band_text: Vec<String>,
    /// Store sources whose validity mask (not a nodata value) rumi cannot store; the masked
    /// samples become ordinary samples. (Nodata values need no flag: they are kept for GDAL
    /// readers in `<OUT>.aux.xml`.)
    #[arg(long)]
    pub allow_nodata_loss: bool,
    /// Remove the sidecars GDAL derived from the previous OUT (overviews `.ovr`, saved
    /// statistics `.aux.xml`, masks `.msk`), which would be stale; without it they make the
    /// command refuse.
    #[arg(long)]
    pub force: bool,
    /// GDAL open option for the sources, KEY=VALUE (repeatable; `-oo` works too).
    #[arg(long = "oo", value_name = "KEY=VALUE", value_parser = parse_open_option)]
    pub open_options: Vec<String>,
    /// Store the raster without georeferencing (e.g. GCP-only or non-EPSG CRS sources).
    #[arg(long)]
    pub no_georef: bool,
    /// Do not write the `<OUT>.header` sidecar (an existing one is removed: it would be stale).
    #[arg(long)]
    pub no_header: bool,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--graph` values, as `rumi::codec::Graph::named` reads them (one list for the CLI and Python).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphArg {
    /// OpenZL numeric graph
    Numeric,
    /// OpenZL generic graph (zstd-like)
    Generic,
    /// numeric at levels 6 and 7, keep the smaller frame
    Best,
    /// every frame: the smallest of the gradient, left and left+LZ predictors and numeric
    Image,
    /// (default) the image candidates on every 4th tile row, those that won there in between; a
    /// faster graph's frame is kept when at most 4 % larger per decode-speed class
    Auto,
    /// auto with this many percent per decode-speed class instead of 4
    AutoWeighted(u8),
    /// the left predictor, each stream stored, LZ4, PivCo or zstd: the fastest decode
    Fast,
}

/// A `--graph` value, checked by `rumi::codec::Graph::named`.
fn parse_graph(s: &str) -> Result<GraphArg, String> {
    Ok(match Graph::named(s, 7)? {
        Graph::Numeric(_) => GraphArg::Numeric,
        Graph::Generic(_) => GraphArg::Generic,
        Graph::BestOf => GraphArg::Best,
        Graph::Image(_) => GraphArg::Image,
        Graph::AutoWeighted(_, percent) => GraphArg::AutoWeighted(percent),
        Graph::Fast => GraphArg::Fast,
        _ => GraphArg::Auto,
    })
}

impl WriteOpts {
    /// The compression graph the options select.
    pub fn graph(&self) -> Result<Graph, String> {
        let level = self.level.unwrap_or(7);
        match (self.graph, self.level) {
            (Some(GraphArg::Best), Some(_)) => {
                Err("--level cannot be combined with --graph best (it tries levels 6 and 7)".into())
            }
            (Some(GraphArg::Best), None) => Ok(Graph::BestOf),
            (Some(GraphArg::Fast), Some(_)) => {
                Err("--level cannot be combined with --graph fast (it has no numeric candidate)".into())
            }
            (Some(GraphArg::Fast), None) => Ok(Graph::Fast),
            (Some(GraphArg::AutoWeighted(percent)), _) => Ok(Graph::AutoWeighted(level, percent)),
            (Some(GraphArg::Generic), _) => Ok(Graph::Generic(level)),
            (Some(GraphArg::Image), _) => Ok(Graph::Image(level)),
            (Some(GraphArg::Auto) | None, _) => Ok(Graph::Auto(level)),
            (Some(GraphArg::Numeric), _) => Ok(Graph::Numeric(level)),
        }
    }
}

#[derive(Args)]
struct ConvertArgs {
    /// Any raster GDAL can open.
    src: PathBuf,
    /// Output file (conventionally `.rumi`), or `s3://bucket/key`: written locally to a temporary
    /// file first, then uploaded with its sidecars (nothing at the destination on failure).
    out: PathBuf,
    /// Acquisition instant, ISO 8601 UTC: 2020-05-18 or 2020-05-18T13:40:00Z.
    /// Default: the source's TIME or TIME_START/TIME_END metadata (what rumi's GDAL driver
    /// reports), else ACQUISITIONDATETIME, else TIFFTAG_DATETIME.
    #[arg(long, value_name = "ISO", conflicts_with = "interval")]
    time: Option<String>,
    /// Time interval START/END (END exclusive), e.g. 2020-01-01/2021-01-01 for an annual product.
    #[arg(long, value_name = "START/END")]
    interval: Option<String>,
    #[command(flatten)]
    opts: WriteOpts,
}

#[derive(Args)]
struct StackArgs {
    /// Two or more co-registered sources, in time order, followed by the output file (or
    /// `s3://bucket/key`).
    #[arg(value_name = "SRC... OUT", required = true, num_args = 1..)]
    paths: Vec<PathBuf>,
    /// One instant per source, comma separated: 2015-03-09T17:30:17Z,2017-03-09T05:43:56Z.
    /// Default: each source's TIME or TIME_START/TIME_END, ACQUISITIONDATETIME or
    /// TIFFTAG_DATETIME metadata.
    #[arg(long, value_name = "ISO,...", value_delimiter = ',', conflicts_with = "intervals")]
    times: Vec<String>,
    /// One interval START/END per source, comma separated.
    #[arg(long, value_name = "START/END,...", value_delimiter = ',')]
    intervals: Vec<String>,
    #[command(flatten)]
    opts: WriteOpts,
}

#[derive(Args)]
struct HeaderArgs {
    /// The rumi file: a path, or an `s3://bucket/key` or `http(s)://` URL.
    file: PathBuf,
    /// Where to write the blob, a path or `s3://` URL (default: `<FILE>.header`).
    #[arg(short, long, value_name = "FILE.header")]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct ValidateArgs {
    /// The rumi file: a path, or an `s3://bucket/key` or `http(s)://` URL.
    file: PathBuf,
    /// Also check that this header blob (path or URL) belongs to the file.
    #[arg(long, value_name = "BLOB")]
    header: Option<PathBuf>,
}

#[derive(Args)]
struct InfoArgs {
    /// The rumi file: a path, or an `s3://bucket/key` or `http(s)://` URL (whose sidecar
    /// `<URL>.header` is used when present and matching).
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Open statelessly from this header blob (path or URL) instead of parsing the file's IFD.
    #[arg(long, value_name = "BLOB")]
    header: Option<PathBuf>,
}

fn parse_level(text: &str) -> Result<i32, String> {
    match text.trim().parse::<i32>() {
        Ok(v) if (1..=22).contains(&v) => Ok(v),
        _ => Err(format!("{text:?} is not an OpenZL compression level; use 1..=22 (default 7)")),
    }
}

/// `KEY=VALUE`; NUM_THREADS must be ALL_CPUS or a positive integer (read as the RUMI driver
/// reads it, `rumi::pool::parse_threads`), so that a typo is not silently ignored.
fn parse_open_option(text: &str) -> Result<String, String> {
    let (k, v) = text.split_once('=').ok_or_else(|| format!("{text:?} is not KEY=VALUE"))?;
    if k.trim().is_empty() {
        return Err(format!("{text:?} has no KEY"));
    }
    if k.trim().eq_ignore_ascii_case("NUM_THREADS") {
        rumi::pool::parse_threads(v).map_err(|_| format!("NUM_THREADS={v} is not ALL_CPUS or a positive integer"))?;
    }
    Ok(text.to_owned())
}

fn parse_tile(text: &str) -> Result<(u16, u16), String> {
    let one = |t: &str| match t.trim().parse::<u16>() {
        Ok(0) | Err(_) => Err(format!("{t:?} is not a tile dimension between 1 and 65535")),
        Ok(v) => Ok(v),
    };
    match text.split_once(['x', 'X']) {
        Some((w, l)) => Ok((one(w)?, one(l)?)),
        None => one(text).map(|v| (v, v)),
    }
}

/// Exits with a usage error (code 2) shown with the usage of subcommand `sub`.
fn usage_error(sub: &str, kind: ErrorKind, message: String) -> ! {
    let mut cmd = Cli::command();
    match cmd.find_subcommand_mut(sub) {
        Some(c) => c.clone().bin_name(format!("rumi {sub}")).error(kind, message).exit(),
        None => cmd.error(kind, message).exit(),
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Convert(a) => {
            let graph = a.opts.graph().unwrap_or_else(|m| usage_error("convert", ErrorKind::ArgumentConflict, m));
            let time = times::TimeArgs::single(a.time, a.interval);
            convert::run(&[a.src], &a.out, &time, &a.opts, graph)
        }
        Command::Stack(mut a) => {
            let graph = a.opts.graph().unwrap_or_else(|m| usage_error("stack", ErrorKind::ArgumentConflict, m));
            if a.paths.len() < 3 {
                usage_error(
                    "stack",
                    ErrorKind::TooFewValues,
                    "stack needs at least two sources and an output file (use convert for one source)".into(),
                );
            }
            let out = a.paths.pop().unwrap_or_default();
            let time = times::TimeArgs::list(a.times, a.intervals);
            convert::run(&a.paths, &out, &time, &a.opts, graph)
        }
        Command::Header(a) => inspect::header(&a.file, a.output.as_deref()),
        Command::Validate(a) => inspect::validate(&a.file, a.header.as_deref()),
        Command::Info(a) => inspect::info(&a.file, a.header.as_deref(), a.json),
    }
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        fail::say(&format!("internal error (a bug in rumi, please report it): {info}"))
    }));
    // GDAL spells open options `-oo`; clap's long options need two dashes.
    let args = std::env::args_os().map(|a| if a == "-oo" { "--oo".into() } else { a });
    let cli = Cli::parse_from(args);
    source::quiet_gdal_errors();
    let result = run(cli);
    if let Err(f) = &result {
        fail::say(&f.0);
    }
    match (interrupt::received(), result) {
        (Some(sig), r) => {
            if r.is_ok() {
                fail::say("interrupted, but the output was already complete: it was kept");
            }
            ExitCode::from(128u8.saturating_add(u8::try_from(sig).unwrap_or(127)))
        }
        (None, Ok(())) => ExitCode::SUCCESS,
        (None, Err(_)) => ExitCode::FAILURE,
    }
}
