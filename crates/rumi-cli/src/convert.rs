//! `convert` and `stack`: GDAL sources become one rumi file (an Image for one source, a Cube
//! for several), read and compressed tile row by tile row, written atomically together with
//! its `<OUT>.header` sidecar. An error leaves neither output nor temporary file behind.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rumi::codec::{self, Graph};
use rumi::format::{Blob, FrameUnit, Layout, Trailer};
use rumi::writer::{ImageSpec, Writer};

use crate::fail::{print, say, Context, Failure, Res};
use crate::inspect::{self, human_bytes};
use crate::output::{self, sidecar};
use crate::source::Source;
use crate::times::{MetaTime, TimeArgs};
use crate::WriteOpts;

/// Refuses an output that is a folder or one of the sources (it would be replaced).
fn check_output(srcs: &[PathBuf], out: &Path) -> Res<()> {
    if out.is_dir() {
        return Err(Failure(format!("{} is a folder; give the output file name", out.display())));
    }
    if let Ok(o) = std::fs::canonicalize(out) {
        if let Some(s) = srcs.iter().find(|s| std::fs::canonicalize(s).is_ok_and(|c| c == o)) {
            return Err(Failure(format!(
                "the output {} is also a source ({}); choose another output file",
                out.display(),
                s.display()
            )));
        }
    }
    Ok(())
}

/// Converts (one source) or stacks (several) `srcs` into `out`.
pub fn run(srcs: &[PathBuf], out: &Path, time: &TimeArgs, opts: &WriteOpts, graph: Graph) -> Res<()> {
    let started = Instant::now();
    check_output(srcs, out)?;
    let mut sources = Vec::with_capacity(srcs.len());
    let mut failures = Vec::new();
    for p in srcs {
        match Source::open(p, opts) {
            Ok(s) => sources.push(s),
            Err(f) => failures.push(f.0),
        }
    }
    if !failures.is_empty() {
        return Err(Failure(failures.join("\nrumi: ")));
    }
    check_same_grid(&sources)?;
    let metas: Vec<(&Path, Option<&MetaTime>)> =
        sources.iter().map(|s| (s.path.as_path(), s.meta_time.as_ref())).collect();
    let (axis, time_notes) = time.resolve(&metas)?;
    for note in sources.iter().flat_map(|s| s.notes.iter()).chain(time_notes.iter()) {
        if !opts.quiet || note.starts_with("warning") {
            say(note);
        }
    }

    let first = &sources[0];
    let times = u32::try_from(sources.len()).map_err(|_| Failure("too many sources".into()))?;
    let unit = opts.frame_unit.unwrap_or_else(|| ImageSpec::default_frame_unit_for(first.bands, times, first.encoding));
    FrameUnit::new(unit, u32::from(first.bands), times).map_err(|e| {
        let valid: Vec<String> =
            FrameUnit::valid_for(u32::from(first.bands), times).iter().map(|u| u.value().to_string()).collect();
        Failure(format!("--frame-unit: {e} (valid for B={}, T={times}: {})", first.bands, valid.join(", ")))
    })?;
    codec::encode(&[0u8; 8], 1, graph).context(|| format!("compression settings {graph:?}"))?;
    let spec = ImageSpec {
        width: first.width,
        length: first.length,
        times,
        bands: first.bands,
        encoding: first.encoding,
        tile_width: opts.tile.0,
        tile_length: opts.tile.1,
        frame_unit: unit,
        georef: first.georef,
        trailer: Trailer { band_texts: first.band_texts.clone(), time: axis },
    };
    let layout = spec.layout()?;

    interrupt::catch();
    let mut file = output::create(out)?;
    let bar = progress(&layout, opts.quiet, out);
    let written = write_frames(file.file(), spec, graph, sources, &bar);
    bar.finish_and_clear();
    let blob = written?;
    let header = inspect::header_of_written(file.file(), &blob)?;
    let header_path = sidecar(out);
    let header_file = if opts.no_header { None } else { Some(output::staged(&header_path, &header)?) };
    interrupt::check()?;
    output::commit(file, out)?;
    match header_file {
        Some(h) => {
            if let Err(f) = output::commit(h, &header_path) {
                // Never leave the previous sidecar beside the new file: it would locate wrong frames.
                let _ = std::fs::remove_file(&header_path);
                return Err(f);
            }
        }
        None => {
            if header_path.is_file() {
                std::fs::remove_file(&header_path)
                    .context(|| format!("cannot remove the stale {}", header_path.display()))?;
                say(&format!("removed {}: it described the previous {}", header_path.display(), out.display()));
            }
        }
    }

    if opts.quiet {
        return Ok(());
    }
    let compressed: u64 = blob.counts.iter().map(|&c| u64::from(c)).sum();
    let decoded = inspect::decoded_bytes(&layout);
    let mut summary = format!(
        "wrote {}: {} T={} B={} Y={} X={} {}, {} frame(s) (frame unit {}: {}), {} from {} decoded (ratio {:.2}) in {:.2} s\n",
        out.display(),
        if layout.times > 1 { "Cube" } else { "Image" },
        layout.times,
        layout.bands,
        layout.length,
        layout.width,
        layout.encoding.name(),
        blob.counts.len(),
        layout.frame_unit.value(),
        layout.frame_unit.describe(u32::from(layout.bands)),
        human_bytes(compressed),
        human_bytes(decoded),
        decoded as f64 / compressed.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    if !opts.no_header {
        summary.push_str(&format!("wrote {} ({} bytes)\n", header_path.display(), header.len()));
    }
    print(&summary)
}

fn progress(layout: &Layout, quiet: bool, out: &Path) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(u64::from(layout.tiles_down()));
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} tile rows, {elapsed}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    bar
}

