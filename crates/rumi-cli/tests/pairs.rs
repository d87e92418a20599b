//! Issue 12: a file and its sidecars are one thing. No command writes over one of its inputs
//! (however the path is spelled), a rewrite leaves the old or the new pair (never a mix, never
//! GDAL's stale overviews or statistics), signals exit 128 + n with the old pair intact and no
//! temporary file visible, and nodata lives in the PAM sidecar that GDAL readers read.

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;

#[test]
fn no_output_is_ever_an_input_however_spelled() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u8>(&p("src.tif"), (37, 23), 1, &[], None);
    // GeoTIFFs named like the sidecars of an output (GDAL opens them by their contents)
    geotiff::<u8>(&p("q.header"), (37, 23), 1, &[], None);
    geotiff::<u8>(&p("o.rumi.aux.xml"), (37, 23), 1, &[], None);
    ok(None, &["convert", &s("src.tif"), &s("a.rumi"), "--time", "2020-01-01", "-q"]);
    fs::hard_link(p("src.tif"), p("hard.tif")).unwrap();
    symlink(p("src.tif"), p("soft.rumi")).unwrap();
    symlink(p("a.rumi"), p("soft.header")).unwrap();
    fs::hard_link(p("a.rumi"), p("hard.rumi")).unwrap();
    let vrt = format!(
        r#"<VRTDataset rasterXSize="37" rasterYSize="23"><VRTRasterBand dataType="Byte" band="1"><SimpleSource>
        <SourceFilename relativeToVRT="0">{}</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"#,
        s("src.tif")
    );
    fs::write(p("v.vrt"), vrt).unwrap();
    let before = snapshot(dir.path());
    let rel = |n: &str| format!("{}/./{n}", dir.path().display());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["convert".into(), s("src.tif"), rel("src.tif")], "the output"),
        (vec!["convert".into(), s("src.tif"), s("hard.tif")], "the output"),
        (vec!["convert".into(), s("src.tif"), s("soft.rumi")], "the output"),
        // OUT.header == SRC (reported: the source was overwritten by the new sidecar)
        (vec!["convert".into(), s("q.header"), s("q")], "the header sidecar"),
        (vec!["convert".into(), s("o.rumi.aux.xml"), s("o.rumi")], "the nodata sidecar"),
        // a file the source reads (a VRT's source)
        (vec!["convert".into(), s("v.vrt"), s("src.tif")], "the output"),
        (vec!["stack".into(), s("src.tif"), s("hard.tif"), rel("src.tif")], "the output"),
        (vec!["header".into(), s("a.rumi"), "-o".into(), s("a.rumi")], "the output"),
        (vec!["header".into(), s("a.rumi"), "-o".into(), rel("a.rumi")], "the output"),
        (vec!["header".into(), s("a.rumi"), "-o".into(), s("soft.header")], "the output"),
        (vec!["header".into(), s("a.rumi"), "-o".into(), s("hard.rumi")], "the output"),
    ];
    for (mut args, what) in cases {
        if args[0] != "header" {
            args.extend(["--time".into(), "2020-01-01".into()]);
            if args[0] == "stack" {
                args.last_mut().unwrap().clear();
                args.pop();
                args.pop();
                args.extend(["--times".into(), "2020-01-01,2020-01-02".into()]);
            }
        }
        let err = fails(None, &args);
        assert!(err.contains(what) && err.contains("is the same file as the input"), "{args:?}: {err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert!(snapshot(dir.path()) == before, "{args:?} changed the folder");
    }
}

/// A VRT over band 1 of `src` (37 x 23) that says nothing of colour or nodata.
fn bare_vrt(src: &str, data_type: &str) -> String {
    format!(
        r#"<VRTDataset rasterXSize="37" rasterYSize="23"><SRS>EPSG:32631</SRS><GeoTransform>1000, 2, 0, 5000, 0, -2</GeoTransform>
        <VRTRasterBand dataType="{data_type}" band="1"><SimpleSource><SourceFilename relativeToVRT="0">{src}</SourceFilename>
        <SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"#
    )
}

/// True when the PAM sidecar at `path` is rumi's own and records band 1 as Gray and nothing else.
fn rumi_colour_only(path: &Path) -> bool {
    let text = fs::read_to_string(path).unwrap();
    rumi::pam::is_ours(&text) && text.contains("<ColorInterp>Gray</ColorInterp>") && !text.contains("NoDataValue")
}

