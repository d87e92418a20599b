//! The tile-bound sums of the samplers' class limits (`rumi.torch.tiling.tile_sums` and
//! `tile_sum_ranges`, used by `rumi.torch.contents`): for many chips, or blocks of chips, of
//! one tile grid, the sum over the tiles each touches of a term of the tile's value n (a
//! catalogue bound of a class count), its samples `area` and the chip's samples in it `ov`:
//!
//! - lower (a "min" limit's lower bound): `max(0, n - (area - ov))`
//! - upper (a "max" limit's upper bound): `min(ov, n)`
//!
//! for a block of chips (every offset `(r0, c0)` with `r1 <= r0 <= r2`, `c1 <= c0 <= c2`) at the
//! least and at the most samples any chip of it has in each tile (per axis a trapezoid in the
//! offset, as `tiling.tile_overlap_ranges`; their product). The walk is `tiling.py`'s (its
//! reference): a chip's rows in tile row `tr` are `min(r0 + h, min(tr th + th, Y)) - max(r0,
//! tr th)`, at least 0 (a chip may run past the raster's edge), tiles outside the grid add
//! nothing. Tiles a chip does not touch add 0 as in the walk because every value is checked to
//! lie in `[0, area]`. Values are integers held in float64 (class counts): the sums are exact
//! in any order, so bit-identical to numpy's.

