//! Spec "Trailer: Band descriptions, Time coordinates, Time residuals": one test per rule.

use super::*;

#[test]
fn trailer_magic() {
    let (mut f, _) = cube();
    let t = trailer_offset(&f);
    f[t..t + 4].copy_from_slice(b"TALE");
    assert_err!(check(&f), Error::TrailerMagic { found } if &found == b"TALE");
}

#[test]
fn trailer_version() {
    let (mut f, _) = cube();
    let t = trailer_offset(&f);
    put_u16(&mut f, t + 4, 2);
    assert_err!(check(&f), Error::TrailerVersion(2));
}

fn good_time() -> Vec<u8> {
    encode_time(2, &instants(2).coords, 1)
}

#[test]
fn trailer_band_text_empty() {
    let f = with_trailer(&trailer(&[b"a", b"", b"c"], &good_time()));
    assert_err!(check(&f), Error::BandTextEmpty(1));
}

#[test]
fn trailer_band_text_utf8() {
    let f = with_trailer(&trailer(&[b"\xff\xfe", b"b", b"c"], &good_time()));
    assert_err!(check(&f), Error::BandTextUtf8(0));
    let f = with_trailer(&trailer(&[b"a", b"b", b"caf\xc3"], &good_time()));
    assert_err!(check(&f), Error::BandTextUtf8(2));
}

#[test]
fn trailer_band_text_nul() {
    let f = with_trailer(&trailer(&[b"a", b"b", b"c\0"], &good_time()));
    assert_err!(check(&f), Error::BandTextNul(2));
}

#[test]
fn trailer_band_texts_unique() {
    let f = with_trailer(&trailer(&[b"red", b"nir", b"red"], &good_time()));
    assert_err!(check(&f), Error::BandTextDuplicate { first: 0, second: 2, ref text } if text == "red");
}

#[test]
fn trailer_time_type() {
    for tt in [0u8, 3, 255] {
        let mut time = good_time();
        time[0] = tt;
        assert_err!(check(&with_time(&time)), Error::TimeType(t) if t == tt);
    }
}

#[test]
fn trailer_time_bits_at_most_64() {
    let time = raw_time(2, 65, 0, 0, 1, &[0u8; 17]);
    assert_err!(check(&with_time(&time)), Error::TimeBits(65));
}

#[test]
fn trailer_time_scale_one_or_86400() {
    for scale in [0u32, 60, 3600, 86401] {
        let mut time = good_time();
        time[18..22].copy_from_slice(&scale.to_le_bytes());
        assert_err!(check(&with_time(&time)), Error::TimeScale(s) if s == scale);
    }
}

#[test]
fn trailer_time_scale_86400_for_whole_days() {
    // whole days (one of them before 1970) stored with scale 1
    let time = encode_time(2, &[-86400 * 3, 86400 * 20], 1);
    assert_err!(check(&with_time(&time)), Error::TimeScaleNotMinimal);
    // the same instants in days are valid
    check(&with_time(&encode_time(2, &[-3, 20], 86400))).unwrap();
}

#[test]
fn trailer_time_epoch_is_time0() {
    // residual(0) = 5: time(0) = 5 but time_epoch = 0
    let time = raw_time(2, 4, 0, 10, 1, &pack_bits(&[10, 0], 4));
    assert_err!(check(&with_time(&time)), Error::TimeEpoch { found: 0, expected: 5 });
}

#[test]
fn trailer_time_step() {
    // coordinates 100, 200 recorded with step 90 and residual 10
    let time = raw_time(2, 5, 100, 90, 1, &pack_bits(&[0, 20], 5));
    assert_err!(check(&with_time(&time)), Error::TimeStep { found: 90, expected: 100 });
}

#[test]
fn trailer_time_step_rounds_to_nearest() {
    // intervals [1, 2), [4, 6): step = round((6 - 1) / 3) = 2, residuals 0 -1 -1 -1
    let time = encode_time(1, &[1, 2, 4, 6], 1);
    assert_eq!(i64::from_le_bytes(time[10..18].try_into().unwrap()), 2);
    check(&with_time(&time)).unwrap();
    // the same coordinates recorded with the truncated step 1 (residuals 0 0 1 2)
    let time = raw_time(1, 3, 1, 1, 1, &pack_bits(&[0, 0, 2, 4], 3));
    assert_err!(check(&with_time(&time)), Error::TimeStep { found: 1, expected: 2 });
}