fn stats_aux() -> &'static str {
    "<PAMDataset>\n  <PAMRasterBand band=\"1\">\n    <Metadata>\n      <MDI key=\"STATISTICS_MEAN\">3</MDI>\n    \
     </Metadata>\n  </PAMRasterBand>\n</PAMDataset>\n"
}

#[test]
fn derived_sidecars_are_refused_or_removed_with_force() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u16>(&p("big.tif"), (300, 200), 1, &[], None);
    geotiff::<u16>(&p("small.tif"), (37, 23), 1, &[], None);
    ok(None, &["convert", &s("big.tif"), &s("x.rumi"), "--time", "2020-01-01", "-q"]);
    fs::write(p("x.rumi.ovr"), b"old overviews").unwrap();
    fs::write(p("x.rumi.aux.xml"), stats_aux()).unwrap();
    fs::write(p("x.rumi.msk"), b"old mask").unwrap();
    fs::write(p("x.rumi.t0.ovr"), b"old overviews of time step 0").unwrap();
    fs::write(p("x.rumi.other"), b"not GDAL's").unwrap();
    let before = snapshot(dir.path());
    let err = fails(None, &["convert", &s("small.tif"), &s("x.rumi"), "--time", "2020-01-02", "-q"]);
    for n in [
        "x.rumi.ovr (overviews)",
        "x.rumi.aux.xml (GDAL's saved statistics",
        "x.rumi.msk (a mask)",
        "x.rumi.t0.ovr",
        "--force",
    ] {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
    assert!(snapshot(dir.path()) == before, "a refused rewrite changed the folder");
    let (_, e) = ok(None, &["convert", &s("small.tif"), &s("x.rumi"), "--time", "2020-01-02", "-q", "--force"]);
    assert!(
        e.contains("warning: removed") && e.contains("x.rumi.ovr") && e.contains("x.rumi.aux.xml"),
        "-q still says so: {e}"
    );
    // the new x.rumi.aux.xml is rumi's own: the source's colour interpretation (Gray)
    assert_eq!(
        entries(dir.path()),
        ["big.tif", "small.tif", "x.rumi", "x.rumi.aux.xml", "x.rumi.header", "x.rumi.other"]
    );
    assert!(rumi_colour_only(&p("x.rumi.aux.xml")));
    assert_eq!(info_json(&p("x.rumi"))["shape"]["X"], 37);
}

/// The reported case, with GDAL's own tools: overviews and statistics of the old file are not
/// served for the new one.
#[test]
fn gdal_sees_the_new_file_after_a_forced_rewrite() {
    let Some(plugin) = Plugin::get("gdal_sees_the_new_file_after_a_forced_rewrite") else { return };
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u16>(&p("big.tif"), (400, 300), 1, &[], None);
    geotiff::<u8>(&p("small.tif"), (37, 23), 1, &[], None);
    ok(None, &["convert", &s("big.tif"), &s("x.rumi"), "--time", "2020-01-01", "-q"]);
    plugin.tool("gdaladdo", &["-q", &s("x.rumi"), "2", "4"]);
    plugin.tool("gdalinfo", &["-stats", &s("x.rumi")]);
    assert!(p("x.rumi.ovr").is_file() && p("x.rumi.aux.xml").is_file());
    let err = fails(Some(&plugin), &["convert", &s("small.tif"), &s("x.rumi"), "--time", "2020-01-02"]);
    assert!(err.contains("x.rumi.ovr") && err.contains("--force"), "{err}");
    ok(Some(&plugin), &["convert", &s("small.tif"), &s("x.rumi"), "--time", "2020-01-02", "--force", "-q"]);
    let v = plugin.info(&s("x.rumi"), &[]);
    assert_eq!(v["size"], serde_json::json!([37, 23]));
    let band = &v["bands"][0];
    assert!(
        band.get("overviews").is_none_or(|o| o.as_array().is_some_and(|a| a.is_empty())),
        "stale overviews: {band}"
    );
    assert!(band.get("mean").is_none() && !v.to_string().contains("STATISTICS_MEAN"), "stale statistics: {v}");
    // The pixels GDAL serves (including a downsampled read) are the new ones.
    plugin.tool("gdal_translate", &["-q", "-outsize", "50%", "50%", &s("x.rumi"), &s("half_rumi.tif")]);
    plugin.tool("gdal_translate", &["-q", "-outsize", "50%", "50%", &s("small.tif"), &s("half_src.tif")]);
    let read = |n: &str| {
        let ds = gdal::Dataset::open(p(n)).unwrap();
        ds.rasterband(1).unwrap().read_band_as::<u8>().unwrap().data().to_vec()
    };
    assert_eq!(read("half_rumi.tif"), read("half_src.tif"));
}

