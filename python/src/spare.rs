//! Batch buffers: writable byte buffers whose storage comes from the core's spare buffers
//! (`rumi::spare`) and goes back there when the last view of it is released. A loader hands
//! out a batch after batch of the same size; fresh memory for each would be page-faulted in
//! again (the C allocator gives large blocks back to the kernel), the spares are not.

use std::ffi::{c_int, c_void};

use pyo3::exceptions::PyMemoryError;
use pyo3::ffi;
use pyo3::prelude::*;
use rumi::codec::AlignedBuf;

/// A writable buffer of bytes (buffer protocol) for one batch; its contents are undefined
/// (whatever a previous batch left), as `torch.empty`'s.
#[pyclass(frozen, module = "rumi._rumi")]
pub struct SpareBuffer {
    buf: AlignedBuf,
    /// the storage's address, taken while the buffer was owned mutably
    ptr: usize,
}

/// `spare_buffer(nbytes) -> SpareBuffer`: a spare buffer of that size, or a fresh one.
#[pyfunction]
pub fn spare_buffer(nbytes: usize) -> PyResult<SpareBuffer> {
    let mut buf = match rumi::spare::take(nbytes) {
        Some(b) => b,
        None => AlignedBuf::try_zeroed(nbytes, "batch buffer").map_err(|e| PyMemoryError::new_err(e.to_string()))?,
    };
    let ptr = buf.as_bytes_mut().as_mut_ptr() as usize;
    Ok(SpareBuffer { buf, ptr })
}

#[pymethods]
impl SpareBuffer {
    fn __len__(&self) -> usize {
        self.buf.as_bytes().len()
    }

    /// # Safety
    /// Called by CPython with a view to fill.
    unsafe fn __getbuffer__(slf: Bound<'_, Self>, view: *mut ffi::Py_buffer, flags: c_int) -> PyResult<()> {
        let (ptr, len) = (slf.get().ptr, slf.get().buf.as_bytes().len());
        // SAFETY: `view` is CPython's to fill; the storage (ptr, len) lives as long as `slf`,
        // which the view references (FillInfo takes a reference to it) and is never moved.
        let rc =
            unsafe { ffi::PyBuffer_FillInfo(view, slf.as_ptr(), ptr as *mut c_void, len as ffi::Py_ssize_t, 0, flags) };
        if rc != 0 {
            return Err(PyErr::fetch(slf.py()));
        }
        Ok(())
    }
}

impl Drop for SpareBuffer {
    fn drop(&mut self) {
        rumi::spare::put(std::mem::take(&mut self.buf));
    }
}
