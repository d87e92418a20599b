//! The class-limited sampler's rejection draw (`rumi.torch.tiling.reject_draw`, used by
//! `RandomChipSampler._rejected`): for each key, offsets drawn uniformly over its file's cells
//! (`rumi.torch.cells`: a cell, then an offset in it), the first that lies in the file and meets
//! every class limit taken. A candidate in a sure cell is taken unchecked; another is checked
//! against each limit's tile-bound sum (`tiles::query`, the walk of `tile_sums`) and scored as
//! `rumi.torch.contents._score` does, with the same float operations: the same decisions as
//! `Contents.ok_many`. Each key draws from its own random stream (SplitMix64 of the call's seed
//! and the key's place), so a key's offset depends on the seed, its place and its file alone,
//! but for the give-up rule: a key is left unmet after `tries` candidates, or once its file's
//! keys left would need more than `give_up` candidates at the file's acceptance so far (after
//! `min_tries` of them), for the sampler's pool of that file to draw.

use pyo3::buffer::ElementType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::tiles::{out_of_area, query, Axis, Grid, View, MAX_OFFSET};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Min,
    Max,
    Cloud,
}

/// A limit's checked inputs: its kind, value and steps needed (cloud), its tile grid and each
/// file's row of the table (`pos`, one per file of the call), the rows' shift and rectangle.
struct LimitIn {
    kind: Kind,
    value: f64,
    need: f64,
    grid: Grid,
    pos: View,
    shift: View,
    rect: View,
}

/// A limit's terms as slices (`LimitIn`'s, inside the call without the GIL).
struct Limit<'a> {
    kind: Kind,
    value: f64,
    need: f64,
    ra: Axis,
    ca: Axis,
    nx: usize,
    m: usize,
    table: &'a [f64],
    area: &'a [f64],
    pos: &'a [i64],
    shift: &'a [i64],
    rect: &'a [i64],
}

impl Limit<'_> {
    /// Whether the h x w chip at (r0, c0) of file f meets the limit (`Contents.ok_many`'s
    /// decision: outside the rectangle its source covers, 0 and every sample).
    fn chip_ok(
        &self,
        f: usize,
        (r0, c0): (i64, i64),
        (h, w): (i64, i64),
        cols: &mut Vec<(usize, f64, f64)>,
    ) -> Result<bool, String> {
        let row = self.pos[f] as usize;
        let (dr, dc) = (self.shift[2 * row], self.shift[2 * row + 1]);
        let rc = &self.rect[4 * row..4 * row + 4];
        let hw = (h * w) as f64;
        let lower = self.kind == Kind::Min;
        let covered = r0 >= rc[0] && r0 + h <= rc[1] && c0 >= rc[2] && c0 + w <= rc[3];
        let s = if !covered {
            if lower {
                0.0
            } else {
                hw
            }
        } else {
            self.sums::<false>(row, (r0 + dr, r0 + dr, c0 + dc, c0 + dc), cols)?.0
        };
        Ok(self.meets(s, hw))
    }

    /// `tiles::query`'s sums (at the least, at the most samples) of table row `row` over the
    /// tiles the chips at offsets q touch (blocks when BLOCKS), of the bound the limit is decided
    /// on (the lower for a "min" limit, else the upper).
    fn sums<const BLOCKS: bool>(
        &self,
        row: usize,
        q: (i64, i64, i64, i64),
        cols: &mut Vec<(usize, f64, f64)>,
    ) -> Result<(f64, f64), String> {
        let vals = &self.table[row * self.m..][..self.m];
        let got = if self.kind == Kind::Min {
            query::<BLOCKS, true>(&self.ra, &self.ca, self.nx, vals, self.area, q, cols)
        } else {
            query::<BLOCKS, false>(&self.ra, &self.ca, self.nx, vals, self.area, q, cols)
        };
        got.map_err(|bad| out_of_area(row, bad))
    }

    /// `_score(lim, v, v, size) >= 0` of a chip whose bound (the lower for a "min" limit, else
    /// the upper) is v, of hw samples.
    fn meets(&self, v: f64, hw: f64) -> bool {
        match self.kind {
            Kind::Min => v / hw - self.value + 1e-12 >= 0.0,
            Kind::Max => self.value - v / hw + 1e-12 >= 0.0,
            Kind::Cloud => (if v / hw <= self.value + 1e-12 { 1.0 } else { 0.0 }) - self.need >= 0.0,
        }
    }

    /// (every chip at offsets a1..=a2, b1..=b2 of file f meets the limit, some chip may):
    /// `Contents.ok_range_many`'s decision for one limit (a block partly inside the rectangle its
    /// source covers: undecided, false and true; wholly outside: as a chip with no source).
    fn block(
        &self,
        f: usize,
        (a1, a2, b1, b2): (i64, i64, i64, i64),
        (h, w): (i64, i64),
        cols: &mut Vec<(usize, f64, f64)>,
    ) -> Result<(bool, bool), String> {
        let row = self.pos[f] as usize;
        let (dr, dc) = (self.shift[2 * row], self.shift[2 * row + 1]);
        let rc = &self.rect[4 * row..4 * row + 4];
        let hw = (h * w) as f64;
        let lower = self.kind == Kind::Min;
        let some = a1.max(rc[0]) <= a2.min(rc[1] - h) && b1.max(rc[2]) <= b2.min(rc[3] - w);
        if !some {
            let u = self.meets(if lower { 0.0 } else { hw }, hw);
            return Ok((u, u));
        }
        let every = a1 >= rc[0] && a2 + h <= rc[1] && b1 >= rc[2] && b2 + w <= rc[3];
        let (least, most) = self.sums::<true>(row, (a1 + dr, a2 + dr, b1 + dc, b2 + dc), cols)?;
        let (worst, best) = if lower { (least, most) } else { (most, least) };
        Ok((every && self.meets(worst, hw), !every || self.meets(best, hw)))
    }
}