#[test]
fn nodata_is_kept_for_gdal_readers_in_the_pam_sidecar() {
    let plugin = Plugin::get("nodata_is_kept_for_gdal_readers_in_the_pam_sidecar (GDAL part)");
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<f32>(&p("dem.tif"), (37, 23), 1, &[], Some(-9999.0));
    geotiff::<f32>(&p("dem2.tif"), (37, 23), 1, &[], Some(-32768.0));
    geotiff::<f32>(&p("plain.tif"), (37, 23), 1, &[], None);
    let (out, err) = ok(None, &["convert", &s("dem.tif"), &s("d.rumi"), "--time", "2020-01-01"]);
    assert!(err.contains("nodata value -9999 of band 0") && err.contains("d.rumi.aux.xml"), "{err}");
    assert!(out.contains("wrote") && out.contains("d.rumi.aux.xml"), "{out}");
    let aux = fs::read_to_string(p("d.rumi.aux.xml")).unwrap();
    assert!(aux.contains("<PAMRasterBand band=\"1\">") && aux.contains("<NoDataValue>-9999</NoDataValue>"), "{aux}");
    assert_eq!(info_json(&p("d.rumi"))["gdal_nodata"]["bands"], serde_json::json!({"1": "-9999"}));
    let (t, _) = ok(None, &["info", &s("d.rumi")]);
    assert!(t.contains("nodata            GDAL band 1: -9999 (for GDAL readers, in "), "{t}");
    // A Cube: bands t * B + b + 1 of the whole file, and each time step's subdataset.
    ok(None, &["stack", &s("dem.tif"), &s("dem2.tif"), &s("c.rumi"), "--times", "2020-01-01,2020-02-01", "-q"]);
    if let Some(plugin) = &plugin {
        let v = plugin.info(&s("d.rumi"), &[]);
        assert_eq!(v["bands"][0]["noDataValue"], -9999.0, "{v}");
        let v = plugin.info(&s("c.rumi"), &[]);
        assert_eq!(
            (&v["bands"][0]["noDataValue"], &v["bands"][1]["noDataValue"]),
            (&(-9999.0).into(), &(-32768.0).into())
        );
        let v = plugin.info(&format!("RUMI:\"{}\":1", s("c.rumi")), &[]);
        assert_eq!(v["bands"][0]["noDataValue"], -32768.0, "{v}");
        // gdal_translate carries it on, and rumi reads it back from there.
        plugin.tool("gdal_translate", &["-q", &s("d.rumi"), &s("back.tif")]);
        ok(Some(plugin), &["convert", &s("back.tif"), &s("back.rumi"), "-q"]);
        assert_eq!(fs::read_to_string(p("back.rumi.aux.xml")).unwrap(), aux);
        rasterio_nodata(&p("d.rumi"), plugin, -9999.0);
    }
    // Rewriting without nodata replaces rumi's own sidecar by one without it (the GeoTIFF's
    // band is Gray) ...
    ok(None, &["convert", &s("plain.tif"), &s("d.rumi"), "--time", "2020-01-01", "-q"]);
    assert!(rumi_colour_only(&p("d.rumi.aux.xml")));
    assert!(info_json(&p("d.rumi"))["gdal_nodata"].is_null());
    let (t, _) = ok(None, &["info", &s("d.rumi")]);
    assert!(!t.contains("nodata"), "{t}");
    // ... and from a source with nothing to keep (a VRT band has no colour interpretation)
    // removes it, and says so.
    ok(None, &["convert", &s("dem.tif"), &s("d.rumi"), "--time", "2020-01-01", "-q"]);
    fs::write(p("plain.vrt"), bare_vrt(&s("plain.tif"), "Float32")).unwrap();
    let (_, err) = ok(None, &["convert", &s("plain.vrt"), &s("d.rumi"), "--time", "2020-01-01", "-q"]);
    assert!(err.contains("removed") && err.contains("d.rumi.aux.xml") && err.contains("nodata"), "{err}");
    assert!(!p("d.rumi.aux.xml").exists());
    // A sidecar GDAL extended (statistics) is the user's: refused without --force.
    ok(None, &["convert", &s("dem.tif"), &s("d.rumi"), "--time", "2020-01-01", "-q"]);
    fs::write(p("d.rumi.aux.xml"), stats_aux()).unwrap();
    let err = fails(None, &["convert", &s("dem.tif"), &s("d.rumi"), "--time", "2020-01-01", "-q"]);
    assert!(err.contains("--force"), "{err}");
    ok(None, &["convert", &s("dem.tif"), &s("d.rumi"), "--time", "2020-01-01", "-q", "--force"]);
    assert_eq!(fs::read_to_string(p("d.rumi.aux.xml")).unwrap(), aux);
}

