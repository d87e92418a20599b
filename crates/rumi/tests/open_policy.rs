//! The open policy every host uses (`rumi::open`): explicit blob, sidecar, none; a stale sidecar
//! ignored with a warning or refused; the blob checks (spec "Header blob": the application's
//! association of a blob with its file).
mod common;

use common::{samples, spec, utm, write};
use rumi::format::SampleEncoding;
use rumi::open::{open, BlobCheck, HeaderBlob, OpenOptions, StaleSidecar};
use rumi::{Category, Error};

/// A file's bytes and its blob's.
type Written = (Vec<u8>, Vec<u8>);

/// Two files of the same shape with different pixels, and their blobs.
fn pair() -> (Written, Written) {
    let s = || spec(SampleEncoding::U16, 40, 30, 2, 1, (16, 16), 0, utm());
    let a = write(s(), &samples(SampleEncoding::U16, 40 * 30 * 2, 1));
    let b = write(s(), &samples(SampleEncoding::U16, 40 * 30 * 2, 99));
    assert_ne!(a.1, b.1, "the fixtures' blobs must differ");
    (a, b)
}

fn explicit(bytes: &[u8]) -> HeaderBlob {
    HeaderBlob::Explicit { name: "a.rumi.header".into(), bytes: bytes.to_vec() }
}

fn sidecar(bytes: &[u8]) -> HeaderBlob {
    HeaderBlob::Sidecar { name: "a.rumi.header".into(), bytes: bytes.to_vec() }
}

#[test]
fn no_blob_parses_the_file() {
    let ((file, blob), _) = pair();
    let o = open(file.as_slice(), "a.rumi", HeaderBlob::None, &OpenOptions::default()).unwrap();
    assert_eq!((o.blob, o.warning), (None, None));
    assert_eq!(o.reader.blob().to_bytes().unwrap(), blob);
}

#[test]
fn a_matching_blob_opens_statelessly_with_every_check() {
    let ((file, blob), _) = pair();
    for check in [BlobCheck::Prefix(&file[..]), BlobCheck::SizeAndTrailer, BlobCheck::Size, BlobCheck::ReadPrefix] {
        let opts = OpenOptions { check, ..Default::default() };
        for header in [explicit(&blob), sidecar(&blob)] {
            let o = open(file.as_slice(), "a.rumi", header, &opts).unwrap();
            assert_eq!(o.blob.as_deref(), Some("a.rumi.header"));
            assert_eq!(o.warning, None);
        }
    }
}

#[test]
fn an_explicit_blob_of_another_file_is_an_error_naming_both() {
    let ((file, _), (_, other)) = pair();
    for check in [BlobCheck::Prefix(&file[..]), BlobCheck::SizeAndTrailer] {
        let opts = OpenOptions { check, ..Default::default() };
        let e = open(file.as_slice(), "a.rumi", explicit(&other), &opts).err().expect("a foreign blob is refused");
        assert!(matches!(e, Error::HeaderBlob { .. }), "{e:?}");
        assert_eq!(e.category(), Category::Format);
        let text = e.to_string();
        assert!(text.starts_with("header blob a.rumi.header does not describe a.rumi: "), "{text}");
    }
}

#[test]
fn a_stale_sidecar_is_ignored_with_a_warning_or_refused() {
    let ((file, blob), (_, other)) = pair();
    let opts = OpenOptions { check: BlobCheck::SizeAndTrailer, ..Default::default() };
    let o = open(file.as_slice(), "a.rumi", sidecar(&other), &opts).unwrap();
    assert_eq!(o.blob, None, "the file was parsed");
    assert_eq!(o.reader.blob().to_bytes().unwrap(), blob);
    let w = o.warning.expect("a warning");
    assert!(w.starts_with("a.rumi: ignoring the sidecar header blob a.rumi.header, which does not match"), "{w}");
    assert!(w.ends_with("opening the file by parsing it"), "{w}");
    let strict = OpenOptions { stale_sidecar: StaleSidecar::Error, ..opts };
    let e = open(file.as_slice(), "a.rumi", sidecar(&other), &strict).err().expect("refused");
    assert!(e.to_string().contains("does not describe a.rumi"), "{e}");
    // a sidecar that is not a blob at all is as stale
    let o = open(file.as_slice(), "a.rumi", sidecar(b"not a blob"), &opts).unwrap();
    assert!(o.warning.is_some());
}

