//! Sample encodings (spec: "Sample encodings"): the 21 valid (sample_format, bits_per_sample) pairs.

use crate::error::{Error, Result};

/// One of the 21 sample encodings a rumi file may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SampleEncoding {
    /// (1, 1) boolean, one byte of 0 or 1.
    Bool,
    /// (1, 8)
    U8,
    /// (1, 16)
    U16,
    /// (1, 32)
    U32,
    /// (1, 64)
    U64,
    /// (2, 8)
    I8,
    /// (2, 16)
    I16,
    /// (2, 32)
    I32,
    /// (2, 64)
    I64,
    /// (3, 16) IEEE binary16
    F16,
    /// (3, 32)
    F32,
    /// (3, 64)
    F64,
    /// (6, 32) complex, binary16 components
    C32,
    /// (6, 64) complex, binary32 components
    C64,
    /// (6, 128) complex, binary64 components
    C128,
    /// (100, 8) float8 E4M3FN
    F8E4M3FN,
    /// (101, 8) float8 E5M2
    F8E5M2,
    /// (102, 16) bfloat16
    BF16,
    /// (103, 8) float8 E8M0FNU
    F8E8M0FNU,
    /// (107, 8) float8 E4M3FNUZ
    F8E4M3FNUZ,
    /// (108, 8) float8 E5M2FNUZ
    F8E5M2FNUZ,
}

use SampleEncoding::*;