/// SplitMix64: a key's random stream.
struct Rng(u64);

impl Rng {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The stream of key `i` of a call seeded `seed`.
    fn new(seed: u64, i: u64) -> Rng {
        Rng(Rng::mix(seed ^ Rng::mix(i.wrapping_add(0x9E37_79B9_7F4A_7C15))))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        Rng::mix(self.0)
    }

    /// Uniform in [0, n) (n >= 1), without bias (Lemire's multiply and reject).
    fn below(&mut self, n: u64) -> u64 {
        loop {
            let m = u128::from(self.next()) * u128::from(n);
            if (m as u64) < n && (m as u64) < n.wrapping_neg() % n {
                continue;
            }
            return (m >> 64) as u64;
        }
    }
}

fn slice<'a, T>(v: &View) -> &'a [T] {
    // SAFETY: a View is the C-contiguous, aligned memory of `len` items of T (checked by View::get
    // against T's dtype), held alive until the call returns (every View outlives the slices).
    unsafe { std::slice::from_raw_parts(v.ptr as *const T, v.len) }
}

/// The `limits` argument's tuples checked (kind, value, steps needed, tiles, shape, grid, table,
/// area, pos: one per file of the call, shift, rect), for chips of `size`.
fn limits_in(limits: &[Bound<'_, PyTuple>], nf: usize, size: (i64, i64)) -> PyResult<Vec<LimitIn>> {
    let err = |m: String| PyValueError::new_err(m);
    let i64t = ElementType::SignedInteger { bytes: 8 };
    let mut lims = Vec::with_capacity(limits.len());
    for (k, t) in limits.iter().enumerate() {
        if t.len() != 11 {
            return Err(err(format!("limits[{k}] must be a tuple of 11 terms, not {}", t.len())));
        }
        let kind = match t.get_item(0)?.extract::<String>()?.as_str() {
            "min" => Kind::Min,
            "max" => Kind::Max,
            "cloud" => Kind::Cloud,
            other => return Err(err(format!("limits[{k}]: kind {other:?} is not min, max or cloud"))),
        };
        let value: f64 = t.get_item(1)?.extract()?;
        let need: f64 = t.get_item(2)?.extract()?;
        let grid = Grid::get(
            t.get_item(3)?.extract()?,
            t.get_item(4)?.extract()?,
            t.get_item(5)?.extract()?,
            size,
            &t.get_item(6)?,
            &t.get_item(7)?,
        )?;
        let pos = View::get(&t.get_item(8)?, "pos", i64t, false)?;
        let shift = View::get(&t.get_item(9)?, "shift", i64t, false)?;
        let rect = View::get(&t.get_item(10)?, "rect", i64t, false)?;
        if pos.len != nf || shift.len != 2 * grid.rows || rect.len != 4 * grid.rows {
            return Err(err(format!(
                "limits[{k}]: pos has {} values (one per file: {nf}), shift {} and rect {} (2 and 4 per table row: {})",
                pos.len, shift.len, rect.len, grid.rows
            )));
        }
        lims.push(LimitIn { kind, value, need, grid, pos, shift, rect });
    }
    Ok(lims)
}

/// `limits_in`'s limits as slices (inside a call without the GIL).
fn limit_slices(lims: &[LimitIn]) -> Vec<Limit<'_>> {
    lims.iter()
        .map(|l| Limit {
            kind: l.kind,
            value: l.value,
            need: l.need,
            ra: l.grid.ra,
            ca: l.grid.ca,
            nx: l.grid.nx,
            m: l.grid.m,
            table: &slice::<f64>(&l.grid.table)[..l.grid.rows * l.grid.m],
            area: slice(&l.grid.area),
            pos: slice(&l.pos),
            shift: slice(&l.shift),
            rect: slice(&l.rect),
        })
        .collect()
}

