//! Bounds-checked little-endian reads from a byte slice (every multi-byte rumi value is LE).

use crate::error::{Error, Result};

/// A cursor over untrusted bytes; every read is bounds-checked and names the structure it reads.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// File offset of `bytes[0]`, for error messages.
    base: u64,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: u64, what: &'static str) -> Self {
        Cursor { bytes, pos: 0, base, what }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(Error::Truncated {
                what: self.what,
                offset: self.base + self.pos as u64,
                need: n as u64,
                have: (self.bytes.len() - self.pos) as u64,
            }),
        }
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    pub(crate) fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(self.array()?))
    }
    pub(crate) fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }
    pub(crate) fn position(&self) -> usize {
        self.pos
    }
}

/// `ceil(n * bits / 8)` with checked arithmetic.
pub(crate) fn packed_len(n: u64, bits: u32) -> Result<u64> {
    n.checked_mul(u64::from(bits)).map(|b| b.div_ceil(8)).ok_or(Error::Overflow("packed region size"))
}
