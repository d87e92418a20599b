//! Spec "File header": one test per rule.

use super::*;

#[test]
fn header_magic() {
    let (mut f, _) = cube();
    f[3] = b'X';
    assert_err!(check(&f), Error::FileMagic { found } if &found == b"RUMX");
    assert_eq!(
        check(&f).unwrap_err().to_string(),
        "file header: magic is [52, 55, 4D, 58], expected \"RUMI\" (52 55 4D 49)"
    );
}

#[test]
fn header_version() {
    let (mut f, _) = cube();
    put_u16(&mut f, 4, 2);
    assert_err!(check(&f), Error::FileVersion(2));
}

#[test]
fn header_reserved() {
    let (mut f, _) = cube();
    put_u16(&mut f, 6, 1);
    assert_err!(check(&f), Error::FileReserved(1));
}

#[test]
fn header_ifd_offset() {
    let (mut f, _) = cube();
    put_u64(&mut f, 8, 24);
    assert_err!(check(&f), Error::IfdOffset(24));
}
