//! The CPU check: OpenZL is compiled for x86-64-v2, and every encode and decode asks
//! [`cpu_supported`] first.

use crate::error::{Error, Result};

/// The x86-64 features OpenZL is compiled for: `.cargo/config.toml` builds it for x86-64-v2
/// (`-march=x86-64-v2`: its SSSE3 delta, LZ and entropy kernels; the scalar 8-bit delta was 44 %
/// of an RGB decode, docs/performance.md). Every encode and decode checks them before any
/// OpenZL code runs, so that a CPU without them (older than about 2009) gets this error, not
/// an illegal instruction in the host process.
const CPU_FEATURES: [&str; 5] = ["ssse3", "sse4.1", "sse4.2", "popcnt", "cmpxchg16b"];

/// `Err(Unsupported)` naming what this CPU lacks of [`CPU_FEATURES`] (nothing to check on other
/// architectures); the detection is cached by the standard library.
pub fn cpu_supported() -> Result<()> {
    #[cfg(target_arch = "x86_64")]
    {
        let has = |f: &str| match f {
            "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
            "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
            "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            _ => std::arch::is_x86_feature_detected!("cmpxchg16b"),
        };
        if let Some(message) = missing_cpu_features(has) {
            return Err(Error::Unsupported(message));
        }
    }
    Ok(())
}

/// The error text for the [`CPU_FEATURES`] that `has` denies, if any.
fn missing_cpu_features(has: impl Fn(&str) -> bool) -> Option<String> {
    let missing: Vec<&str> = CPU_FEATURES.into_iter().filter(|f| !has(f)).collect();
    (!missing.is_empty()).then(|| {
        format!(
            "this CPU lacks {} (x86-64-v2), which this build of rumi's OpenZL codec uses; rebuild \
             rumi with the environment variable CFLAGS_x86_64_unknown_linux_gnu set to an empty \
             string (slower decoding, any x86-64 CPU)",
            missing.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU without the features OpenZL is built for gets an error naming them (checked before
    /// any OpenZL code runs); this machine has them all, so encoding and decoding work.
    #[test]
    fn cpu_features_are_named_when_missing() {
        assert_eq!(missing_cpu_features(|_| true), None);
        let m = missing_cpu_features(|f| f != "ssse3" && f != "popcnt").unwrap();
        assert!(m.starts_with("this CPU lacks ssse3, popcnt (x86-64-v2)"), "{m}");
        assert!(m.contains("CFLAGS_x86_64_unknown_linux_gnu"), "{m}");
        assert!(cpu_supported().is_ok());
    }
}