/// Where a numpy dtype for an encoding comes from ([`SampleEncoding::numpy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumpyType {
    /// numpy has the type, by this name.
    Numpy(&'static str),
    /// the `ml_dtypes` package has it, by this name.
    MlDtypes(&'static str),
    /// numpy has no such type.
    None,
}

impl SampleEncoding {
    /// All 21 encodings, in the order of the spec's table.
    pub const ALL: [SampleEncoding; 21] = [
        Bool, U8, U16, U32, U64, I8, I16, I32, I64, F16, F32, F64, C32, C64, C128, F8E4M3FN, F8E5M2, BF16, F8E8M0FNU,
        F8E4M3FNUZ, F8E5M2FNUZ,
    ];

    /// Looks up a pair; any pair not in the spec's table (reserved ones included) is an error.
    pub fn from_pair(sample_format: u16, bits_per_sample: u16) -> Result<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|e| e.pair() == (sample_format, bits_per_sample))
            .ok_or(Error::SamplePair { sample_format, bits_per_sample })
    }

    /// `(sample_format, bits_per_sample)`.
    pub fn pair(self) -> (u16, u16) {
        match self {
            Bool => (1, 1),
            U8 => (1, 8),
            U16 => (1, 16),
            U32 => (1, 32),
            U64 => (1, 64),
            I8 => (2, 8),
            I16 => (2, 16),
            I32 => (2, 32),
            I64 => (2, 64),
            F16 => (3, 16),
            F32 => (3, 32),
            F64 => (3, 64),
            C32 => (6, 32),
            C64 => (6, 64),
            C128 => (6, 128),
            F8E4M3FN => (100, 8),
            F8E5M2 => (101, 8),
            BF16 => (102, 16),
            F8E8M0FNU => (103, 8),
            F8E4M3FNUZ => (107, 8),
            F8E5M2FNUZ => (108, 8),
        }
    }

    /// Decoded bytes per sample (the storage stride).
    pub fn decoded_bytes(self) -> usize {
        match self {
            C32 => 4,
            C64 => 8,
            C128 => 16,
            Bool => 1,
            _ => usize::from(self.pair().1) / 8,
        }
    }

    /// Width of one numeric element as OpenZL sees it: a complex sample is two components.
    pub fn element_width(self) -> usize {
        match self {
            C32 | C64 | C128 => self.decoded_bytes() / 2,
            _ => self.decoded_bytes(),
        }
    }

    /// Short lower-case name used by the CLI and metadata (e.g. `uint16`, `complex64`).
    pub fn name(self) -> &'static str {
        match self {
            Bool => "bool",
            U8 => "uint8",
            U16 => "uint16",
            U32 => "uint32",
            U64 => "uint64",
            I8 => "int8",
            I16 => "int16",
            I32 => "int32",
            I64 => "int64",
            F16 => "float16",
            F32 => "float32",
            F64 => "float64",
            C32 => "complex32",
            C64 => "complex64",
            C128 => "complex128",
            F8E4M3FN => "float8_e4m3fn",
            F8E5M2 => "float8_e5m2",
            BF16 => "bfloat16",
            F8E8M0FNU => "float8_e8m0fnu",
            F8E4M3FNUZ => "float8_e4m3fnuz",
            F8E5M2FNUZ => "float8_e5m2fnuz",
        }
    }

    /// Inverse of [`SampleEncoding::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|e| e.name() == name)
    }

    /// The encoding's stable code: its position in the spec's table (`RUMI_ENCODING_*` of the
    /// C ABI).
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Inverse of [`SampleEncoding::code`].
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }

    /// Where a numpy dtype for these samples comes from (spec "Sample encodings"): numpy
    /// itself, the `ml_dtypes` package (float8 and bfloat16 types, by the same name), or nowhere
    /// (complex32: complex with binary16 parts).
    pub fn numpy(self) -> NumpyType {
        match self {
            C32 => NumpyType::None,
            BF16 | F8E4M3FN | F8E5M2 | F8E8M0FNU | F8E4M3FNUZ | F8E5M2FNUZ => NumpyType::MlDtypes(self.name()),
            _ => NumpyType::Numpy(self.name()),
        }
    }

    /// The DLPack `(type code, bits)` of one sample (spec "DLPack representation"; lanes 1):
    /// kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLComplex 5, kDLBool 6, and the float8
    /// codes 10 (e4m3fn), 11 (e4m3fnuz), 12 (e5m2), 13 (e5m2fnuz), 14 (e8m0fnu).
    pub fn dlpack(self) -> (u8, u8) {
        let bits = u8::try_from(self.pair().1).unwrap_or(u8::MAX);
        match self {
            Bool => (6, 8),
            U8 | U16 | U32 | U64 => (1, bits),
            I8 | I16 | I32 | I64 => (0, bits),
            F16 | F32 | F64 => (2, bits),
            C32 | C64 | C128 => (5, bits),
            BF16 => (4, 16),
            F8E4M3FN => (10, 8),
            F8E4M3FNUZ => (11, 8),
            F8E5M2 => (12, 8),
            F8E5M2FNUZ => (13, 8),
            F8E8M0FNU => (14, 8),
        }
    }

    /// GDAL's name of the data type that holds these samples as they are (`Byte` for bool and,
    /// before GDAL 3.7 (`has_int8` false), int8), or `None` when GDAL has none: those are read
    /// converted exactly to [`SampleEncoding::gdal_promoted`].
    pub fn gdal_type(self, has_int8: bool) -> Option<&'static str> {
        Some(match self {
            Bool | U8 => "Byte",
            I8 if !has_int8 => "Byte",
            I8 => "Int8",
            U16 => "UInt16",
            U32 => "UInt32",
            U64 => "UInt64",
            I16 => "Int16",
            I32 => "Int32",
            I64 => "Int64",
            F32 => "Float32",
            F64 => "Float64",
            C64 => "CFloat32",
            C128 => "CFloat64",
            _ => return None,
        })
    }

    /// GDAL's name of the float32 type these samples are promoted to exactly when GDAL has no
    /// type of their own (`CFloat32` for complex32, else `Float32`).
    pub fn gdal_promoted(self) -> &'static str {
        if self == C32 {
            "CFloat32"
        } else {
            "Float32"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_pairs_are_rejected() {
        for (sf, bps) in
            [(1, 2), (1, 4), (2, 2), (2, 4), (5, 32), (5, 64), (104, 6), (105, 6), (106, 4), (3, 8), (2, 1)]
        {
            assert!(matches!(SampleEncoding::from_pair(sf, bps), Err(Error::SamplePair { .. })), "{sf},{bps}");
        }
    }

    #[test]
    fn every_pair_round_trips() {
        for e in SampleEncoding::ALL {
            let (sf, bps) = e.pair();
            assert_eq!(SampleEncoding::from_pair(sf, bps).unwrap(), e);
            assert_eq!(SampleEncoding::from_name(e.name()), Some(e));
        }
    }

    #[test]
    fn codes_and_host_names() {
        for (i, e) in SampleEncoding::ALL.iter().enumerate() {
            assert_eq!(e.code() as usize, i);
            assert_eq!(SampleEncoding::from_code(e.code()), Some(*e));
            let (_, bits) = e.dlpack();
            assert_eq!(usize::from(bits), 8 * e.decoded_bytes(), "{e:?}");
        }
        assert_eq!(SampleEncoding::from_code(21), None);
        assert_eq!(U16.numpy(), NumpyType::Numpy("uint16"));
        assert_eq!(BF16.numpy(), NumpyType::MlDtypes("bfloat16"));
        assert_eq!(C32.numpy(), NumpyType::None);
        assert_eq!(I8.gdal_type(false), Some("Byte"));
        assert_eq!(I8.gdal_type(true), Some("Int8"));
        assert_eq!(F16.gdal_type(true), None);
        assert_eq!(C32.gdal_promoted(), "CFloat32");
    }
}
