//! Bit-packed arrays (spec: "Bit-packed arrays"): LSB-first packing of unsigned values.

use crate::error::{Error, Result};

/// Number of bits needed to represent `x` (`bit_length(0) == 0`).
pub fn bit_length(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Packs `values` at `bits` bits each; the region is exactly `ceil(n * bits / 8)` bytes.
///
/// Every value must fit in `bits` bits (the caller computed `bits` from the maximum).
pub fn pack(values: &[u64], bits: u32) -> Vec<u8> {
    assert!(bits <= 64, "bit width above 64");
    let total_bits = values.len() as u128 * u128::from(bits);
    let mut out = vec![0u8; total_bits.div_ceil(8) as usize];
    if bits == 0 {
        return out;
    }
    let mut bitpos: usize = 0;
    for &v in values {
        debug_assert!(bits == 64 || v >> bits == 0, "value wider than bit width");
        let mut remaining = bits as usize;
        let mut v = v;
        while remaining > 0 {
            let byte = bitpos / 8;
            let shift = bitpos % 8;
            let take = (8 - shift).min(remaining);
            let mask = ((1u16 << take) - 1) as u8;
            out[byte] |= ((v as u8) & mask) << shift;
            v = if take == 64 { 0 } else { v >> take };
            remaining -= take;
            bitpos += take;
        }
    }
    out
}

/// Unpacks `n` values of `bits` bits from `region`, which must be exactly `ceil(n*bits/8)` bytes
/// with zero unused bits in the final byte (`what` names the region in errors).
pub fn unpack(region: &[u8], n: usize, bits: u32, what: &'static str) -> Result<Vec<u64>> {
    if bits > 64 {
        return Err(Error::Overflow("bit width"));
    }
    let total_bits = (n as u128) * u128::from(bits);
    let need = total_bits.div_ceil(8);
    if region.len() as u128 != need {
        return Err(Error::Truncated { what, offset: 0, need: need as u64, have: region.len() as u64 });
    }
    let tail_bits = (total_bits % 8) as u32;
    if tail_bits != 0 {
        let last = region[region.len() - 1];
        if last >> tail_bits != 0 {
            return Err(Error::PackingPadding(what));
        }
    }
    let mut out = Vec::with_capacity(n);
    if bits == 0 {
        out.resize(n, 0);
        return Ok(out);
    }
    let mut bitpos: usize = 0;
    for _ in 0..n {
        let mut v: u64 = 0;
        let mut got = 0usize;
        while got < bits as usize {
            let byte = region[bitpos / 8];
            let shift = bitpos % 8;
            let take = (8 - shift).min(bits as usize - got);
            let part = (u64::from(byte) >> shift) & ((1u64 << take) - 1);
            v |= part << got;
            got += take;
            bitpos += take;
        }
        out.push(v);
    }
    Ok(out)
}

/// Zigzag mapping of a signed residual to an unsigned integer (spec: "Time residuals").
pub fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

/// Inverse of [`zigzag`].
pub fn unzigzag(p: u64) -> i64 {
    ((p >> 1) as i64) ^ -((p & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_lsb_first() {
        // 3 values of 3 bits: 5 (101), 2 (010), 7 (111) -> bits 101 010 111 LSB-first
        let p = pack(&[5, 2, 7], 3);
        assert_eq!(p, vec![0b1101_0101, 0b0000_0001]);
        assert_eq!(unpack(&p, 3, 3, "t").unwrap(), vec![5, 2, 7]);
    }

    #[test]
    fn rejects_nonzero_padding() {
        let e = unpack(&[0b1000_0000], 1, 3, "counts").unwrap_err();
        assert!(matches!(e, Error::PackingPadding("counts")));
    }

    #[test]
    fn zigzag_matches_spec() {
        assert_eq!(zigzag(0), 0);
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
        assert_eq!(zigzag(i64::MIN), u64::MAX);
        assert_eq!(unzigzag(u64::MAX), i64::MIN);
    }
}
