//! `convert` and `stack`: GDAL sources become one rumi file (an Image for one source, a Cube
//! for several), read and compressed tile row by tile row, committed together with its
//! `<OUT>.header` sidecar and (when the sources declare nodata, colour interpretations or
//! palettes) its PAM sidecar `<OUT>.aux.xml` as one pair ([`output::commit_pair`]). No output
//! may be an input; an error or a signal leaves the previous pair as it was and no temporary
//! file behind. An `s3://bucket/key` output is written to an anonymous local temporary file
//! first, then uploaded with its sidecars ([`remote::upload`]: nothing at the destination on
//! failure).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rumi::codec::{self, Graph};
use rumi::format::{Blob, FrameUnit, Layout, Trailer};
use rumi::{ImageSpec, Writer};

use crate::fail::{print, say, Context, Failure, Res};
use crate::inspect::{self, human_bytes};
use crate::interrupt;
use crate::output::{self, aux_xml, sidecar, Inputs, Staged};
use crate::remote;
use crate::source::Source;
use crate::times::{MetaTime, TimeArgs};
use crate::{GraphArg, WriteOpts};
use rumi::pam::Pam;

/// What rewriting `out` removes besides replacing it: the old `.header` (always), rumi's own
/// nodata `.aux.xml` (always), and GDAL's derived sidecars (overviews, saved statistics,
/// masks), which only `--force` removes. Fails, naming them, when they exist without it.
fn plan_removals(out: &Path, force: bool) -> Res<(Vec<PathBuf>, Vec<String>)> {
    let (remove, note) = rumi::commit::plan_rewrite(out, force, "--force").map_err(Failure)?;
    Ok((remove, note.map(|n| format!("warning: {n}")).into_iter().collect()))
}

/// Converts (one source) or stacks (several) `srcs` into `out` (a path or an `s3://` URL).
pub fn run(srcs: &[PathBuf], out: &Path, time: &TimeArgs, opts: &WriteOpts, graph: Graph) -> Res<()> {
    let started = Instant::now();
    interrupt::catch();
    let url = remote::url_of(out);
    if let Some(u) = url {
        remote::check_writable(u)?;
    } else if out.is_dir() {
        return Err(Failure(format!("{} is a folder; give the output file name", out.display())));
    }
    let sources = open_sources(srcs, opts)?;
    let (inputs, removal_notes) = match url {
        Some(_) => (Inputs::default(), Vec::new()),
        None => {
            let inputs = guard_inputs(&sources, out)?;
            let (_, removal_notes) = plan_removals(out, opts.force)?;
            output::clean_stale(out);
            (inputs, removal_notes)
        }
    };

    check_same_grid(&sources)?;
    check_same_scaling(&sources)?;
    let metas: Vec<(&Path, Option<&MetaTime>)> =
        sources.iter().map(|s| (s.path.as_path(), s.meta_time.as_ref())).collect();
    let (axis, time_notes) = time.resolve(&metas)?;
    let pam =
        Pam { bands: usize::from(sources[0].bands), values: sources.iter().flat_map(|s| s.pam.clone()).collect() };
    announce(&sources, &time_notes, &aux_xml(out), opts.quiet);
    let spec = image_spec(&sources, axis, opts, graph)?;
    let layout = spec.layout().map_err(|e| Failure(limit_remedy(e)))?;

    let mut target = match url {
        Some(_) => Target::Upload(tempfile::tempfile().context(|| "cannot create a local temporary file")?),
        None => Target::Local(Staged::create(out)?),
    };
    let bar = progress(&layout, opts.quiet, out);
    let written = write_frames(target.file(), spec, graph, sources, &bar, out);
    bar.finish_and_clear();
    let blob = written?;
    let header = inspect::header_of_written(target.file(), &blob, out)?;
    match (target, url) {
        (Target::Local(file), _) => commit(file, out, &header, &pam, &inputs, opts)?,
        (Target::Upload(file), Some(u)) => {
            interrupt::check()?;
            let aux = (!pam.is_empty()).then(|| pam.render());
            remote::upload(&file, u, (!opts.no_header).then_some(&header[..]), aux.as_ref().map(|a| a.as_bytes()))?;
        }
        (Target::Upload(_), None) => return Err(Failure("internal error: an upload without a URL".into())),
    }
    for n in &removal_notes {
        say(n);
    }
    if opts.quiet {
        return Ok(());
    }
    print(&summary(out, &layout, &blob, header.len(), &pam, opts, started))
}

