//! Spec "Frames, OpenZL frames, boolean samples": one test per rule.

use super::*;

#[test]
fn frame_decoded_size_blob_of_another_file() {
    // a uint8 file of the same shape whose frames happen to have the cube's byte counts: the
    // stateless reader trusts its blob, locates the right bytes, and the decoded size exposes it
    let (f, b) = cube();
    let mut other = parse_blob(&b).unwrap();
    other.layout.encoding = SampleEncoding::U8;
    let other = other.to_bytes().unwrap();
    let r = Reader::open_with_blob(f.as_slice(), &other, Limits::default()).unwrap();
    assert_err!(decoded_frame(&r, 0), Error::DecodedSize { index: 0, found: 256, expected: 128 });
    // the last frame is the 5 x 5 corner tile
    let last = r.frame_count() - 1;
    assert_err!(decoded_frame(&r, last), Error::DecodedSize { index: 71, found: 50, expected: 25 });
}

/// Rebuilds `file` with every frame re-encoded by `encode` (same decoded bytes, another OpenZL
/// output type): header, IFD and offsets follow the new byte counts, the trailer is kept.
fn reencoded(file: &[u8], encode: impl Fn(&[u8]) -> Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    let r = Reader::open(file, Limits::default()).unwrap();
    let frames: Vec<Vec<u8>> = (0..r.frame_count()).map(|i| encode(decoded_frame(&r, i).unwrap().as_bytes())).collect();
    let counts: Vec<u32> = frames.iter().map(|f| f.len() as u32).collect();
    let mut out = rumi::format::ifd::serialise_prefix(r.layout(), &counts, &r.georef().unwrap()).unwrap();
    frames.iter().for_each(|f| out.extend_from_slice(f));
    out.extend_from_slice(&file[r.trailer_offset() as usize..]);
    let blob = Blob { layout: *r.layout(), counts }.to_bytes().unwrap();
    (out, blob)
}

#[test]
fn frame_is_defined_by_its_decoded_bytes() {
    // float32 and complex64 frames stored as serial bytes or as numeric elements of another
    // width validate and read back the same samples, statelessly and validated
    for (enc, unit) in [(SampleEncoding::F32, 1u16), (SampleEncoding::C64, 0), (SampleEncoding::U16, 4)] {
        let (t, b) = if unit == 4 { (2, 2) } else { (1, 3) };
        let (f, _) = fixture(enc, 21, 13, b, t, (8, 8), unit, utm());
        let want = Reader::open(f.as_slice(), Limits::default()).unwrap();
        let win = rumi::Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..13, cols: 0..21 };
        let mut expected = vec![0u8; want.window_bytes(&win).unwrap() as usize];
        want.read_window(&win, &mut expected).unwrap();
        for (name, encode) in [
            ("serial", Box::new(|d: &[u8]| rumi::codec::encode_serial(d, 6).unwrap()) as Box<dyn Fn(&[u8]) -> Vec<u8>>),
            ("1-byte numeric", Box::new(|d: &[u8]| rumi::codec::encode(d, 1, rumi::codec::Graph::Numeric(6)).unwrap())),
            (
                "the widest numeric elements dividing the frame",
                Box::new(|d: &[u8]| {
                    let w = [8, 4, 2, 1].into_iter().find(|w| d.len() % w == 0).unwrap_or(1);
                    rumi::codec::encode(d, w, rumi::codec::Graph::Numeric(6)).unwrap()
                }),
            ),
        ] {
            let (g, blob) = reencoded(&f, encode);
            check(&g).unwrap_or_else(|e| panic!("{enc:?} as {name}: {e}"));
            for r in [
                Reader::open(g.as_slice(), Limits::default()).unwrap(),
                Reader::open_with_blob(g.as_slice(), &blob, Limits::default()).unwrap(),
            ] {
                let mut got = vec![0u8; expected.len()];
                r.read_window(&win, &mut got).unwrap();
                assert!(got == expected, "{enc:?} as {name}: samples differ");
            }
        }
    }
    // a frame whose decoded byte count is not the one the header implies is refused, naming both
    let (f, _) = fixture(SampleEncoding::U32, 20, 10, 1, 1, (8, 8), 0, utm());
    let (g, _) = reencoded(&f, |d| rumi::codec::encode_serial(&d[..d.len() - 4], 6).unwrap());
    assert_err!(check(&g), Error::DecodedSize { index: 0, found: 252, expected: 256 });
}

#[test]
fn frame_boolean_bytes() {
    // uint8 samples 0/1 with a single 2 at (y 1, x 3), declared boolean (1, 1)
    let (x, y) = (20u32, 10u32);
    let mut data = samples(SampleEncoding::Bool, (x * y) as usize, 3);
    data[(x + 3) as usize] = 2;
    let (mut f, _) = write(spec(SampleEncoding::U8, x, y, 1, 1, (16, 8), 0, utm()), &data);
    check(&f).unwrap();
    put_u16(&mut f, value(2), 1);
    assert_err!(check(&f), Error::BooleanValue { index: 0, offset: 19, value: 2 });
}

#[test]
fn frame_not_openzl() {
    let (mut f, _) = cube();
    let r = Reader::open(f.clone(), Limits::default()).unwrap();
    let (off, len) = r.frame_range(5).unwrap();
    f[off as usize..(off + len) as usize].fill(0xA5);
    assert_err!(check(&f), Error::Decode { index: 5, .. });
}

#[test]
fn frame_errors_reported_in_index_order() {
    let (mut f, _) = cube();
    let r = Reader::open(f.clone(), Limits::default()).unwrap();
    for i in [60u64, 9, 40] {
        let (off, len) = r.frame_range(i).unwrap();
        f[off as usize..(off + len) as usize].fill(0);
    }
    assert_err!(check(&f), Error::Decode { index: 9, .. });
}