/// rasterio's `ds.nodata`, when Debian's python3-rasterio is installed.
fn rasterio_nodata(path: &Path, plugin: &Plugin, want: f64) {
    let probe = Command::new("/usr/bin/python3").args(["-c", "import rasterio"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED rasterio check: /usr/bin/python3 has no rasterio (apt-get install python3-rasterio)");
        return;
    }
    let o = Command::new("/usr/bin/python3")
        .args(["-c", "import rasterio, sys; print(rasterio.open(sys.argv[1]).nodata)"])
        .arg(path)
        .env("GDAL_DRIVER_PATH", plugin.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim().parse::<f64>().unwrap(), want);
}

/// A 4096 x 2048 float32 source of pseudo-random samples (slow enough to compress that a
/// signal lands mid-way).
fn big_source(path: &Path) {
    let driver = gdal::DriverManager::get_driver_by_name("GTiff").unwrap();
    let (w, h) = (4096, 2048);
    let ds = driver.create_with_band_type::<f32, _>(path, w, h, 1).unwrap();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let data: Vec<f32> = (0..w * h)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / 7.0
        })
        .collect();
    let mut buf = gdal::raster::Buffer::new((w, h), data);
    ds.rasterband(1).unwrap().write((0, 0), (w, h), &mut buf).unwrap();
}