#[test]
fn trailer_time_bits_minimal() {
    let time = raw_time(2, 3, 100, 100, 1, &[0]);
    assert_err!(check(&with_time(&time)), Error::TimeBitsNotMinimal { found: 3, expected: 0 });
    let time = raw_time(1, 4, 0, 10, 1, &pack_bits(&[0, 0, 4, 0], 4));
    assert_err!(check(&with_time(&time)), Error::TimeBitsNotMinimal { found: 4, expected: 3 });
}

#[test]
fn trailer_instants_non_decreasing() {
    let f = with_time(&encode_time(2, &[200, 100], 1));
    assert_err!(check(&f), Error::InstantOrder { index: 1, value: 100, previous: 200 });
    // equal instants are allowed
    check(&with_time(&encode_time(2, &[200, 200], 1))).unwrap();
}

#[test]
fn trailer_interval_not_empty() {
    let f = with_time(&encode_time(1, &[100, 100, 200, 300], 1));
    assert_err!(check(&f), Error::IntervalEmpty { index: 0, start: 100, end: 100 });
    let f = with_time(&encode_time(1, &[100, 200, 300, 250], 1));
    assert_err!(check(&f), Error::IntervalEmpty { index: 1, start: 300, end: 250 });
}

#[test]
fn trailer_intervals_do_not_overlap() {
    let f = with_time(&encode_time(1, &[100, 250, 200, 300], 1));
    assert_err!(check(&f), Error::IntervalOverlap { index: 1, start: 200, previous_end: 250 });
    // meeting and gaps are allowed
    check(&with_time(&encode_time(1, &[100, 200, 200, 300], 1))).unwrap();
    check(&with_time(&encode_time(1, &[100, 150, 200, 300], 1))).unwrap();
}

#[test]
fn trailer_packing_padding_zero() {
    // intervals 0, 10, 22, 30: step 10, residuals 0 0 2 0 -> packed 0 0 4 0 at 3 bits: 12 bits
    let mut time = encode_time(1, &[0, 10, 22, 30], 1);
    assert_eq!(time[1], 3);
    check(&with_time(&time)).unwrap();
    *time.last_mut().unwrap() |= 0x80;
    assert_err!(check(&with_time(&time)), Error::PackingPadding("time residuals"));
}

#[test]
fn trailer_size_exact() {
    let mut t = trailer(&TEXTS, &good_time());
    let n = t.len() as u64;
    t.push(0);
    assert_err!(check(&with_trailer(&t)), Error::TrailerSize { found, expected } if found == n + 1 && expected == n);
    // a residual region shorter than ceil(C * time_bits / 8)
    let mut time = encode_time(1, &[0, 10, 22, 30], 1);
    time.pop();
    let t = trailer(&TEXTS, &time);
    let n = t.len() as u64;
    assert_err!(check(&with_trailer(&t)), Error::TrailerSize { found, expected } if found == n && expected == n + 1);
}

#[test]
fn trailer_coordinates_fit_int64() {
    let time = raw_time(2, 0, i64::MAX - 5, 10, 1, &[]);
    assert_err!(check(&with_time(&time)), Error::TimeOverflow { index: 1, what: "coordinate" });
}

#[test]
fn trailer_trailing_garbage() {
    let (mut f, _) = cube();
    let n = (f.len() - trailer_offset(&f)) as u64;
    f.extend_from_slice(b"garbage");
    assert_err!(check(&f), Error::TrailerSize { found, expected } if found == n + 7 && expected == n);
    assert_err!(build_header(f.as_slice(), Limits::default()), Error::TrailerSize { .. });
    assert_eq!(check(&f).unwrap_err().to_string(), format!("trailer: size is {} bytes, expected exactly {n}", n + 7));
}
