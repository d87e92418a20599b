//! In-memory rumi_io callbacks for the C ABI tests (the plugin crate's tests only).

unsafe extern "C" fn vec_read(ctx: *mut std::ffi::c_void, offset: u64, len: usize, buf: *mut u8) -> i32 {
    // SAFETY: ctx is the Vec<u8> given to `vec_io`, which the caller keeps alive while the
    // dataset lives.
    let src = unsafe { &*(ctx as *const Vec<u8>) };
    match src.get(offset as usize..offset as usize + len) {
        Some(s) => {
            // SAFETY: the C ABI gives `len` writable bytes at `buf`.
            unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), buf, len) };
            gdal_rumi::capi::RUMI_IO_OK
        }
        None => gdal_rumi::capi::RUMI_IO_EOF,
    }
}

unsafe extern "C" fn vec_size(ctx: *mut std::ffi::c_void, out: *mut u64) -> i32 {
    // SAFETY: as in vec_read; `out` is writable per the C ABI.
    unsafe { *out = (*(ctx as *const Vec<u8>)).len() as u64 };
    gdal_rumi::capi::RUMI_IO_OK
}

/// C ABI callbacks reading an in-memory file (no `read_multi`). `bytes` must outlive every
/// dataset opened with the result.
pub fn vec_io(bytes: &Vec<u8>) -> gdal_rumi::capi::rumi_io {
    gdal_rumi::capi::rumi_io {
        ctx: (bytes as *const Vec<u8>).cast_mut().cast(),
        read: Some(vec_read),
        size: Some(vec_size),
        read_multi: None,
        prefix: std::ptr::null(),
        prefix_len: 0,
    }
}
