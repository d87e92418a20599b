//! DLPack export with the spec's type table ("DLPack representation"): a capsule over the
//! memory of an existing C-contiguous buffer (no copy), the buffer's owner kept alive until
//! the consumer calls the deleter. Versioned (`dltensor_versioned`, DLPack 1.1: float8 codes)
//! when the consumer asks for DLPack >= 1, the legacy `dltensor` otherwise.

use std::ffi::{c_void, CStr};

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyBufferError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[repr(C)]
struct DLPackVersion {
    major: u32,
    minor: u32,
}

#[repr(C)]
struct DLManagedTensorVersioned {
    version: DLPackVersion,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    flags: u64,
    dl_tensor: DLTensor,
}

const KDL_CPU: i32 = 1;
const FLAG_READ_ONLY: u64 = 1;
const LEGACY: &CStr = c"dltensor";
const VERSIONED: &CStr = c"dltensor_versioned";

/// What a tensor keeps alive: its shape/strides arrays and the exporter's buffer view.
struct Ctx {
    shape: Vec<i64>,
    strides: Vec<i64>,
    _buffer: PyUntypedBuffer,
}

/// The DLPack `(code, bits)` of a rumi encoding name (spec table); None for names without one.
pub fn dl_type(encoding: &str) -> Option<(u8, u8)> {
    // the table is the core's (SampleEncoding::dlpack, spec "DLPack representation")
    rumi::format::SampleEncoding::from_name(encoding).map(|e| e.dlpack())
}

unsafe extern "C" fn delete_legacy(t: *mut DLManagedTensor) {
    if t.is_null() {
        return;
    }
    // SAFETY: `t` came from Box::into_raw in `dlpack_capsule` and the consumer calls the deleter
    // once; its manager_ctx is the Box<Ctx> leaked there. Dropping Ctx releases the buffer view
    // (PyBuffer's Drop attaches to the interpreter itself).
    unsafe {
        let t = Box::from_raw(t);
        drop(Box::from_raw(t.manager_ctx as *mut Ctx));
    }
}

unsafe extern "C" fn delete_versioned(t: *mut DLManagedTensorVersioned) {
    if t.is_null() {
        return;
    }
    // SAFETY: as in `delete_legacy`, for the versioned struct.
    unsafe {
        let t = Box::from_raw(t);
        drop(Box::from_raw(t.manager_ctx as *mut Ctx));
    }
}

/// Capsule destructor: a capsule never consumed (still named `dltensor[_versioned]`) frees
/// its tensor; a consumed one (renamed `used_...`) belongs to the consumer.
unsafe extern "C" fn capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: called by CPython with the capsule being destroyed; IsValid/GetPointer only read it;
    // the pointer is the tensor boxed in `dlpack_capsule`, not yet handed to a consumer.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, LEGACY.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(capsule, LEGACY.as_ptr()) as *mut DLManagedTensor;
            delete_legacy(p);
        } else if ffi::PyCapsule_IsValid(capsule, VERSIONED.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(capsule, VERSIONED.as_ptr()) as *mut DLManagedTensorVersioned;
            delete_versioned(p);
        }
    }
}

/// `dlpack_capsule(buffer, shape, encoding, versioned)`: a DLPack capsule over `buffer` (any
/// C-contiguous buffer-protocol object holding `prod(shape)` samples of `encoding`), no copy.
#[pyfunction]
pub fn dlpack_capsule(
    py: Python<'_>,
    buffer: &Bound<'_, PyAny>,
    shape: Vec<i64>,
    encoding: &str,
    versioned: bool,
) -> PyResult<Py<PyAny>> {
    let (code, bits) =
        dl_type(encoding).ok_or_else(|| PyValueError::new_err(format!("no DLPack type for {encoding:?}")))?;
    let buf = PyUntypedBuffer::get(buffer)?;
    if !buf.is_c_contiguous() {
        return Err(PyBufferError::new_err("DLPack export needs a C-contiguous buffer"));
    }
    let count = shape.iter().try_fold(1i64, |a, &d| if d < 0 { None } else { a.checked_mul(d) });
    let bytes = count.and_then(|c| c.checked_mul(i64::from(bits / 8).max(1)));
    if bytes != Some(buf.len_bytes() as i64) {
        return Err(PyValueError::new_err(format!(
            "shape {shape:?} of {encoding} needs {bytes:?} bytes, the buffer has {}",
            buf.len_bytes()
        )));
    }
    let readonly = buf.readonly();
    let data = buf.buf_ptr();
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1].max(1);
    }
    let mut ctx = Box::new(Ctx { shape, strides, _buffer: buf });
    let tensor = DLTensor {
        data,
        device: DLDevice { device_type: KDL_CPU, device_id: 0 },
        ndim: ctx.shape.len() as i32,
        dtype: DLDataType { code, bits, lanes: 1 },
        shape: ctx.shape.as_mut_ptr(),
        strides: ctx.strides.as_mut_ptr(),
        byte_offset: 0,
    };
    let ctx = Box::into_raw(ctx) as *mut c_void;
    let (ptr, name) = if versioned {
        let t = Box::new(DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 1 },
            manager_ctx: ctx,
            deleter: Some(delete_versioned),
            flags: if readonly { FLAG_READ_ONLY } else { 0 },
            dl_tensor: tensor,
        });
        (Box::into_raw(t) as *mut c_void, VERSIONED)
    } else {
        let t = Box::new(DLManagedTensor { dl_tensor: tensor, manager_ctx: ctx, deleter: Some(delete_legacy) });
        (Box::into_raw(t) as *mut c_void, LEGACY)
    };
    // SAFETY: `ptr` is a valid boxed tensor and `name` a static C string; on failure (NULL) the
    // tensor is freed with its deleter and the Python error raised.
    unsafe {
        let cap = ffi::PyCapsule_New(ptr, name.as_ptr(), Some(capsule_destructor));
        if cap.is_null() {
            if versioned {
                delete_versioned(ptr as *mut DLManagedTensorVersioned);
            } else {
                delete_legacy(ptr as *mut DLManagedTensor);
            }
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, cap).unbind())
    }
}
