//! Exact conversion to IEEE binary32 of the encodings GDAL has no data type for: float16,
//! bfloat16, complex float16 and the five float8 formats (the driver's `PROMOTE=FLOAT32`).
//!
//! Every finite value, infinity and NaN of these formats has an exact binary32 counterpart:
//! their exponent ranges lie inside binary32's (E8M0FNU's smallest value, 2^-127, is a
//! binary32 subnormal) and their fractions have at most 10 bits. The float8 decoders are a few
//! lines of bit arithmetic per format (no lookup tables), following the ONNX float8 definitions
//! (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ) and OCP MX 1.0 (E8M0FNU) that the spec names.

use crate::format::SampleEncoding;

/// True when `enc` has no GDAL data type and `PROMOTE=FLOAT32` converts it.
pub fn promotable(enc: SampleEncoding) -> bool {
    use SampleEncoding::*;
    matches!(enc, F16 | BF16 | C32 | F8E4M3FN | F8E5M2 | F8E8M0FNU | F8E4M3FNUZ | F8E5M2FNUZ)
}

/// Decodes one float8 value with `exp_bits` exponent bits and exponent `bias`; `nan` says
/// which byte patterns are NaN and `inf` which are infinite (checked before the arithmetic).
fn minifloat(v: u8, exp_bits: u32, bias: i32, nan: bool, inf: bool) -> f32 {
    let man_bits = 7 - exp_bits;
    let sign = if v & 0x80 != 0 { -1.0f32 } else { 1.0 };
    if nan {
        return f32::NAN;
    }
    if inf {
        return sign * f32::INFINITY;
    }
    let exp = i32::from((v >> man_bits) & ((1 << exp_bits) - 1) as u8);
    let man = i32::from(v & ((1 << man_bits) - 1) as u8);
    // subnormal: man * 2^(1 - bias - man_bits); normal: (2^man_bits + man) * 2^(exp - bias - man_bits)
    let (sig, e) = if exp == 0 { (man, 1 - bias) } else { ((1 << man_bits) + man, exp - bias) };
    // sig < 2^4 and |e - man_bits| < 20, so both factors and the product are exact in binary32
    sign * (sig as f32) * 2f32.powi(e - man_bits as i32)
}

/// Decodes one sample component of a promotable 1- or 2-byte encoding (`bits` little-endian).
pub fn component_to_f32(enc: SampleEncoding, bits: u16) -> f32 {
    use SampleEncoding::*;
    let b = bits as u8;
    match enc {
        F16 | C32 => half::f16::from_bits(bits).to_f32(),
        BF16 => f32::from_bits(u32::from(bits) << 16),
        // ONNX E4M3FN: bias 7, no infinities, NaN = S.1111.111
        F8E4M3FN => minifloat(b, 4, 7, b & 0x7f == 0x7f, false),
        // ONNX E4M3FNUZ: bias 8, no infinities, no negative zero, NaN = 0x80
        F8E4M3FNUZ => minifloat(b, 4, 8, b == 0x80, false),
        // ONNX E5M2 (IEEE-like): bias 15, exponent 31 is infinity (fraction 0) or NaN
        F8E5M2 => minifloat(b, 5, 15, b & 0x7f > 0x7c, b & 0x7f == 0x7c),
        // ONNX E5M2FNUZ: bias 16, no infinities, no negative zero, NaN = 0x80
        F8E5M2FNUZ => minifloat(b, 5, 16, b == 0x80, false),
        // OCP MX E8M0FNU: unsigned, 2^(v - 127), NaN = 0xFF, no zero
        F8E8M0FNU => {
            if b == 0xff {
                f32::NAN
            } else if b == 0 {
                f32::from_bits(1 << 22) // 2^-127, a binary32 subnormal
            } else {
                f32::from_bits(u32::from(b) << 23)
            }
        }
        // not promotable: callers check `promotable` first
        _ => f32::NAN,
    }
}