/// Refuses sources that do not share one grid, naming every difference.
fn check_same_grid(sources: &[Source]) -> Res<()> {
    let a = &sources[0];
    let mut report = Vec::new();
    for b in &sources[1..] {
        let mut diff = Vec::new();
        if (a.width, a.length) != (b.width, b.length) {
            diff.push(format!("size {} x {} vs {} x {}", b.width, b.length, a.width, a.length));
        }
        if a.type_name != b.type_name {
            diff.push(format!("data type {} vs {}", b.type_name, a.type_name));
        }
        if a.bands != b.bands {
            diff.push(format!("{} band(s) vs {}", b.bands, a.bands));
        }
        if a.crs_text() != b.crs_text() {
            diff.push(format!("CRS {} vs {}", b.crs_text(), a.crs_text()));
        }
        if a.georef.raster_type() != b.georef.raster_type() {
            diff.push(format!(
                "raster type {:?} vs {:?} (AREA_OR_POINT)",
                b.georef.raster_type(),
                a.georef.raster_type()
            ));
        }
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0);
        match (a.geotransform, b.geotransform) {
            (Some(ga), Some(gb)) if ga.iter().zip(gb.iter()).all(|(x, y)| close(*x, *y)) => {}
            (None, None) => {}
            (ga, gb) => diff.push(format!("geotransform {} vs {}", gt_text(gb), gt_text(ga))),
        }
        if a.bands == b.bands && a.band_texts != b.band_texts {
            if let Some(i) = a.band_texts.iter().zip(&b.band_texts).position(|(x, y)| x != y) {
                diff.push(format!(
                    "band {} text {:?} vs {:?} (name the bands of the Cube with --band-text)",
                    i + 1,
                    b.band_texts[i],
                    a.band_texts[i]
                ));
            }
        }
        if !diff.is_empty() {
            report.push(format!("{} differs from {}: {}", b.path.display(), a.path.display(), diff.join("; ")));
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(Failure(format!("cannot stack sources that do not share one grid: {}", report.join("\n  "))))
    }
}

fn gt_text(gt: Option<[f64; 6]>) -> String {
    match gt {
        Some(g) => format!("(origin {}, {}; pixel {} x {}; rotation {}, {})", g[0], g[3], g[1], g[5], g[2], g[4]),
        None => "none".into(),
    }
}

/// A zeroed buffer of `n` bytes, or an error (not an abort) when memory is short.
fn buffer(n: usize) -> Res<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Failure(format!("cannot allocate {} for one tile row; use a smaller --tile", human_bytes(n as u64)))
    })?;
    v.resize(n, 0);
    Ok(v)
}

/// Reads tile row `row` of every source as `[t][b][y][x]`.
fn read_tile_row(sources: &[Source], layout: &Layout, row: u32) -> Res<Vec<u8>> {
    let (h, _) = layout.tile_dims(row, 0);
    let y0 = row * u32::from(layout.tile_length);
    let per = usize::from(layout.bands)
        .checked_mul(h as usize)
        .and_then(|v| v.checked_mul(layout.width as usize))
        .and_then(|v| v.checked_mul(layout.encoding.decoded_bytes()))
        .ok_or_else(|| Failure("tile row size overflows".into()))?;
    let total = per.checked_mul(sources.len()).ok_or_else(|| Failure("tile row size overflows".into()))?;
    let mut buf = buffer(total)?;
    for (s, chunk) in sources.iter().zip(buf.chunks_exact_mut(per.max(1))) {
        s.read_rows(y0, h, chunk)?;
    }
    Ok(buf)
}

/// Compresses every tile row into `file` (reading the next row while this one compresses);
/// returns the header blob the writer computed.
fn write_frames(file: &mut File, spec: ImageSpec, graph: Graph, sources: Vec<Source>, bar: &ProgressBar) -> Res<Blob> {
    let mut writer = Writer::new(file, spec, graph)?;
    let layout = *writer.layout();
    let rows = layout.tiles_down();
    let (tx, rx) = mpsc::sync_channel::<Res<Vec<u8>>>(1);
    std::thread::scope(|s| {
        // Owning `rx` here drops it when this closure returns, which stops the reader on error.
        let rx = rx;
        s.spawn(move || {
            for row in 0..rows {
                let r = interrupt::check().and_then(|()| read_tile_row(&sources, &layout, row));
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    return;
                }
            }
        });
        for row in 0..rows {
            let data = rx.recv().map_err(|_| Failure("internal error: the reading thread stopped".into()))??;
            interrupt::check()?;
            writer.write_tile_row(row, &data)?;
            bar.inc(1);
        }
        Ok::<(), Failure>(())
    })?;
    let (_, blob) = writer.finish()?;
    Ok(blob)
}

/// Ctrl-C (and SIGTERM/SIGHUP) while writing: the first one stops the conversion at the next
/// tile row and removes the temporary files; a second one terminates at once.
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    use crate::fail::{Failure, Res};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_signal(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    /// Installs the one-shot handlers.
    pub fn catch() {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value; the handler
            // only stores to an atomic (async-signal-safe); SA_RESETHAND restores the default
            // action after the first signal.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                sa.sa_flags = libc::SA_RESETHAND;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    }

    /// Fails once a signal has arrived.
    pub fn check() -> Res<()> {
        if INTERRUPTED.load(Ordering::SeqCst) {
            Err(Failure("interrupted; no output written".into()))
        } else {
            Ok(())
        }
    }
}
