//! Spec "Georeferencing, Undefined georeferencing": one test per rule.

use super::*;

#[test]
fn georef_key_directory_header() {
    let (mut f, _) = cube();
    let at = geokey(&f, 3);
    put_u16(&mut f, at, 4);
    assert_err!(check(&f), Error::GeoKeyHeader([1, 1, 0, 4]));
}

#[test]
fn georef_key_shape_and_order() {
    // (key_id, 0, 1, value) in the order 1024, 1025, 2048/3072
    for (k, field, v) in [(0usize, 0usize, 1025u16), (0, 1, 1), (1, 2, 2), (2, 0, 2049), (2, 1, 34736)] {
        let (mut f, _) = cube();
        let at = geokey(&f, 4 + 4 * k + field);
        put_u16(&mut f, at, v);
        assert_err!(check(&f), Error::GeoKey { index, .. } if index == k);
    }
}

#[test]
fn georef_model_type() {
    let (mut f, _) = cube();
    let at = geokey(&f, 7);
    put_u16(&mut f, at, 3);
    assert_err!(check(&f), Error::ModelType(3));
}

#[test]
fn georef_raster_type() {
    for v in [0u16, 3] {
        let (mut f, _) = cube();
        let at = geokey(&f, 11);
        put_u16(&mut f, at, v);
        assert_err!(check(&f), Error::RasterType(r) if r == v);
    }
}

#[test]
fn georef_crs_key_agrees_with_model_type() {
    // projected (1) with the geographic key 2048
    let (mut f, _) = cube();
    let at = geokey(&f, 12);
    put_u16(&mut f, at, 2048);
    assert_err!(check(&f), Error::CrsKeyMismatch { key: 2048, model: 1 });
    // geographic (2) with the projected key 3072
    let (mut f, _) = cube();
    let at = geokey(&f, 7);
    put_u16(&mut f, at, 2);
    assert_err!(check(&f), Error::CrsKeyMismatch { key: 3072, model: 2 });
}

#[test]
fn georef_epsg_range() {
    for code in [0u16, 1023, 32767, 65535] {
        let (mut f, _) = cube();
        let at = geokey(&f, 15);
        put_u16(&mut f, at, code);
        assert_err!(check(&f), Error::EpsgRange(c) if c == code);
    }
    // the bounds themselves are accepted (registration is not checked by the format layer)
    for code in [1024u16, 32766] {
        let (mut f, _) = cube();
        let at = geokey(&f, 15);
        put_u16(&mut f, at, code);
        check(&f).unwrap();
    }
}

#[test]
fn georef_matrix_third_row_zero() {
    for k in 8..12 {
        let (mut f, _) = cube();
        let at = georef_at(&f) + 8 * k;
        put_f64(&mut f, at, 1.0);
        assert_err!(check(&f), Error::Matrix("the third row must be zero"));
    }
    let (mut f, _) = cube();
    let at = georef_at(&f) + 8 * 10;
    put_f64(&mut f, at, 0.5);
    assert_eq!(check(&f).unwrap_err().to_string(), "ModelTransformationTag: the third row must be zero");
}

#[test]
fn georef_matrix_form() {
    // column 3 of the first two rows and the last row are fixed by the affine form
    for (k, v) in [(2usize, 1.0), (6, 1.0), (12, 1.0), (13, 1.0), (14, 1.0), (15, 2.0)] {
        let (mut f, _) = cube();
        let at = georef_at(&f) + 8 * k;
        put_f64(&mut f, at, v);
        assert_err!(check(&f), Error::Matrix(_));
    }
}

#[test]
fn georef_matrix_finite() {
    for (k, index) in [(0usize, 0usize), (3, 2), (7, 5)] {
        for v in [f64::NAN, f64::INFINITY] {
            let (mut f, _) = cube();
            let at = georef_at(&f) + 8 * k;
            put_f64(&mut f, at, v);
            assert_err!(check(&f), Error::MatrixNotFinite { index: i, .. } if i == index);
        }
    }
}

#[test]
fn georef_undefined_rules() {
    let undefined = Georef::Undefined { raster_type: RasterType::Point };
    let (f, _) = fixture(SampleEncoding::U8, 9, 7, 1, 1, (8, 8), 0, undefined);
    assert_eq!(Reader::open(f.as_slice(), Limits::default()).unwrap().georef().unwrap(), undefined);
    // GeographicTypeGeoKey must be 0
    let mut g = f.clone();
    let at = geokey(&g, 15);
    put_u16(&mut g, at, 4326);
    assert_err!(check(&g), Error::UndefinedCrsCode(4326));
    // ... and it must be key 2048
    let mut g = f.clone();
    let at = geokey(&g, 12);
    put_u16(&mut g, at, 3072);
    assert_err!(check(&g), Error::CrsKeyMismatch { key: 3072, model: 0 });
    // the matrix is the fixed identity-like one
    for (k, v) in [(0usize, 2.0), (3, 100.0), (10, 1.0), (15, 0.0)] {
        let mut g = f.clone();
        let at = georef_at(&g) + 8 * k;
        put_f64(&mut g, at, v);
        assert_err!(check(&g), Error::Matrix(_));
    }
}
