//! [`AlignedBuf`]: 8-byte aligned byte storage, as OpenZL's numeric API requires of what it
//! compresses and decompresses into; the codec, the reader, the frame cache and the spare
//! buffers all hold frames in it.

use crate::error::{Error, Result};

/// A buffer of 8-byte aligned storage, as OpenZL's numeric API requires.
#[derive(Debug, Default, Clone)]
pub struct AlignedBuf {
    words: Vec<u64>,
    len: usize,
}

impl AlignedBuf {
    /// A zeroed buffer of `len` bytes.
    pub fn zeroed(len: usize) -> Self {
        AlignedBuf { words: vec![0u64; len.div_ceil(8)], len }
    }
    /// An aligned copy of `bytes`.
    pub(crate) fn copy_of(bytes: &[u8]) -> Self {
        let mut buf = AlignedBuf::zeroed(bytes.len());
        buf.as_bytes_mut().copy_from_slice(bytes);
        buf
    }
    /// A zeroed buffer of `len` bytes, or [`Error::Alloc`] when the memory cannot be had
    /// (a host process must not be aborted by a frame that is within the limits but too large
    /// for the memory left).
    pub fn try_zeroed(len: usize, what: &'static str) -> Result<Self> {
        let words = len.div_ceil(8);
        if words == 0 {
            return Ok(AlignedBuf { words: Vec::new(), len });
        }
        // calloc: memory fresh from the kernel is not zeroed a second time (a decoded frame's
        // buffer is written whole by OpenZL right after)
        let layout = std::alloc::Layout::array::<u64>(words).map_err(|_| Error::Alloc { what, bytes: len as u64 })?;
        // SAFETY: the layout's size is non-zero (words > 0).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
        if ptr.is_null() {
            return Err(Error::Alloc { what, bytes: len as u64 });
        }
        // SAFETY: `ptr` was allocated by the global allocator with the layout of `words` u64s,
        // every one of them zero, i.e. initialised; the Vec takes ownership of it.
        let v = unsafe { Vec::from_raw_parts(ptr, words, words) };
        Ok(AlignedBuf { words: v, len })
    }
    /// A buffer of `len` bytes written by `fill`, which must write every one of them or fail (a
    /// decoder that checks its decoded byte count), so the memory is not zeroed first: on memory
    /// the allocator hands back from its heap, calloc's zeroing of every new decoded frame was
    /// 1.75 % of a chip loader's CPU samples (perf; about 1 % saved, issue 48). `fill`'s error
    /// is returned and the memory freed unread; [`Error::Alloc`] when the memory cannot be had.
    pub(crate) fn try_filled(
        len: usize,
        what: &'static str,
        fill: impl FnOnce(&mut [std::mem::MaybeUninit<u8>]) -> Result<()>,
    ) -> Result<Self> {
        let words = len.div_ceil(8);
        let mut v: Vec<u64> = Vec::new();
        v.try_reserve_exact(words).map_err(|_| Error::Alloc { what, bytes: len as u64 })?;
        let spare = v.spare_capacity_mut();
        if let Some(last) = spare.get_mut(words.wrapping_sub(1)) {
            last.write(0); // the padding past `len` in the last word: initialised too
        }
        // SAFETY: the spare capacity holds `words` u64s, at least `len` bytes, viewed as
        // possibly uninitialised bytes (any bit pattern is valid for MaybeUninit<u8>).
        let bytes = unsafe { std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast(), len) };
        fill(bytes)?;
        // SAFETY: `fill` succeeded, so it wrote every byte of 0..len (its contract), and the
        // last word's padding is zeroed above: the first `words` u64s are initialised.
        unsafe { v.set_len(words) };
        Ok(AlignedBuf { words: v, len })
    }
    /// Makes the buffer `len` bytes long without allocating when its storage holds that many
    /// (the bytes are whatever it held: for a decoder that writes every byte or fails); false
    /// when it is too small.
    pub fn fit(&mut self, len: usize) -> bool {
        if len > 8 * self.words.len() {
            return false;
        }
        self.len = len;
        true
    }
    /// Bytes of storage held (at least `as_bytes().len()`).
    pub fn held_bytes(&self) -> usize {
        8 * self.words.len()
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: u64 storage viewed as bytes; len <= 8 * words.len().
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }
    /// The bytes, mutably.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, unique borrow of the storage.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_that_cannot_be_had_is_an_error() {
        let e = AlignedBuf::try_zeroed(usize::MAX / 2, "a decoded frame").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot allocate {} bytes for a decoded frame: out of memory", usize::MAX / 2)
        );
        assert_eq!(AlignedBuf::try_zeroed(12, "x").unwrap().as_bytes(), &[0u8; 12]);
        // an aligned copy holds the bytes, whatever their count
        assert_eq!(AlignedBuf::copy_of(&[1, 2, 3]).as_bytes(), &[1, 2, 3]);
        assert_eq!(AlignedBuf::copy_of(&[1, 2, 3]).as_bytes().as_ptr() as usize % 8, 0);
        // a filled buffer holds what its filler wrote; a filler's error is the call's
        let f = AlignedBuf::try_filled(11, "x", |b| {
            b.iter_mut().enumerate().for_each(|(i, v)| {
                v.write(i as u8);
            });
            Ok(())
        })
        .unwrap();
        assert_eq!(
            (f.as_bytes(), f.held_bytes(), f.as_bytes().as_ptr() as usize % 8),
            (&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][..], 16, 0)
        );
        let e = AlignedBuf::try_filled(5, "x", |_| Err(Error::Usage("no".into()))).unwrap_err();
        assert_eq!(e.to_string(), "invalid request: no");
        assert_eq!(AlignedBuf::try_filled(0, "x", |_| Ok(())).unwrap().as_bytes(), &[0u8; 0]);
    }
}
