//! The CPU check: OpenZL is compiled for x86-64-v2 on x86-64 and for armv8.2-a on aarch64, and
//! every encode and decode asks [`cpu_supported`] first.

use crate::error::{Error, Result};

/// x86-64-v2 (`-march=x86-64-v2`, `.cargo/config.toml`: OpenZL's SSSE3 delta, LZ and entropy
/// kernels; the scalar 8-bit delta was 44 % of an RGB decode, docs/performance.md): every x86-64
/// CPU since about 2009.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const X86_64_V2: Level = Level {
    features: &["ssse3", "sse4.1", "sse4.2", "popcnt", "cmpxchg16b"],
    name: "x86-64-v2",
    cflags: "CFLAGS_x86_64_unknown_linux_gnu",
    any: "slower decoding, any x86-64 CPU",
};
/// armv8.2-a (`-march=armv8.2-a`, `.cargo/config.toml`; zig's `-mcpu=generic+v8_2a` for the
/// wheel), whose additions over armv8.0 the compiler may use are LSE atomics, CRC32 and RDM; NEON
/// (`asimd`) is in every aarch64 CPU, and checked all the same. Every NVIDIA Grace (Neoverse V2)
/// and AWS Graviton 2 or later (Neoverse N1/V1/V2) CPU has them; Cortex-A53/A72 (Graviton 1,
/// Raspberry Pi 4) do not.
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
const ARMV8_2A: Level = Level {
    features: &["neon", "crc", "lse", "rdm"],
    name: "armv8.2-a",
    cflags: "CFLAGS_aarch64_unknown_linux_gnu",
    any: "any aarch64 CPU",
};

/// The level this build's C (OpenZL, and the other C the codec links) is compiled for. Every
/// encode and decode checks its features before any OpenZL code runs, so that a CPU without them
/// gets an error naming them, not an illegal instruction in the host process.
#[cfg(target_arch = "x86_64")]
const LEVEL: Level = X86_64_V2;
#[cfg(target_arch = "aarch64")]
const LEVEL: Level = ARMV8_2A;

/// A build's CPU level: the features checked, the level's name, the variable of
/// `.cargo/config.toml` that sets it, and what an empty value builds (what it costs: OpenZL's
/// SSSE3 kernels on x86-64; nothing measured on aarch64, whose OpenZL code has no LSE, CRC32 or
/// RDM instruction in this build).
struct Level {
    features: &'static [&'static str],
    name: &'static str,
    cflags: &'static str,
    any: &'static str,
}

/// `Err(Unsupported)` naming the features of [`LEVEL`] this CPU lacks (nothing to check on other
/// architectures); the detection is cached by the standard library.
pub fn cpu_supported() -> Result<()> {
    #[cfg(target_arch = "x86_64")]
    let has = |f: &str| match f {
        "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
        "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
        "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
        "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
        _ => std::arch::is_x86_feature_detected!("cmpxchg16b"),
    };
    #[cfg(target_arch = "aarch64")]
    let has = |f: &str| match f {
        "neon" => std::arch::is_aarch64_feature_detected!("neon"),
        "crc" => std::arch::is_aarch64_feature_detected!("crc"),
        "lse" => std::arch::is_aarch64_feature_detected!("lse"),
        _ => std::arch::is_aarch64_feature_detected!("rdm"),
    };
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    if let Some(message) = missing_cpu_features(&LEVEL, has) {
        return Err(Error::Unsupported(message));
    }
    Ok(())
}

/// The error text for the features of `level` that `has` denies, if any.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
fn missing_cpu_features(level: &Level, has: impl Fn(&str) -> bool) -> Option<String> {
    let missing: Vec<&str> = level.features.iter().copied().filter(|f| !has(f)).collect();
    (!missing.is_empty()).then(|| {
        format!(
            "this CPU lacks {} ({}), which this build of rumi's OpenZL codec uses; rebuild \
             rumi with the environment variable {} set to an empty string ({})",
            missing.join(", "),
            level.name,
            level.cflags,
            level.any
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU without the features OpenZL is built for gets an error naming them (checked before
    /// any OpenZL code runs); this machine has them all, so encoding and decoding work. Both
    /// architectures' texts are checked on whichever this runs on.
    #[test]
    fn cpu_features_are_named_when_missing() {
        assert_eq!(missing_cpu_features(&X86_64_V2, |_| true), None);
        let m = missing_cpu_features(&X86_64_V2, |f| f != "ssse3" && f != "popcnt").unwrap();
        assert!(m.starts_with("this CPU lacks ssse3, popcnt (x86-64-v2)"), "{m}");
        assert!(m.contains("CFLAGS_x86_64_unknown_linux_gnu set to an empty string"), "{m}");
        assert_eq!(missing_cpu_features(&ARMV8_2A, |_| true), None);
        let m = missing_cpu_features(&ARMV8_2A, |f| f == "neon" || f == "crc").unwrap();
        assert!(m.starts_with("this CPU lacks lse, rdm (armv8.2-a)"), "{m}");
        assert!(m.contains("CFLAGS_aarch64_unknown_linux_gnu set to an empty string"), "{m}");
        assert!(cpu_supported().is_ok());
    }
}