#[test]
fn a_blob_of_the_same_shape_is_caught_by_the_trailer_or_prefix_check_only() {
    // same shape and tiling: the fixed header matches, the frame sizes do not
    let ((file, _), (_, other)) = pair();
    let size_only = OpenOptions { check: BlobCheck::Size, ..Default::default() };
    // the size check alone may accept it (the spec's stateless reader trusts the blob) or not,
    // depending on where its frames end; the stricter checks must refuse it
    let _ = open(file.as_slice(), "a.rumi", explicit(&other), &size_only);
    let prefix = OpenOptions { check: BlobCheck::Prefix(&file[..]), ..Default::default() };
    let e = open(file.as_slice(), "a.rumi", explicit(&other), &prefix).err().expect("prefix check refuses");
    assert!(e.to_string().contains("frame_byte_counts") || e.to_string().contains("TileByteCounts"), "{e}");
    let trailer = OpenOptions { check: BlobCheck::SizeAndTrailer, ..Default::default() };
    assert!(open(file.as_slice(), "a.rumi", explicit(&other), &trailer).is_err());
    let read = OpenOptions { check: BlobCheck::ReadPrefix, ..Default::default() };
    let e = open(file.as_slice(), "a.rumi", explicit(&other), &read).err().expect("the prefix read here refuses");
    assert!(e.to_string().contains("frame_byte_counts"), "{e}");
}

#[test]
fn sidecar_names_and_blob_bound() {
    assert_eq!(rumi::open::sidecar_name("s3://b/k.rumi"), "s3://b/k.rumi.header");
    let l = rumi::Limits { max_frames: 10, ..Default::default() };
    assert_eq!(rumi::open::max_blob_bytes(&l), 32 + 40);
}

/// A local sidecar that is there but cannot be read (a dangling symbolic link, a folder) is
/// `HeaderBlob::Unreadable`: ignored with a warning naming why, or refused; nothing there is
/// no sidecar.
#[test]
fn an_unreadable_local_sidecar_is_ignored_with_a_warning_or_refused() {
    let ((file, blob), _) = pair();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.rumi");
    std::fs::write(&path, &file).unwrap();
    let path = path.to_str().unwrap();
    assert!(matches!(rumi::open::local_sidecar(path), HeaderBlob::None));
    std::os::unix::fs::symlink(dir.path().join("gone.header"), format!("{path}.header")).unwrap();
    let found = rumi::open::local_sidecar(path);
    let HeaderBlob::Unreadable { name, why } = &found else { panic!("{found:?}") };
    assert_eq!(name, &format!("{path}.header"));
    let gone = dir.path().join("gone.header");
    assert!(why.ends_with(&format!("symbolic link to '{}', which does not exist", gone.display())), "{why}");
    let opts = OpenOptions { check: BlobCheck::SizeAndTrailer, ..Default::default() };
    let o = open(file.as_slice(), path, found.clone(), &opts).unwrap();
    assert_eq!((o.blob, o.reader.blob().to_bytes().unwrap()), (None, blob));
    let w = o.warning.expect("a warning");
    assert!(w.starts_with(&format!("{path}: ignoring the sidecar header blob {path}.header (cannot read")), "{w}");
    let strict = OpenOptions { stale_sidecar: StaleSidecar::Error, ..opts };
    let e = open(file.as_slice(), path, found, &strict).err().expect("refused");
    assert!(matches!(e, Error::HeaderBlob { .. }) && e.to_string().contains("symbolic link"), "{e}");
    std::fs::remove_file(format!("{path}.header")).unwrap();
    std::fs::create_dir(format!("{path}.header")).unwrap();
    assert!(matches!(rumi::open::local_sidecar(path), HeaderBlob::Unreadable { .. }));
}