use pyo3::buffer::{ElementType, PyUntypedBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The largest offset (in absolute value) and the largest tile, raster or chip side taken:
/// every sum and product of the walk then fits an i64 and is exact in an f64.
pub(crate) const MAX_OFFSET: i64 = 1 << 40;
pub(crate) const MAX_SIDE: i64 = 1 << 24;

/// A checked C-contiguous buffer of float64, int64, int32 or bool elements: its address and
/// element count (held alive by `buf`).
pub(crate) struct View {
    buf: PyUntypedBuffer,
    pub(crate) ptr: usize,
    pub(crate) len: usize,
}

impl View {
    /// `obj` as a buffer of `want` (float64, int64, int32 or bool) elements, C-contiguous and
    /// aligned, writable when `out`; a ValueError naming `name` and the problem otherwise.
    pub(crate) fn get(obj: &Bound<'_, PyAny>, name: &str, want: ElementType, out: bool) -> PyResult<View> {
        let buf = PyUntypedBuffer::get(obj)
            .map_err(|e| PyValueError::new_err(format!("{name} must be a buffer (a numpy array): {e}")))?;
        let (dtype, size) = match want {
            ElementType::Float { bytes: 8 } => ("float64", 8),
            ElementType::SignedInteger { bytes: 8 } => ("int64", 8),
            ElementType::SignedInteger { bytes: 4 } => ("int32", 4),
            _ => ("bool", 1),
        };
        let got = ElementType::from_format(buf.format());
        if got != want || buf.item_size() != size {
            return Err(PyValueError::new_err(format!(
                "{name} must hold {dtype} (buffer format {:?}, {} bytes an item)",
                buf.format(),
                buf.item_size()
            )));
        }
        if !buf.is_c_contiguous() {
            return Err(PyValueError::new_err(format!("{name} must be C-contiguous")));
        }
        if out && buf.readonly() {
            return Err(PyValueError::new_err(format!("{name} is read-only")));
        }
        let ptr = buf.buf_ptr() as usize;
        if ptr % size != 0 {
            return Err(PyValueError::new_err(format!("{name} is not aligned to {size} bytes")));
        }
        let len = buf.item_count();
        Ok(View { buf, ptr, len })
    }

    pub(crate) fn shape(&self) -> &[usize] {
        self.buf.shape()
    }

    pub(crate) fn bytes(&self) -> std::ops::Range<usize> {
        self.ptr..self.ptr + self.buf.item_size() * self.len
    }
}

/// A shape as Python writes it: `(2, 5)`, `(12,)`.
pub(crate) fn py_tuple(shape: &[usize]) -> String {
    let items: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

/// An axis of the walk (rows or columns): the tile side, the raster's side, the tiles along it,
/// the chip's side and `size - 1` as `q t + r` (the last tile from the first without a division).
#[derive(Clone, Copy)]
pub(crate) struct Axis {
    t: i64,
    n: i64,
    cells: i64,
    size: i64,
    q: i64,
    r: i64,
    /// log2(t) where t is a power of two (the usual tiles): tile_of shifts rather than divides
    shift: Option<u32>,
}

impl Axis {
    pub(crate) fn new(t: i64, n: i64, cells: i64, size: i64) -> Axis {
        let shift = (t > 0 && t & (t - 1) == 0).then(|| t.trailing_zeros());
        Axis { t, n, cells, size, q: (size - 1) / t, r: (size - 1) % t, shift }
    }

    /// The tile of offset `a` (floor division: a chip may start before the raster) and `a`'s
    /// place in it (an arithmetic shift is the floor division by a power of two).
    fn tile_of(&self, a: i64) -> (i64, i64) {
        let k = match self.shift {
            Some(s) => a >> s,
            None => a.div_euclid(self.t),
        };
        (k, a - k * self.t)
    }

    /// The tiles (in the grid) that a chip at an offset in `a1..=a2` may touch: from the tile
    /// of a1 to that of a2 + size - 1 (`k2`, `p2`: a2's tile and place).
    fn tiles(&self, k1: i64, (k2, p2): (i64, i64)) -> std::ops::Range<i64> {
        let last = k2 + self.q + i64::from(p2 + self.r >= self.t);
        let (first, last) = (k1.max(0), last.min(self.cells - 1));
        first..(last + 1).max(first)
    }

    /// The samples along the axis in tile `k` of a chip at offset `a`, at least 0 (the walk's).
    fn samples(&self, k: i64, a: i64) -> i64 {
        let lo_edge = k * self.t;
        let hi_edge = (lo_edge + self.t).min(self.n);
        ((a + self.size).min(hi_edge) - a.max(lo_edge)).max(0)
    }

    /// The least and the most samples along the axis in tile `k` of a chip at an offset in
    /// `a1..=a2` (tile_overlap_ranges' axis: a trapezoid in the offset, its least at an end,
    /// its most at the plateau's start clipped into the range).
    fn least_most(&self, k: i64, a1: i64, a2: i64) -> (i64, i64) {
        let lo_edge = k * self.t;
        let hi_edge = (lo_edge + self.t).min(self.n);
        let at_most = lo_edge.min(hi_edge - self.size).max(a1).min(a2);
        (self.samples(k, a1).min(self.samples(k, a2)), self.samples(k, at_most))
    }
}

/// One query's sums (at the least, at the most samples) over the tiles its chips touch: `vals`
/// its table row, `cols` scratch space; blocks when BLOCKS (else r1 == r2, c1 == c2: one
/// chip, the most not computed), the lower bound's terms when LOWER. Err: a value outside
/// [0, its tile's area] (the tile's row and column, the value, the area).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn query<const BLOCKS: bool, const LOWER: bool>(
    ra: &Axis,
    ca: &Axis,
    nx: usize,
    vals: &[f64],
    area: &[f64],
    (a1, a2, b1, b2): (i64, i64, i64, i64),
    cols: &mut Vec<(usize, f64, f64)>,
) -> Result<(f64, f64), (i64, usize, f64, f64)> {
    cols.clear();
    let (kb1, pb1) = ca.tile_of(b1);
    for c in ca.tiles(kb1, if BLOCKS { ca.tile_of(b2) } else { (kb1, pb1) }) {
        let (l, h) = if BLOCKS { ca.least_most(c, b1, b2) } else { (ca.samples(c, b1), 0) };
        cols.push((c as usize, l as f64, h as f64));
    }
    let (ka1, pa1) = ra.tile_of(a1);
    let (mut s_least, mut s_most) = (0.0f64, 0.0f64);
    for k in ra.tiles(ka1, if BLOCKS { ra.tile_of(a2) } else { (ka1, pa1) }) {
        let (rl, rh) = if BLOCKS { ra.least_most(k, a1, a2) } else { (ra.samples(k, a1), 0) };
        let (rl, rh) = (rl as f64, rh as f64);
        let base = k as usize * nx;
        for &(c, cl, ch) in cols.iter() {
            let (v, a) = (vals[base + c], area[base + c]);
            if !(v >= 0.0 && v <= a) {
                return Err((k, c, v, a));
            }
            let (ol, oh) = (rl * cl, rh * ch); // exact: products of integers below 2**48
            if LOWER {
                s_least += (v - (a - ol)).max(0.0);
                if BLOCKS {
                    s_most += (v - (a - oh)).max(0.0);
                }
            } else {
                s_least += ol.min(v);
                if BLOCKS {
                    s_most += oh.min(v);
                }
            }
        }
    }
    Ok((s_least, s_most))
}

/// The error of a table value outside [0, its tile's samples] (`query`'s Err: the tile's row and
/// column, the value, the area) in table row `row`.
pub(crate) fn out_of_area(row: usize, (k, c, v, a): (i64, usize, f64, f64)) -> String {
    format!(
        "table[{row}] holds {v} for tile ({k}, {c}), outside [0, its {a} samples]: the bounds need counts within the \
         tile's samples"
    )
}

/// A tile grid's checked terms (`tile_sums`' and the samplers' kernels' `tiles`, `shape`,
/// `grid`, `table`, `area` and chip `size`): the table's rows of ny x nx values, each tile's
/// samples in `area` (checked equal to the grid's), the chip size at most MAX_SIDE.
pub(crate) struct Grid {
    pub(crate) table: View,
    pub(crate) area: View,
    pub(crate) m: usize,
    pub(crate) rows: usize,
    pub(crate) ra: Axis,
    pub(crate) ca: Axis,
    pub(crate) nx: usize,
}

impl Grid {
    pub(crate) fn get(
        tiles: (i64, i64),
        shape: (i64, i64),
        grid: (i64, i64),
        size: (i64, i64),
        table: &Bound<'_, PyAny>,
        area: &Bound<'_, PyAny>,
    ) -> PyResult<Grid> {
        let side = |name: &str, v: (i64, i64)| {
            if v.0 < 1 || v.1 < 1 || v.0 > MAX_SIDE || v.1 > MAX_SIDE {
                return Err(PyValueError::new_err(format!("{name} {v:?} must be positive and at most {MAX_SIDE}")));
            }
            Ok(())
        };
        side("tiles", tiles)?;
        side("shape", shape)?;
        side("size", size)?;
        let along = |n: i64, t: i64| (n + t - 1) / t;
        if grid != (along(shape.0, tiles.0), along(shape.1, tiles.1)) {
            return Err(PyValueError::new_err(format!(
                "grid {grid:?} is not the tiles {tiles:?} of a {shape:?} raster ({:?})",
                (along(shape.0, tiles.0), along(shape.1, tiles.1))
            )));
        }
        let f64t = ElementType::Float { bytes: 8 };
        let m = (grid.0 * grid.1) as usize;
        let table = View::get(table, "table", f64t, false)?;
        if table.shape().len() != 2 || table.shape()[1] != m {
            return Err(PyValueError::new_err(format!(
                "table has shape {}, not (rows, {m}): a row of the {} x {} tiles' values per row",
                py_tuple(table.shape()),
                grid.0,
                grid.1
            )));
        }
        let n_rows = table.shape()[0];
        let area = View::get(area, "area", f64t, false)?;
        if area.len != m {
            return Err(PyValueError::new_err(format!("area has {} values, not one per tile ({m})", area.len)));
        }
        // SAFETY: the view holds m float64 items (checked above) that stay alive while `area` does.
        let areas = unsafe { std::slice::from_raw_parts(area.ptr as *const f64, m) };
        for (t, &a) in areas.iter().enumerate() {
            let (i, j) = (t as i64 / grid.1, t as i64 % grid.1);
            let want = tiles.0.min(shape.0 - i * tiles.0) * tiles.1.min(shape.1 - j * tiles.1);
            if a != want as f64 {
                return Err(PyValueError::new_err(format!("area[{t}] = {a}, but tile ({i}, {j}) has {want} samples")));
            }
        }
        Ok(Grid {
            table,
            area,
            m,
            rows: n_rows,
            ra: Axis::new(tiles.0, shape.0, grid.0, size.0),
            ca: Axis::new(tiles.1, shape.1, grid.1, size.1),
            nx: grid.1 as usize,
        })
    }
}

/// `tile_sums(tiles, shape, grid, table, area, rows, r1, r2, c1, c2, size, lower, least,
/// most=None)`: per query i, the sum over the tiles of the grid (ny x nx tiles `tiles` of a
/// raster `shape`) that the `size` chips at offsets `r1[i]..=r2[i]`, `c1[i]..=c2[i]` touch of
/// the lower (`lower`) or upper term of `table[rows[i]]`'s values (the module's doc), at the
/// least samples of any of those chips in each tile into `least[i]` and at the most into
/// `most[i]` (for single chips, r1 == r2 and c1 == c2, the two are equal: without `most`, every
/// query must be a single chip).
/// `table` is float64 (rows, ny x nx), `area` float64 (ny x nx), the offsets and `rows` int64,
/// the outputs writable float64, all C-contiguous; the outputs must not overlap any other
/// buffer. Any other input is a ValueError naming the problem. The GIL is released.
#[pyfunction]
#[pyo3(signature = (tiles, shape, grid, table, area, rows, r1, r2, c1, c2, size, lower, least, most=None))]
#[allow(clippy::too_many_arguments)]
pub fn tile_sums(
    py: Python<'_>,
    tiles: (i64, i64),
    shape: (i64, i64),
    grid: (i64, i64),
    table: &Bound<'_, PyAny>,
    area: &Bound<'_, PyAny>,
    rows: &Bound<'_, PyAny>,
    r1: &Bound<'_, PyAny>,
    r2: &Bound<'_, PyAny>,
    c1: &Bound<'_, PyAny>,
    c2: &Bound<'_, PyAny>,
    size: (i64, i64),
    lower: bool,
    least: &Bound<'_, PyAny>,
    most: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let g = Grid::get(tiles, shape, grid, size, table, area)?;
    let (table, area, m, n_rows) = (g.table, g.area, g.m, g.rows);
    let f64t = ElementType::Float { bytes: 8 };
    let i64t = ElementType::SignedInteger { bytes: 8 };
    let ins = [("rows", rows), ("r1", r1), ("r2", r2), ("c1", c1), ("c2", c2)];
    let ins = ins.iter().map(|(name, o)| View::get(o, name, i64t, false)).collect::<PyResult<Vec<View>>>()?;
    let n = ins[0].len;
    let mut outs = vec![View::get(least, "least", f64t, true)?];
    if let Some(most) = most {
        outs.push(View::get(most, "most", f64t, true)?);
    }
    let names = ["r1", "r2", "c1", "c2", "least", "most"];
    for (name, v) in names.iter().zip(ins[1..].iter().chain(&outs)) {
        if v.len != n {
            return Err(PyValueError::new_err(format!("{name} has {} values, rows has {n}", v.len)));
        }
    }
    for (k, o) in outs.iter().enumerate() {
        let others = [&table, &area]
            .into_iter()
            .chain(&ins)
            .chain(outs.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, v)| v));
        for v in others {
            let (a, b) = (o.bytes(), v.bytes());
            if !a.is_empty() && !b.is_empty() && a.start < b.end && b.start < a.end {
                return Err(PyValueError::new_err("the outputs overlap another buffer of the call"));
            }
        }
    }
    let (tp, ap) = (table.ptr, area.ptr);
    let inp: Vec<usize> = ins.iter().map(|v| v.ptr).collect();
    let outp: Vec<usize> = outs.iter().map(|v| v.ptr).collect();
    let (rows_ax, cols_ax) = (g.ra, g.ca);
    let blocks = outs.len() == 2;
    let nx = g.nx;
    let res = py.detach(move || -> Result<(), String> {
        // SAFETY: each (ptr, len) is the C-contiguous, 8-byte aligned memory of float64 / int64
        // items of a buffer view held until this function returns (`table`, `area`, `ins`).
        let table = unsafe { std::slice::from_raw_parts(tp as *const f64, n_rows * m) };
        // SAFETY: as above (`area`, m items).
        let area = unsafe { std::slice::from_raw_parts(ap as *const f64, m) };
        // SAFETY: as above (`ins`: rows, r1, r2, c1, c2, n items each).
        let q: Vec<&[i64]> = inp.iter().map(|&p| unsafe { std::slice::from_raw_parts(p as *const i64, n) }).collect();
        // SAFETY: writable views held until return, checked above to overlap no other buffer
        // of the call (so no other slice here aliases them), n float64 items each.
        let mut o: Vec<&mut [f64]> =
            outp.iter().map(|&p| unsafe { std::slice::from_raw_parts_mut(p as *mut f64, n) }).collect();
        let mut cols: Vec<(usize, f64, f64)> = Vec::with_capacity(cols_ax.cells as usize);
        for i in 0..n {
            let (row, a1, a2, b1, b2) = (q[0][i], q[1][i], q[2][i], q[3][i], q[4][i]);
            if row < 0 || row as usize >= n_rows {
                return Err(format!("rows[{i}] = {row} is outside the table's {n_rows} rows"));
            }
            for v in [a1, a2, b1, b2] {
                if v.abs() > MAX_OFFSET {
                    return Err(format!("query {i}: the offset {v} is beyond +-{MAX_OFFSET}"));
                }
            }
            if a1 > a2 || b1 > b2 {
                return Err(format!("query {i}: reversed offsets r1 {a1} > r2 {a2} or c1 {b1} > c2 {b2}"));
            }
            if !blocks && (a1 != a2 || b1 != b2) {
                return Err(format!("query {i} is a block of chips ({a1}..={a2}, {b1}..={b2}): blocks need `most`"));
            }
            let vals = &table[row as usize * m..][..m];
            let (ra, ca, ab) = (&rows_ax, &cols_ax, (a1, a2, b1, b2));
            let got = match (blocks, lower) {
                (true, true) => query::<true, true>(ra, ca, nx, vals, area, ab, &mut cols),
                (true, false) => query::<true, false>(ra, ca, nx, vals, area, ab, &mut cols),
                (false, true) => query::<false, true>(ra, ca, nx, vals, area, ab, &mut cols),
                (false, false) => query::<false, false>(ra, ca, nx, vals, area, ab, &mut cols),
            };
            let (s_least, s_most) = got.map_err(|bad| out_of_area(row as usize, bad))?;
            o[0][i] = s_least;
            if let Some(out) = o.get_mut(1) {
                out[i] = s_most;
            }
        }
        Ok(())
    });
    drop(outs);
    res.map_err(PyValueError::new_err)
}
