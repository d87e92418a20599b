//! The 160-byte georeferencing block: ModelTransformationTag + GeoKeyDirectoryTag
//! (spec: "Georeferencing", "Undefined georeferencing").

use crate::error::{Error, Result};
use crate::format::bytes::Cursor;

/// Size of the two georeferencing values, the last 160 bytes before the frames.
pub const GEOREF_BYTES: usize = 160;

/// How a pixel relates to its coordinate (GTRasterTypeGeoKey).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RasterType {
    /// 1: PixelIsArea
    Area,
    /// 2: PixelIsPoint
    Point,
}

/// Whether the EPSG code names a projected or geographic CRS (GTModelTypeGeoKey).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelType {
    /// 1: projected, key 3072
    Projected,
    /// 2: geographic, key 2048
    Geographic,
}

/// Affine coefficients `(x_res, row_rot, x_origin, col_rot, y_res, y_origin)`:
/// `X = x_origin + col * x_res + row * row_rot`, `Y = y_origin + col * col_rot + row * y_res`.
pub type Affine = [f64; 6];

/// Georeferencing of a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Georef {
    /// No CRS; the transformation matrix is ignored.
    Undefined {
        /// raster type recorded (1 or 2)
        raster_type: RasterType,
    },
    /// An EPSG CRS with its affine transform.
    Epsg {
        /// projected or geographic, as recorded
        model: ModelType,
        /// PixelIsArea or PixelIsPoint
        raster_type: RasterType,
        /// EPSG code, 1024..=32766 (only the range is checked here, not registration)
        epsg: u16,
        /// the affine transform
        affine: Affine,
    },
}