/// Opens every source, failing with all their errors at once.
fn open_sources(srcs: &[PathBuf], opts: &WriteOpts) -> Res<Vec<Source>> {
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
    Ok(sources)
}

/// The sources' files, checked: inputs are sacred, so no output, sidecar or file to be
/// removed may be one of them.
fn guard_inputs(sources: &[Source], out: &Path) -> Res<Inputs> {
    let mut inputs = Inputs::default();
    for s in sources {
        for f in &s.files {
            inputs.add(f);
        }
    }
    inputs.check(out, "output")?;
    inputs.check(&sidecar(out), "header sidecar")?;
    inputs.check(&aux_xml(out), "nodata sidecar")?;
    for p in output::derived_sidecars(out) {
        inputs.check(&p, "sidecar to be removed")?;
    }
    Ok(inputs)
}

/// Says the sources' notes, the time notes and where nodata goes (warnings only when quiet).
fn announce(sources: &[Source], time_notes: &[String], aux_path: &Path, quiet: bool) {
    let nodata_notes: Vec<String> = sources
        .iter()
        .filter_map(|s| s.nodata_note.as_ref())
        .map(|n| {
            format!(
                "{n} {} stored in {} for GDAL readers (gdalinfo, rasterio, QGIS) and rumi's Python readers; rumi \
                 itself has no such field: the samples are stored as they are (raw)",
                if n.contains(" and ") { "are" } else { "is" },
                aux_path.display()
            )
        })
        .collect();
    for note in sources.iter().flat_map(|s| s.notes.iter()).chain(time_notes.iter()).chain(nodata_notes.iter()) {
        if !quiet || note.starts_with("warning") {
            say(note);
        }
    }
}

/// The output's spec: the first source's grid, one time step per source, the frame unit
/// asked for (or the default for the shape) and the compression settings, both checked.
fn image_spec(sources: &[Source], axis: rumi::format::TimeAxis, opts: &WriteOpts, graph: Graph) -> Res<ImageSpec> {
    let first = &sources[0];
    let times = u32::try_from(sources.len()).map_err(|_| Failure("too many sources".into()))?;
    let image_graph = matches!(opts.graph, Some(GraphArg::Image));
    let unit = opts.frame_unit.unwrap_or_else(|| {
        if image_graph {
            ImageSpec::default_frame_unit_for(first.bands, times, first.encoding)
        } else {
            ImageSpec::default_frame_unit(first.bands, times)
        }
    });
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
    // an auto graph on a multi-band Image: pixel-interleaved cells when a sampled tile row
    // (the middle one) says they are worth their slower decode (rumi::frame_unit_from_sample);
    // a layout the writer refuses is reported by the writer, with its remedy
    let sampled = opts.frame_unit.is_none() && graph.is_auto();
    let Some(row) = spec.sampled_row().filter(|_| sampled) else { return Ok(spec) };
    let layout = spec.layout()?;
    let data = read_tile_row(sources, &layout, row)?;
    let unit =
        rumi::frame_unit_from_sample(&spec, graph, row, &data).context(|| "sampling the frame unit".to_string())?;
    Ok(ImageSpec { frame_unit: unit, ..spec })
}

/// Where the frames are written: the staged local output, or a local temporary file uploaded
/// once complete.
enum Target {
    Local(Staged),
    Upload(File),
}

impl Target {
    fn file(&mut self) -> &mut File {
        match self {
            Target::Local(s) => s.file(),
            Target::Upload(f) => f,
        }
    }
}

/// Commits the written file with its sidecars (the header blob unless --no-header, the PAM
/// `.aux.xml` when there is nodata or colour) and removes what the rewrite makes stale, saying so.
fn commit(file: Staged, out: &Path, header: &[u8], pam: &Pam, inputs: &Inputs, opts: &WriteOpts) -> Res<()> {
    let (header_path, aux_path) = (sidecar(out), aux_xml(out));
    let mut sidecars = Vec::new();
    if !opts.no_header {
        sidecars.push(Staged::with_bytes(&header_path, header)?);
    }
    if !pam.is_empty() {
        sidecars.push(Staged::with_bytes(&aux_path, pam.render().as_bytes())?);
    }
    interrupt::check()?;
    // The sidecars may have changed while the frames were written: decide again, then commit.
    let (remove, _) = plan_removals(out, opts.force)?;
    for p in &remove {
        inputs.check(p, "sidecar to be removed")?;
    }
    let stale_header = header_path.is_file() && opts.no_header;
    let stale_aux = remove.contains(&aux_path) && aux_path.is_file() && pam.is_empty();
    output::commit_pair(file, sidecars, &remove)?;
    if stale_header {
        say(&format!("removed {}: it described the previous {}", header_path.display(), out.display()));
    }
    if stale_aux {
        say(&format!(
            "removed {}: it held the nodata values, scales, offsets, units or colours of the previous {}",
            aux_path.display(),
            out.display()
        ));
    }
    Ok(())
}