/// Waits until process `pid` holds an anonymous (O_TMPFILE) or partial output in `dir` with
/// data in it: the conversion is under way.
fn wait_for_partial(pid: u32, dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(120);
    // /proc shows canonical paths (TMPDIR may be a symlink)
    let dir = fs::canonicalize(dir).unwrap().display().to_string();
    while Instant::now() < deadline {
        if let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) {
            for fd in fds.flatten() {
                let Ok(target) = fs::read_link(fd.path()) else { continue };
                let t = target.display().to_string();
                if t.starts_with(&dir)
                    && (t.ends_with("(deleted)") || t.contains(".rumi-partial-"))
                    && fs::metadata(fd.path()).is_ok_and(|m| m.len() > 64 << 10)
                {
                    return;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("rumi convert never started writing its output");
}

#[test]
fn signals_exit_128_plus_n_and_leave_the_old_pair() {
    let dir = tempdir();
    let src_dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let big = src_dir.path().join("big.tif");
    big_source(&big);
    geotiff::<f32>(&src_dir.path().join("small.tif"), (37, 23), 1, &[], None);
    ok(
        None,
        &[
            "convert",
            &src_dir.path().join("small.tif").display().to_string(),
            &p("out.rumi").display().to_string(),
            "--time",
            "2020-01-01",
            "-q",
        ],
    );
    let before = snapshot(dir.path());
    assert_eq!(before.len(), 3, "the file, its header and its PAM sidecar (Gray): {:?}", entries(dir.path()));
    for (sig, code) in
        [(libc::SIGINT, Some(130)), (libc::SIGTERM, Some(143)), (libc::SIGHUP, Some(129)), (libc::SIGKILL, None)]
    {
        let child = Command::new(BIN)
            .args([
                "convert",
                &big.display().to_string(),
                &p("out.rumi").display().to_string(),
                "--time",
                "2021-01-01",
                "-q",
            ])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_partial(child.id(), dir.path());
        // SAFETY: sends a signal to the child we spawned (still running: we have not waited).
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
        let out = child.wait_with_output().unwrap();
        use std::os::unix::process::ExitStatusExt;
        match code {
            Some(c) => {
                assert_eq!(out.status.code(), Some(c), "signal {sig}: {}", text(&out.stderr));
                assert!(text(&out.stderr).contains("interrupted"), "{}", text(&out.stderr));
            }
            None => assert_eq!(out.status.signal(), Some(sig)),
        }
        assert!(
            snapshot(dir.path()) == before,
            "signal {sig}: the old pair changed or a temporary is visible: {:?}",
            entries(dir.path())
        );
    }
}

#[test]
fn partial_files_of_dead_runs_are_removed_by_the_next_run() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u8>(&p("src.tif"), (37, 23), 1, &[], None);
    // left by a run killed where the filesystem has no O_TMPFILE
    fs::write(p(".rumi-partial-0123456789ab"), b"half a file").unwrap();
    // held by a live run (locked): kept
    fs::write(p(".rumi-partial-live00000000"), b"in use").unwrap();
    let live = fs::File::open(p(".rumi-partial-live00000000")).unwrap();
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor we own.
    assert_eq!(unsafe { libc::flock(live.as_raw_fd(), libc::LOCK_EX) }, 0);
    let (_, err) = ok(None, &["convert", &s("src.tif"), &s("out.rumi"), "--time", "2020-01-01", "-q"]);
    assert!(err.contains(".rumi-partial-0123456789ab") && err.contains("interrupted rumi run"), "{err}");
    assert_eq!(
        entries(dir.path()),
        [".rumi-partial-live00000000", "out.rumi", "out.rumi.aux.xml", "out.rumi.header", "src.tif"]
    );
    drop(live);
}

/// A commit that fails (the old sidecar cannot be removed) leaves the old file as it was:
/// the new file never appears beside a sidecar that does not describe it.
#[test]
fn a_failed_commit_leaves_the_old_file() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u8>(&p("a.tif"), (37, 23), 1, &[], None);
    geotiff::<u8>(&p("b.tif"), (50, 20), 1, &[], None);
    ok(None, &["convert", &s("a.tif"), &s("out.rumi"), "--time", "2020-01-01", "--no-header", "-q"]);
    fs::create_dir(p("out.rumi.header")).unwrap();
    fs::write(p("out.rumi.header/keep"), b"x").unwrap();
    let before = snapshot(dir.path());
    let err = fails(None, &["convert", &s("b.tif"), &s("out.rumi"), "--time", "2020-01-02", "-q"]);
    assert!(err.contains("out.rumi.header"), "{err}");
    assert!(snapshot(dir.path()) == before, "{:?}", entries(dir.path()));
    assert_eq!(entries(dir.path()), ["a.tif", "b.tif", "out.rumi", "out.rumi.aux.xml", "out.rumi.header"]);
}

/// Where the filesystem has no O_TMPFILE (forced here with RUMI_NAMED_TEMPORARIES=1), the
/// temporary file has a name: a SIGKILL leaves it, and the next run in that folder removes it
/// (its lock is free) and says so; outputs are still committed whole.
#[test]
fn named_temporaries_of_a_killed_run_are_cleaned_by_the_next() {
    let dir = tempdir();
    let src_dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    let big = src_dir.path().join("big.tif");
    big_source(&big);
    let small = src_dir.path().join("small.tif");
    geotiff::<f32>(&small, (37, 23), 1, &[], None);
    let named = |args: &[&str]| {
        let o = Command::new(BIN).args(args).env("RUMI_NAMED_TEMPORARIES", "1").output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    named(&["convert", &small.display().to_string(), &s("out.rumi"), "--time", "2020-01-01", "-q"]);
    assert_eq!(entries(dir.path()), ["out.rumi", "out.rumi.aux.xml", "out.rumi.header"]);
    let before = snapshot(dir.path());
    let child = Command::new(BIN)
        .args(["convert", &big.display().to_string(), &s("out.rumi"), "--time", "2021-01-01", "-q"])
        .env("RUMI_NAMED_TEMPORARIES", "1")
        .spawn()
        .unwrap();
    wait_for_partial(child.id(), dir.path());
    // SAFETY: sends SIGKILL to the child we spawned and have not waited for.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) }, 0);
    let _ = child.wait_with_output().unwrap();
    let left: Vec<String> = entries(dir.path()).into_iter().filter(|n| n.starts_with(".rumi-partial-")).collect();
    assert_eq!(left.len(), 1, "{:?}", entries(dir.path()));
    let mut old = snapshot(dir.path());
    old.remove(&left[0]);
    assert!(old == before, "the old pair changed");
    let err = named(&["convert", &small.display().to_string(), &s("next.rumi"), "--time", "2020-01-01", "-q"]);
    assert!(err.contains(&left[0]) && err.contains("interrupted rumi run"), "{err}");
    assert_eq!(
        entries(dir.path()),
        ["next.rumi", "next.rumi.aux.xml", "next.rumi.header", "out.rumi", "out.rumi.aux.xml", "out.rumi.header"]
    );
}