impl Georef {
    /// Serialises the 128-byte matrix followed by the 32-byte key directory.
    pub fn to_bytes(&self) -> Result<[u8; GEOREF_BYTES]> {
        let (matrix, keys) = match *self {
            Georef::Undefined { raster_type } => {
                let mut m = [0f64; 16];
                m[0] = 1.0;
                m[5] = 1.0;
                m[15] = 1.0;
                (m, [1, 1, 0, 3, 1024, 0, 1, 0, 1025, 0, 1, raster_code(raster_type), 2048, 0, 1, 0])
            }
            Georef::Epsg { model, raster_type, epsg, affine } => {
                if !(1024..=32766).contains(&epsg) {
                    return Err(Error::EpsgRange(epsg));
                }
                for (index, &value) in affine.iter().enumerate() {
                    if !value.is_finite() {
                        return Err(Error::MatrixNotFinite { index, value });
                    }
                }
                let [a, b, c, d, e, f] = affine;
                let m = [a, b, 0.0, c, d, e, 0.0, f, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
                let (mt, key) = match model {
                    ModelType::Projected => (1, 3072),
                    ModelType::Geographic => (2, 2048),
                };
                (m, [1, 1, 0, 3, 1024, 0, 1, mt, 1025, 0, 1, raster_code(raster_type), key, 0, 1, epsg])
            }
        };
        let mut out = [0u8; GEOREF_BYTES];
        for (i, v) in matrix.iter().enumerate() {
            out[i * 8..i * 8 + 8].copy_from_slice(&v.to_le_bytes());
        }
        for (i, v) in keys.iter().enumerate() {
            out[128 + i * 2..128 + i * 2 + 2].copy_from_slice(&v.to_le_bytes());
        }
        Ok(out)
    }

    /// Parses and validates the 160-byte block; `base` is its file offset (for errors).
    ///
    /// The spec requires the EPSG code to be "defined by the EPSG registry and fall between 1024
    /// and 32766". This pure format layer carries no copy of the registry, so it checks only the
    /// range ([`Error::EpsgRange`]); whether the code is actually registered (and whether the
    /// recorded model type matches the registry's CRS type) is left to callers with access to
    /// the EPSG registry or a PROJ database, such as the GDAL driver.
    pub fn parse(bytes: &[u8], base: u64) -> Result<Self> {
        let mut c = Cursor::new(bytes, base, "georeferencing block");
        let mut m = [0f64; 16];
        for v in m.iter_mut() {
            *v = c.f64()?;
        }
        let mut k = [0u16; 16];
        for v in k.iter_mut() {
            *v = c.u16()?;
        }
        let header = [k[0], k[1], k[2], k[3]];
        if header != [1, 1, 0, 3] {
            return Err(Error::GeoKeyHeader(header));
        }
        let key = |i: usize| [k[4 + 4 * i], k[5 + 4 * i], k[6 + 4 * i], k[7 + 4 * i]];
        let (mt, rt, crs) = (key(0), key(1), key(2));
        if mt[0] != 1024 || mt[1] != 0 || mt[2] != 1 {
            return Err(Error::GeoKey { index: 0, found: mt, expected: "(1024, 0, 1, model_type)" });
        }
        if rt[0] != 1025 || rt[1] != 0 || rt[2] != 1 {
            return Err(Error::GeoKey { index: 1, found: rt, expected: "(1025, 0, 1, raster_type)" });
        }
        if !(crs[0] == 2048 || crs[0] == 3072) || crs[1] != 0 || crs[2] != 1 {
            return Err(Error::GeoKey { index: 2, found: crs, expected: "(2048 or 3072, 0, 1, epsg)" });
        }
        let raster_type = match rt[3] {
            1 => RasterType::Area,
            2 => RasterType::Point,
            other => return Err(Error::RasterType(other)),
        };
        let model = match mt[3] {
            0 => {
                if crs[0] != 2048 {
                    return Err(Error::CrsKeyMismatch { key: crs[0], model: 0 });
                }
                if crs[3] != 0 {
                    return Err(Error::UndefinedCrsCode(crs[3]));
                }
                let mut expected = [0f64; 16];
                expected[0] = 1.0;
                expected[5] = 1.0;
                expected[15] = 1.0;
                if m.iter().zip(expected.iter()).any(|(a, b)| a.to_bits() != b.to_bits()) {
                    return Err(Error::Matrix(
                        "undefined georeferencing requires the identity matrix with a zero third row",
                    ));
                }
                return Ok(Georef::Undefined { raster_type });
            }
            1 => ModelType::Projected,
            2 => ModelType::Geographic,
            other => return Err(Error::ModelType(other)),
        };
        let expected_key = if model == ModelType::Projected { 3072 } else { 2048 };
        if crs[0] != expected_key {
            return Err(Error::CrsKeyMismatch { key: crs[0], model: mt[3] });
        }
        if !(1024..=32766).contains(&crs[3]) {
            return Err(Error::EpsgRange(crs[3]));
        }
        if m[8..12].iter().any(|v| *v != 0.0) {
            return Err(Error::Matrix("the third row must be zero"));
        }
        if m[2] != 0.0 || m[6] != 0.0 || m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0 {
            return Err(Error::Matrix("the matrix must have the form [a b 0 c; d e 0 f; 0 0 0 0; 0 0 0 1]"));
        }
        let affine = [m[0], m[1], m[3], m[4], m[5], m[7]];
        for (index, &value) in affine.iter().enumerate() {
            if !value.is_finite() {
                return Err(Error::MatrixNotFinite { index, value });
            }
        }
        Ok(Georef::Epsg { model, raster_type, epsg: crs[3], affine })
    }

    /// The raster type, whatever the CRS.
    pub fn raster_type(&self) -> RasterType {
        match *self {
            Georef::Undefined { raster_type } | Georef::Epsg { raster_type, .. } => raster_type,
        }
    }
}

/// GDAL's geotransform `(x0, x_res, row_rot, y0, col_rot, y_res)`, which maps pixel *corners*:
/// `X = x0 + col * x_res + row * row_rot`, `Y = y0 + col * col_rot + row * y_res`.
///
/// The one conversion between what a file stores (an [`Affine`] in the spec's order, which for
/// PixelIsPoint maps pixel *centres*, as GeoTIFF's tiepoint does) and what GDAL, rasterio and
/// xarray hosts use. A PixelIsPoint affine is shifted by half a pixel, as GDAL's GTiff driver
/// does when it reads such a file; [`GeoTransform::to_affine`] is the exact inverse.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoTransform(pub [f64; 6]);

impl GeoTransform {
    /// The identity GDAL reports for a raster without georeferencing.
    pub const IDENTITY: GeoTransform = GeoTransform([0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

    /// The geotransform of `affine` recorded with `raster_type`: pixel corners when
    /// `pixel_corners` (what GDAL reports), else the affine only reordered.
    pub fn from_affine(affine: Affine, raster_type: RasterType, pixel_corners: bool) -> GeoTransform {
        let [a, b, c, d, e, f] = affine;
        let mut gt = [c, a, b, f, d, e];
        if pixel_corners && raster_type == RasterType::Point {
            // GDAL's GTiff arithmetic, to the last bit
            gt[0] -= a * 0.5 + b * 0.5;
            gt[3] -= d * 0.5 + e * 0.5;
        }
        GeoTransform(gt)
    }

    /// The file's geotransform of pixel corners, `None` when its georeferencing is undefined.
    pub fn of(georef: &Georef) -> Option<GeoTransform> {
        match *georef {
            Georef::Undefined { .. } => None,
            Georef::Epsg { affine, raster_type, .. } => Some(GeoTransform::from_affine(affine, raster_type, true)),
        }
    }

    /// The affine a file records for this geotransform of pixel corners and `raster_type`
    /// (the inverse of [`GeoTransform::from_affine`] with corners); a coefficient that is not
    /// finite is an error naming it.
    pub fn to_affine(self, raster_type: RasterType) -> Result<Affine> {
        let gt = self.0;
        if let Some(index) = gt.iter().position(|v| !v.is_finite()) {
            return Err(Error::Usage(format!(
                "geotransform coefficient {index} is {}, not a finite number",
                gt[index]
            )));
        }
        let (x0, y0) = match raster_type {
            RasterType::Area => (gt[0], gt[3]),
            RasterType::Point => (
                // GDAL's GTiff writer shifts by (a + b) * 0.5: where no float comes back exactly,
                // the file then holds what a GeoTIFF would, and reads back as GDAL reads that
                exact_inverse(gt[0] + (gt[1] + gt[2]) * 0.5, gt[0], |v| v - (gt[1] * 0.5 + gt[2] * 0.5)),
                exact_inverse(gt[3] + (gt[4] + gt[5]) * 0.5, gt[3], |v| v - (gt[4] * 0.5 + gt[5] * 0.5)),
            ),
        };
        Ok([gt[1], gt[2], x0, gt[4], gt[5], y0])
    }
}

/// Of the floats within a few ulps of `near` (the half-pixel shift, rounded), one that `back`
/// (the reader's shift) maps exactly to `target`, so that a PixelIsPoint geotransform written
/// comes back bit for bit (`near` itself when it does, or when none does).
fn exact_inverse(near: f64, target: f64, back: impl Fn(f64) -> f64) -> f64 {
    if back(near) == target || !near.is_finite() {
        return near;
    }
    let (mut up, mut down) = (near, near);
    for _ in 0..8 {
        up = next_toward(up, f64::INFINITY);
        down = next_toward(down, f64::NEG_INFINITY);
        for v in [up, down] {
            if back(v) == target {
                return v;
            }
        }
    }
    near
}

/// The next float after the finite `v` toward `to` (f64::next_up/next_down, stable since 1.86).
fn next_toward(v: f64, to: f64) -> f64 {
    let bits = v.to_bits();
    let up = to > v;
    if v == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let next = if (v > 0.0) == up { bits + 1 } else { bits - 1 };
    f64::from_bits(next)
}

fn raster_code(r: RasterType) -> u16 {
    match r {
        RasterType::Area => 1,
        RasterType::Point => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_geotransforms_come_back_bit_for_bit() {
        // rotated and fractional pixels, where the plain half-pixel shift there and back lost an
        // ulp (map coordinates: origins large beside the pixel; an origin smaller than its
        // half-pixel shift may have no float that comes back exactly, and keeps the nearest)
        let cases = [
            [500000.0, 1.0 / 3.0, 0.001, 4100000.0, 0.0005, -1.0 / 3.0],
            [123456.789, 10.000000001, 0.0, 987654.321, 0.0, -9.99999999],
            [-180.0, 1.0 / 3600.0, 0.0, 90.0, 0.0, -1.0 / 3600.0],
        ];
        for gt in cases {
            let affine = GeoTransform(gt).to_affine(RasterType::Point).unwrap();
            assert_eq!(GeoTransform::from_affine(affine, RasterType::Point, true).0, gt, "{gt:?}");
        }
    }

    #[test]
    fn round_trips() {
        let cases = [
            Georef::Undefined { raster_type: RasterType::Point },
            Georef::Epsg {
                model: ModelType::Projected,
                raster_type: RasterType::Area,
                epsg: 32631,
                affine: [20.0, 0.5, 500000.0, -0.25, -20.0, 4.0e6],
            },
            Georef::Epsg {
                model: ModelType::Geographic,
                raster_type: RasterType::Point,
                epsg: 4326,
                affine: [0.1, 0.0, -180.0, 0.0, -0.1, 90.0],
            },
        ];
        for g in cases {
            assert_eq!(Georef::parse(&g.to_bytes().unwrap(), 0).unwrap(), g);
        }
    }

    #[test]
    fn geotransform_shifts_point_files_by_half_a_pixel_and_back() {
        let affine = [20.0, 0.5, 500000.0, -0.25, -20.0, 4.0e6];
        let area = GeoTransform::from_affine(affine, RasterType::Area, true);
        assert_eq!(area.0, [500000.0, 20.0, 0.5, 4.0e6, -0.25, -20.0]);
        let point = GeoTransform::from_affine(affine, RasterType::Point, true);
        assert_eq!(point.0, [500000.0 - 10.25, 20.0, 0.5, 4.0e6 + 10.125, -0.25, -20.0]);
        assert_eq!(GeoTransform::from_affine(affine, RasterType::Point, false), area);
        assert_eq!(point.to_affine(RasterType::Point).unwrap(), affine);
        assert_eq!(area.to_affine(RasterType::Area).unwrap(), affine);
        let bad = GeoTransform([0.0, f64::NAN, 0.0, 0.0, 0.0, 1.0]);
        let e = bad.to_affine(RasterType::Area).unwrap_err().to_string();
        assert!(e.contains("geotransform coefficient 1 is NaN"), "{e}");
        let undefined = Georef::Undefined { raster_type: RasterType::Area };
        assert_eq!(GeoTransform::of(&undefined), None);
    }
}