/// What was written: the file's shape, frames and compression ratio, and its sidecars.
fn summary(
    out: &Path,
    layout: &Layout,
    blob: &Blob,
    header_len: usize,
    pam: &Pam,
    opts: &WriteOpts,
    started: Instant,
) -> String {
    let compressed: u64 = blob.counts.iter().map(|&c| u64::from(c)).sum();
    let decoded = inspect::decoded_bytes(layout);
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
        summary.push_str(&format!("wrote {} ({} bytes)\n", sidecar(out).display(), header_len));
    }
    let kept: Vec<&str> = [
        (pam.has_nodata(), "nodata"),
        (pam.has_scale_or_unit(), "scales, offsets, units"),
        (pam.has_color(), "colour interpretation"),
    ]
    .iter()
    .filter_map(|&(has, what)| has.then_some(what))
    .collect();
    if !kept.is_empty() {
        summary.push_str(&format!("wrote {} ({} for GDAL readers)\n", aux_xml(out).display(), kept.join(", ")));
    }
    summary
}

/// A layout error; a resource limit names the CLI's remedy (not a library or GDAL knob).
fn limit_remedy(e: rumi::Error) -> String {
    match e {
        rumi::Error::Limit { what, value, limit } => {
            let remedy = match what {
                rumi::limits::Measure::DecodedFrameSize | rumi::limits::Measure::CompressedFrameSize => {
                    "use a smaller --tile (e.g. --tile 256), or --frame-unit 0 for one band and time step per frame"
                }
                rumi::limits::Measure::FrameCount => "use a larger --tile (e.g. --tile 1024)",
                _ => "rumi cannot write a file this large",
            };
            format!("resource limit exceeded: {what} is {value}, the limit is {limit}: {remedy}")
        }
        e => e.to_string(),
    }
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

/// Refuses sources whose band has a different scale, offset or unit in another (a rumi band has
/// one: keeping the first source's would scale the others' samples wrongly), naming each.
fn check_same_scaling(sources: &[Source]) -> Res<()> {
    let first = &sources[0];
    let show = |b: &rumi::pam::BandPam| {
        let (s, o) = (b.scale.unwrap_or(1.0), b.offset.unwrap_or(0.0));
        format!("scale {s}, offset {o}, unit {:?}", b.unit.as_deref().unwrap_or(""))
    };
    let mut report = Vec::new();
    for s in &sources[1..] {
        for (i, (a, b)) in first.pam.iter().zip(&s.pam).enumerate() {
            if (a.scale, a.offset, &a.unit) != (b.scale, b.offset, &b.unit) {
                report.push(format!(
                    "band {i} of {} has {} where {} has {}",
                    s.path.display(),
                    show(b),
                    first.path.display(),
                    show(a)
                ));
            }
        }
    }
    if report.is_empty() {
        return Ok(());
    }
    Err(Failure(format!(
        "the sources' scales, offsets or units differ ({}): a rumi band has one scale, offset and unit. Make them \
         agree (gdal_translate -a_scale/-a_offset, or -unscale -ot Float32 to store the values)",
        report.join("; ")
    )))
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
                    i, b.band_texts[i], a.band_texts[i]
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
fn write_frames(
    file: &mut File,
    spec: ImageSpec,
    graph: Graph,
    sources: Vec<Source>,
    bar: &ProgressBar,
    out: &Path,
) -> Res<Blob> {
    // I/O errors name the file (the temporary file stands for `out`)
    let named = |e: rumi::Error| match e {
        rumi::Error::Io(io) => Failure(format!("cannot write {}: {io}", out.display())),
        e => Failure(limit_remedy(e)),
    };
    let mut writer = Writer::new(file, spec, graph).map_err(named)?;
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
            writer.write_tile_row(row, &data).map_err(named)?;
            bar.inc(1);
        }
        Ok::<(), Failure>(())
    })?;
    let (_, blob) = writer.finish().map_err(named)?;
    Ok(blob)
}