/// File f's row of each limit within its table, its shift within MAX_OFFSET.
fn check_rows(ls: &[Limit], f: usize) -> Result<(), String> {
    for l in ls {
        let p = l.pos[f];
        let rows = l.table.len() / l.m.max(1);
        if p < 0 || p as usize >= rows {
            return Err(format!("file {f}'s table row {p} is outside the table's {rows} rows"));
        }
        let p = p as usize;
        if l.shift[2 * p..2 * p + 2].iter().any(|v| v.abs() > MAX_OFFSET) {
            return Err(format!("file {f}'s shift is beyond +-{MAX_OFFSET}"));
        }
    }
    Ok(())
}

/// `reject_draw(cells, inv, step_r, step_c, empty, limits, size, seed, tries, min_tries,
/// give_up, r0, c0, met)`: an offset for each key i of file `inv[i]` (an index into the call's
/// files) by rejection over the file's cells. `cells`: `rumi.torch.cells.Cells.of`'s tuple (per
/// file int32 count, start, cell rows, cell columns, end rows, end columns, first rows, first
/// columns, cells a row; int32 cell numbers; bool sure), in offsets of the file's step (`step_r`,
/// `step_c` int64, per file: the offsets returned are in pixels); `empty` (bool, per file): draw
/// nothing for its keys. `limits`: per class limit a tuple (kind "min" / "max" / "cloud", value,
/// steps needed, tiles, shape, grid, table, area, pos, shift, rect): a FlatGroup's terms
/// (`tile_sums`' table and area, with int64 `pos` each file's row, `shift` (rows, 2) and
/// `rect` (rows, 4)). Writes r0, c0 (int64) and met (bool) of each key (unmet: 0, 0, False).
/// Any bad input is a ValueError naming it. The GIL is released.
#[pyfunction]
#[pyo3(signature = (cells, inv, step_r, step_c, empty, limits, size, seed, tries, min_tries, give_up, r0, c0, met))]
#[allow(clippy::too_many_arguments)]
pub fn reject_draw(
    py: Python<'_>,
    cells: &Bound<'_, PyTuple>,
    inv: &Bound<'_, PyAny>,
    step_r: &Bound<'_, PyAny>,
    step_c: &Bound<'_, PyAny>,
    empty: &Bound<'_, PyAny>,
    limits: Vec<Bound<'_, PyTuple>>,
    size: (i64, i64),
    seed: u64,
    tries: u64,
    min_tries: u64,
    give_up: u64,
    r0: &Bound<'_, PyAny>,
    c0: &Bound<'_, PyAny>,
    met: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let err = |m: String| PyValueError::new_err(m);
    let i32t = ElementType::SignedInteger { bytes: 4 };
    let i64t = ElementType::SignedInteger { bytes: 8 };
    let boolt = ElementType::Bool;
    if cells.len() != 11 {
        return Err(err(format!("cells must be Cells.of's 11 arrays, not {}", cells.len())));
    }
    let names = ["count", "start", "cell_r", "cell_c", "end_r", "end_c", "lo_r", "lo_c", "ncx", "idx", "sure"];
    let mut cv = Vec::with_capacity(11);
    for (k, name) in names.iter().enumerate() {
        cv.push(View::get(&cells.get_item(k)?, name, if k == 10 { boolt } else { i32t }, false)?);
    }
    let nf = cv[0].len;
    for (k, v) in cv.iter().enumerate().take(9) {
        if v.len != nf {
            return Err(err(format!("cells' {} has {} values, count has {nf}", names[k], v.len)));
        }
    }
    if cv[10].len != cv[9].len {
        return Err(err(format!("cells' sure has {} values, idx has {}", cv[10].len, cv[9].len)));
    }
    let per_file = [("step_r", step_r, i64t), ("step_c", step_c, i64t), ("empty", empty, boolt)];
    let mut fv = Vec::with_capacity(3);
    for (name, o, t) in per_file {
        let v = View::get(o, name, t, false)?;
        if v.len != nf {
            return Err(err(format!("{name} has {} values, one per file ({nf}) needed", v.len)));
        }
        fv.push(v);
    }
    let inv = View::get(inv, "inv", i64t, false)?;
    let nk = inv.len;
    let outs =
        [View::get(r0, "r0", i64t, true)?, View::get(c0, "c0", i64t, true)?, View::get(met, "met", boolt, true)?];
    for (name, v) in ["r0", "c0", "met"].iter().zip(&outs) {
        if v.len != nk {
            return Err(err(format!("{name} has {} values, inv has {nk}", v.len)));
        }
    }
    if size.0 < 1 || size.1 < 1 || size.0 > crate::tiles::MAX_SIDE || size.1 > crate::tiles::MAX_SIDE {
        return Err(err(format!("size {size:?} must be positive and at most {}", crate::tiles::MAX_SIDE)));
    }
    let lims = limits_in(&limits, nf, size)?;
    for o in &outs {
        let ins = cv.iter().chain(&fv).chain([&inv]).chain(lims.iter().flat_map(|l| [&l.pos, &l.shift, &l.rect]));
        let tabs = lims.iter().flat_map(|l| [&l.grid.table, &l.grid.area]);
        for v in ins.chain(tabs).chain(outs.iter().filter(|v| v.ptr != o.ptr)) {
            let (a, b) = (o.bytes(), v.bytes());
            if !a.is_empty() && !b.is_empty() && a.start < b.end && b.start < a.end {
                return Err(err("the outputs overlap another buffer of the call".into()));
            }
        }
    }
    let res = py.detach(|| -> Result<(), String> {
        let c: Vec<&[i32]> = cv[..10].iter().map(slice::<i32>).collect();
        let sure: &[bool] = slice(&cv[10]);
        let (sr, sc, empty): (&[i64], &[i64], &[bool]) = (slice(&fv[0]), slice(&fv[1]), slice(&fv[2]));
        let inv: &[i64] = slice(&inv);
        let ls = limit_slices(&lims);
        // SAFETY: writable views of nk items each, checked above to overlap no other buffer of
        // the call (no other slice here aliases them), held until return.
        let r_out = unsafe { std::slice::from_raw_parts_mut(outs[0].ptr as *mut i64, nk) };
        // SAFETY: as above.
        let c_out = unsafe { std::slice::from_raw_parts_mut(outs[1].ptr as *mut i64, nk) };
        // SAFETY: as above.
        let m_out = unsafe { std::slice::from_raw_parts_mut(outs[2].ptr as *mut bool, nk) };
        let (count, start, ch, cw, end_r, end_c, lo_r, lo_c, ncx, idx) =
            (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
        // each file's terms checked once (the files the keys draw from)
        let mut left = vec![0u64; nf];
        for (i, &f) in inv.iter().enumerate() {
            if f < 0 || f as usize >= nf {
                return Err(format!("inv[{i}] = {f} is not one of the {nf} files"));
            }
            let f = f as usize;
            if left[f] == 0 && count[f] > 0 && !empty[f] {
                let s = i64::from(start[f]);
                if s < 0 || s + i64::from(count[f]) > idx.len() as i64 {
                    return Err(format!(
                        "file {f}'s cells {s}..{} are not within the {} cells",
                        s + i64::from(count[f]),
                        idx.len()
                    ));
                }
                if ch[f] < 1 || cw[f] < 1 || ncx[f] < 1 || sr[f] < 1 || sc[f] < 1 {
                    return Err(format!(
                        "file {f}: cells of {} x {}, {} a row, steps {} x {}: each must be >= 1",
                        ch[f], cw[f], ncx[f], sr[f], sc[f]
                    ));
                }
                check_rows(&ls, f)?;
            }
            left[f] += 1;
        }
        let (mut tried, mut hits) = (vec![0u64; nf], vec![0u64; nf]);
        let mut cols: Vec<(usize, f64, f64)> = Vec::new();
        for (i, &f) in inv.iter().enumerate() {
            let f = f as usize;
            let (rem, k) = (left[f], i64::from(count[f]));
            left[f] -= 1;
            (r_out[i], c_out[i], m_out[i]) = (0, 0, false);
            if empty[f] || k <= 0 {
                continue;
            }
            let (h1, w1) = (i64::from(ch[f]), i64::from(cw[f]));
            let nxc = ncx[f] as u32;
            let mut rng = Rng::new(seed, i as u64);
            for _ in 0..tries {
                if tried[f] >= min_tries
                    && u128::from(rem) * u128::from(tried[f] + 1) > u128::from(give_up) * u128::from(hits[f] + 1)
                {
                    break; // the file's keys left would cost more candidates than its pool
                }
                tried[f] += 1;
                // a cell, then a row and a column in it: uniform over the cells' offsets (no division but the
                // cell number's, in 32 bits)
                let kc = rng.below(k as u64) as i64;
                let (ar, ac) = (rng.below(h1 as u64) as i64, rng.below(w1 as u64) as i64);
                let b = (i64::from(start[f]) + kc) as usize;
                let q = idx[b];
                if q < 0 {
                    return Err(format!("cell {b} has the number {q} (< 0)"));
                }
                let (qr, qc) = (i64::from(q as u32 / nxc), i64::from(q as u32 % nxc));
                let r = i64::from(lo_r[f]) + qr * h1 + ar;
                let cc = i64::from(lo_c[f]) + qc * w1 + ac;
                if r >= i64::from(end_r[f]) || cc >= i64::from(end_c[f]) {
                    continue; // an edge cell's offset past the file's
                }
                let (pr, pc) = match (r.checked_mul(sr[f]), cc.checked_mul(sc[f])) {
                    (Some(pr), Some(pc)) if pr.abs() <= MAX_OFFSET && pc.abs() <= MAX_OFFSET => (pr, pc),
                    _ => {
                        return Err(format!(
                            "file {f}'s offset ({r}, {cc}) on steps of ({}, {}) is beyond +-{MAX_OFFSET}",
                            sr[f], sc[f]
                        ))
                    }
                };
                let mut ok = sure[b];
                if !ok {
                    ok = true;
                    for l in &ls {
                        if !l.chip_ok(f, (pr, pc), size, &mut cols)? {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    hits[f] += 1;
                    (r_out[i], c_out[i], m_out[i]) = (pr, pc, true);
                    break;
                }
            }
        }
        Ok(())
    });
    drop(outs);
    res.map_err(PyValueError::new_err)
}

/// A file's cells as `Cells.decide` lays them: its offsets from (ly, lx) to before (ey, ex), in
/// cells of ch x cw offsets, ncy x ncx of them, on steps (sy, sx) (pixels an offset).
struct FileCells {
    ly: i64,
    lx: i64,
    ey: i64,
    ex: i64,
    ch: i64,
    cw: i64,
    ncx: i64,
    sy: i64,
    sx: i64,
}

/// A block of cells (its first cell's row and column, its cells a side) of file f decided
/// against every limit, halved while undecided (each half rounded up first), its cells (or
/// those of its halves) where some chip may meet the limits pushed to idx and sure.
#[allow(clippy::too_many_arguments)]
fn visit(
    ls: &[Limit],
    f: usize,
    fc: &FileCells,
    labelled: bool,
    (i0, k0, ni, nk): (i64, i64, i64, i64),
    size: (i64, i64),
    cols: &mut Vec<(usize, f64, f64)>,
    out: &mut (Vec<i32>, Vec<bool>),
) -> Result<(), String> {
    let r1 = fc.ly + i0 * fc.ch;
    let c1 = fc.lx + k0 * fc.cw;
    let r2 = (r1 + ni * fc.ch).min(fc.ey) - 1;
    let c2 = (c1 + nk * fc.cw).min(fc.ex) - 1;
    let q = (r1 * fc.sy, r2 * fc.sy, c1 * fc.sx, c2 * fc.sx);
    let (mut sure, mut maybe) = (true, true);
    for l in ls {
        let (s, m) = l.block(f, q, size, cols)?;
        sure &= s;
        maybe &= m;
        if !maybe {
            return Ok(());
        }
    }
    if !sure && (ni > 1 || nk > 1) {
        let (hi, hk) = ((ni + 1) / 2, (nk + 1) / 2);
        for (a, b, x, y) in [
            (i0, k0, hi, hk),
            (i0, k0 + hk, hi, nk - hk),
            (i0 + hi, k0, ni - hi, hk),
            (i0 + hi, k0 + hk, ni - hi, nk - hk),
        ] {
            if x > 0 && y > 0 {
                visit(ls, f, fc, labelled, (a, b, x, y), size, cols, out)?;
            }
        }
        return Ok(());
    }
    for a in i0..i0 + ni {
        for b in k0..k0 + nk {
            out.0.push((a * fc.ncx + b) as i32);
            out.1.push(sure && labelled);
        }
    }
    Ok(())
}

/// `decide_cells`' result: each file's number of cells, every cell's number and sure.
type Decided = (Vec<i64>, Vec<i32>, Vec<bool>);

/// `decide_cells(geo, labelled, n, limits, size) -> (count, idx, sure)`: `Cells.decide`'s cells
/// of each file of the call where some chip may meet every class limit (`limits`: as
/// `reject_draw`'s, pos one per file). geo: int64 (files, 10) per file its first offset (rows,
/// columns), end, cell size, cells per axis and steps (`FileCells`, ncy then ncx before the
/// steps); labelled (bool, per file): its cells may be sure. Blocks of n x n cells decided
/// first, each undecided one halved until decided or of one cell. Returns each file's number
/// of cells (int64 bytes), then every cell's number on its file's grid (int32 bytes,
/// row-major, files in turn) and whether it is sure (bool bytes). A ValueError names a bad input.
#[pyfunction]
#[pyo3(signature = (geo, labelled, n, limits, size))]
pub fn decide_cells<'py>(
    py: Python<'py>,
    geo: &Bound<'py, PyAny>,
    labelled: &Bound<'py, PyAny>,
    n: i64,
    limits: Vec<Bound<'py, PyTuple>>,
    size: (i64, i64),
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let err = |m: String| PyValueError::new_err(m);
    let geo = View::get(geo, "geo", ElementType::SignedInteger { bytes: 8 }, false)?;
    if geo.shape().len() != 2 || geo.shape()[1] != 10 {
        return Err(err(format!("geo has shape {}, not (files, 10)", crate::tiles::py_tuple(geo.shape()))));
    }
    let nf = geo.shape()[0];
    let lab = View::get(labelled, "labelled", ElementType::Bool, false)?;
    if lab.len != nf {
        return Err(err(format!("labelled has {} values, geo {nf} files", lab.len)));
    }
    if !(1..=1 << 16).contains(&n) {
        return Err(err(format!("n {n} must be in 1..=65536")));
    }
    if size.0 < 1 || size.1 < 1 || size.0 > crate::tiles::MAX_SIDE || size.1 > crate::tiles::MAX_SIDE {
        return Err(err(format!("size {size:?} must be positive and at most {}", crate::tiles::MAX_SIDE)));
    }
    let lims = limits_in(&limits, nf, size)?;
    let res = py.detach(|| -> Result<Decided, String> {
        let g: &[i64] = slice(&geo);
        let lab: &[bool] = slice(&lab);
        let ls = limit_slices(&lims);
        let mut count = vec![0i64; nf];
        let mut out = (Vec::new(), Vec::new());
        let mut cols = Vec::new();
        for f in 0..nf {
            let v = &g[10 * f..10 * f + 10];
            let fc =
                FileCells { ly: v[0], lx: v[1], ey: v[2], ex: v[3], ch: v[4], cw: v[5], ncx: v[7], sy: v[8], sx: v[9] };
            let ncy = v[6];
            if ncy < 1 || fc.ncx < 1 {
                continue; // no offset: no cell
            }
            if fc.ch < 1 || fc.cw < 1 || fc.sy < 1 || fc.sx < 1 {
                return Err(format!(
                    "file {f}: cells of {} x {}, steps {} x {}: each must be >= 1",
                    fc.ch, fc.cw, fc.sy, fc.sx
                ));
            }
            if ncy.saturating_mul(fc.ncx) > i64::from(i32::MAX) {
                return Err(format!("file {f}: {ncy} x {} cells, more than an int32 numbers", fc.ncx));
            }
            let far = [fc.ly, fc.lx, fc.ey, fc.ex].iter().any(|a| a.abs() > MAX_OFFSET / fc.sy.max(fc.sx).max(1))
                || fc.ly.saturating_add(ncy.saturating_mul(fc.ch)) > MAX_OFFSET
                || fc.lx.saturating_add(fc.ncx.saturating_mul(fc.cw)) > MAX_OFFSET;
            if far {
                return Err(format!("file {f}'s offsets are beyond +-{MAX_OFFSET}"));
            }
            check_rows(&ls, f)?;
            let before = out.0.len();
            for bi in (0..ncy).step_by(n as usize) {
                for bk in (0..fc.ncx).step_by(n as usize) {
                    let blk = (bi, bk, n.min(ncy - bi), n.min(fc.ncx - bk));
                    visit(&ls, f, &fc, lab[f], blk, size, &mut cols, &mut out)?;
                }
            }
            count[f] = (out.0.len() - before) as i64;
        }
        Ok((count, out.0, out.1))
    });
    let (count, idx, sure) = res.map_err(PyValueError::new_err)?;
    let bytes = |v: Vec<u8>| PyBytes::new(py, &v);
    Ok((
        bytes(count.iter().flat_map(|c| c.to_ne_bytes()).collect()),
        bytes(idx.iter().flat_map(|c| c.to_ne_bytes()).collect()),
        bytes(sure.iter().map(|&b| u8::from(b)).collect()),
    ))
}
