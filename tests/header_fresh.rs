//! `include/rumi.h` is generated from `src/capi.rs` by cbindgen (config: `cbindgen.toml`). This
//! test regenerates it and fails when the committed header is stale; run it with
//! `RUMI_BLESS=1` to rewrite the header.

use std::path::Path;

#[test]
fn committed_header_matches_capi() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/capi.rs"))
        .generate()
        .expect("cbindgen generates the header from src/capi.rs");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("the header is UTF-8");
    let path = root.join("include/rumi.h");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if std::env::var_os("RUMI_BLESS").is_some() {
        if committed != fresh {
            std::fs::write(&path, &fresh).expect("include/rumi.h is writable");
        }
        return;
    }
    assert!(
        committed == fresh,
        "include/rumi.h is stale: regenerate it with `RUMI_BLESS=1 cargo test --test header_fresh`"
    );
}
