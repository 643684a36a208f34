//! The `clGet*Info` convention: a value as bytes, copied into the caller's
//! buffer if it is big enough, its size reported if asked.

use std::ffi::c_void;

use crate::cl::*;

/// One info value.
pub enum Info {
    /// A string, returned NUL-terminated.
    Str(String),
    /// A `cl_uint` (also `cl_bool`).
    Uint(cl_uint),
    /// A `cl_ulong` (also bitfields).
    Ulong(cl_ulong),
    /// A `size_t`.
    Size(usize),
    /// An array of `size_t`.
    Sizes(Vec<usize>),
    /// A pointer-sized value (a handle, or `cl_context_properties`).
    Pointers(Vec<usize>),
}

impl Info {
    /// The value's bytes in the host's layout.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Info::Str(s) => {
                let mut b = s.as_bytes().to_vec();
                b.push(0);
                b
            }
            Info::Uint(v) => v.to_ne_bytes().to_vec(),
            Info::Ulong(v) => v.to_ne_bytes().to_vec(),
            Info::Size(v) => v.to_ne_bytes().to_vec(),
            Info::Sizes(v) | Info::Pointers(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        }
    }
}

/// Answers a `clGet*Info` call with `value` (`None`: the parameter is not
/// one this object has, `CL_INVALID_VALUE`).
///
/// # Safety
/// `param_value` must be null or valid for `param_value_size` bytes, and
/// `param_value_size_ret` null or valid for one `size_t`.
pub unsafe fn answer(
    value: Option<Info>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let Some(value) = value else {
        return CL_INVALID_VALUE;
    };
    let bytes = value.bytes();
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the caller's buffer holds at least `bytes.len()` bytes (checked).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value.cast::<u8>(), bytes.len())
        };
    }
    if !param_value_size_ret.is_null() {
        // SAFETY: the caller passed a valid `size_t` or null (checked).
        unsafe { *param_value_size_ret = bytes.len() };
    }
    CL_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_is_copied_with_its_nul_and_its_size_reported() {
        let mut buf = [0xffu8; 8];
        let mut size = 0usize;
        let s = |v: &str| Some(Info::Str(v.into()));
        let r = unsafe { answer(s("abc"), buf.len(), buf.as_mut_ptr().cast(), &mut size) };
        assert_eq!((r, size, &buf[..5]), (CL_SUCCESS, 4, &b"abc\0\xff"[..]));
        // Too small a buffer is an error; asking only the size is not.
        let r = unsafe {
            answer(
                s("abcdefghij"),
                buf.len(),
                buf.as_mut_ptr().cast(),
                &mut size,
            )
        };
        assert_eq!(r, CL_INVALID_VALUE);
        let r = unsafe { answer(s("abcdefghij"), 0, std::ptr::null_mut(), &mut size) };
        assert_eq!((r, size), (CL_SUCCESS, 11));
        let r = unsafe { answer(None, 0, std::ptr::null_mut(), &mut size) };
        assert_eq!(r, CL_INVALID_VALUE);
    }
}