/// Converts decoded little-endian samples of a promotable encoding to binary32 components
/// (two per complex sample) in `dst`. `dst.len()` must equal the number of components.
/// (The read path converts sample by sample as it scatters; this is the tests' reference.)
#[cfg(test)]
fn to_f32(enc: SampleEncoding, src: &[u8], dst: &mut [f32]) {
    let width = enc.element_width();
    for (d, chunk) in dst.iter_mut().zip(src.chunks_exact(width)) {
        let bits = if width == 2 { u16::from_le_bytes([chunk[0], chunk[1]]) } else { u16::from(chunk[0]) };
        *d = component_to_f32(enc, bits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SampleEncoding::*;

    fn f(enc: SampleEncoding, v: u16) -> f32 {
        component_to_f32(enc, v)
    }

    #[test]
    fn float8_reference_values() {
        // E4M3FN: max 448, min subnormal 2^-9, NaN only at S.1111.111
        assert_eq!(f(F8E4M3FN, 0x7e), 448.0);
        assert_eq!(f(F8E4M3FN, 0x01), 2f32.powi(-9));
        assert_eq!(f(F8E4M3FN, 0x38), 1.0);
        assert_eq!(f(F8E4M3FN, 0xb8), -1.0);
        assert_eq!(f(F8E4M3FN, 0x78), 256.0);
        assert!(f(F8E4M3FN, 0x7f).is_nan() && f(F8E4M3FN, 0xff).is_nan());
        // E4M3FNUZ: max 240, 1.0 = 0x40, 0x80 NaN
        assert_eq!(f(F8E4M3FNUZ, 0x7f), 240.0);
        assert_eq!(f(F8E4M3FNUZ, 0x40), 1.0);
        assert_eq!(f(F8E4M3FNUZ, 0x01), 2f32.powi(-10));
        assert!(f(F8E4M3FNUZ, 0x80).is_nan());
        assert_eq!(f(F8E4M3FNUZ, 0xff), -240.0);
        // E5M2: max 57344, inf at 0x7c, NaN above
        assert_eq!(f(F8E5M2, 0x7b), 57344.0);
        assert_eq!(f(F8E5M2, 0x3c), 1.0);
        assert_eq!(f(F8E5M2, 0x01), 2f32.powi(-16));
        assert_eq!(f(F8E5M2, 0x7c), f32::INFINITY);
        assert_eq!(f(F8E5M2, 0xfc), f32::NEG_INFINITY);
        assert!(f(F8E5M2, 0x7d).is_nan());
        // E5M2FNUZ: max 57344 at 0x7f, 1.0 = 0x40, 0x80 NaN
        assert_eq!(f(F8E5M2FNUZ, 0x7f), 57344.0);
        assert_eq!(f(F8E5M2FNUZ, 0x40), 1.0);
        assert_eq!(f(F8E5M2FNUZ, 0x01), 2f32.powi(-17));
        assert!(f(F8E5M2FNUZ, 0x80).is_nan());
        // E8M0FNU: 2^(v-127)
        assert_eq!(f(F8E8M0FNU, 127), 1.0);
        assert_eq!(f(F8E8M0FNU, 254), 2f32.powi(127));
        assert_eq!(f(F8E8M0FNU, 0) as f64, 2f64.powi(-127));
        assert!(f(F8E8M0FNU, 255).is_nan());
    }

    #[test]
    fn half_formats_are_exact() {
        assert_eq!(f(F16, 0x3c00), 1.0);
        assert_eq!(f(F16, 0x7bff), 65504.0);
        assert_eq!(f(F16, 0x0001), 2f32.powi(-24));
        assert_eq!(f(BF16, 0x3f80), 1.0);
        assert_eq!(f(BF16, 0xc2f7), -123.5);
        let mut out = [0f32; 2];
        to_f32(C32, &[0x00, 0x3c, 0x00, 0xc0], &mut out);
        assert_eq!(out, [1.0, -2.0]);
    }

    #[test]
    fn float8_monotonic_over_positive_codes() {
        for enc in [F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0FNU] {
            let mut prev = f32::NEG_INFINITY;
            for v in 0u16..0x80 {
                let x = f(enc, v);
                if x.is_nan() {
                    continue;
                }
                assert!(x > prev || (v == 0 && x >= 0.0), "{enc:?} {v:#x}");
                prev = x;
            }
        }
    }
}
