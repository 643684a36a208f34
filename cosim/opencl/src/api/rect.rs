//! Rectangular transfers: `clEnqueueReadBufferRect`,
//! `clEnqueueWriteBufferRect`, `clEnqueueCopyBufferRect` (OpenCL 1.2,
//! 5.2.2/5.2.3). A rectangle is `region[1] * region[2]` rows of
//! `region[0]` bytes, laid out with a row and a slice pitch on each side;
//! on the device the rows are gathered from (or patched into) one read of
//! the bytes they span.

#![allow(non_snake_case)]

use std::ffi::c_void;

use sw::driver::memory::Allocation;

use super::memory::BUFFERS;
use super::transfers::{host_may, on_buffers};
use crate::cl::*;

/// One side of a rectangle: where it starts and its pitches, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Byte offset of the first row.
    pub base: usize,
    /// Bytes from a row to the next.
    pub row: usize,
    /// Bytes from a slice to the next.
    pub slice: usize,
}

impl Layout {
    /// The specification's rules: a pitch of 0 is the tight one; a row
    /// pitch below the row, or a slice pitch below the rows of a slice or
    /// not a multiple of the row pitch, is `CL_INVALID_VALUE`.
    pub fn new(
        origin: [usize; 3],
        region: [usize; 3],
        row: usize,
        slice: usize,
    ) -> Result<Layout, cl_int> {
        if region.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        let row = if row == 0 { region[0] } else { row };
        if row < region[0] {
            return Err(CL_INVALID_VALUE);
        }
        let tight = row.checked_mul(region[1]).ok_or(CL_INVALID_VALUE)?;
        let slice = if slice == 0 { tight } else { slice };
        if slice < tight || slice % row != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let base = origin[2]
            .checked_mul(slice)
            .and_then(|z| origin[1].checked_mul(row).and_then(|y| z.checked_add(y)))
            .and_then(|b| b.checked_add(origin[0]))
            .ok_or(CL_INVALID_VALUE)?;
        Ok(Layout { base, row, slice })
    }

    /// The offset of each row (`region[1] * region[2]` of them).
    pub fn rows(&self, region: [usize; 3]) -> impl Iterator<Item = usize> + '_ {
        (0..region[2]).flat_map(move |z| {
            (0..region[1]).map(move |y| self.base + z * self.slice + y * self.row)
        })
    }

    /// One past the last byte the rectangle touches.
    pub fn end(&self, region: [usize; 3]) -> usize {
        self.base + (region[2] - 1) * self.slice + (region[1] - 1) * self.row + region[0]
    }
}

/// Reads three sizes.
///
/// # Safety
/// `p` must be valid for three `size_t`.
unsafe fn three(p: *const usize) -> Result<[usize; 3], cl_int> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: by the contract.
    Ok(unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// Read or write of a rectangle between `buffer` and host memory at `ptr`.
///
/// # Safety
/// The entry points' contracts.
#[allow(clippy::too_many_arguments)]
unsafe fn host_rect(
    queue: *mut c_void,
    buffer: *mut c_void,
    write: bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    pitches: [usize; 4],
    ptr: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    let geometry = (|| {
        // SAFETY: by the contract.
        let (bo, ho, region) =
            unsafe { (three(buffer_origin)?, three(host_origin)?, three(region)?) };
        let dev = Layout::new(bo, region, pitches[0], pitches[1])?;
        let host = Layout::new(ho, region, pitches[2], pitches[3])?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        Ok((dev, host, region))
    })();
    let (dev, host, region) = match geometry {
        Ok(g) => g,
        Err(e) => return e,
    };
    if let Some(flags) = BUFFERS.with(buffer, |m| m.flags) {
        if !host_may(flags, write) {
            return CL_INVALID_OPERATION;
        }
    }
    let (start, end) = (dev.base, dev.end(region));
    let rows: Vec<(usize, usize)> = dev.rows(region).zip(host.rows(region)).collect();
    let width = region[0];
    let host_addr = ptr as usize;
    let check = |a: &[Allocation]| {
        if end as u64 > a[0].size {
            return Err(CL_INVALID_VALUE);
        }
        Ok(())
    };
    let run = move |s: &mut cosim::session::Session, a: Vec<Allocation>| {
        let d = s.driver();
        let mut bytes = d
            .download_range(a[0], start as u64, (end - start) as u64)
            .map_err(|e| e.to_string())?;
        for &(on_dev, on_host) in &rows {
            let dev_row = &mut bytes[on_dev - start..on_dev - start + width];
            let host_row = (host_addr + on_host) as *mut u8;
            // SAFETY: the application's memory holds the host rectangle and
            // is not touched while its enqueue waits for this thread.
            unsafe {
                if write {
                    std::ptr::copy_nonoverlapping(host_row, dev_row.as_mut_ptr(), width);
                } else {
                    std::ptr::copy_nonoverlapping(dev_row.as_ptr(), host_row, width);
                }
            }
        }
        if write {
            d.upload(a[0], start as u64, &bytes)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    };
    let command = if write {
        CL_COMMAND_WRITE_BUFFER_RECT
    } else {
        CL_COMMAND_READ_BUFFER_RECT
    };
    // SAFETY: by the contract.
    unsafe {
        on_buffers(
            queue,
            &[(buffer, write)],
            n,
            list,
            event,
            command,
            check,
            run,
        )
    }
}

/// `clEnqueueReadBufferRect` (blocking or not: it completes first).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueReadBufferRect(
    queue: *mut c_void,
    buffer: *mut c_void,
    _blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    let pitches = [
        buffer_row_pitch,
        buffer_slice_pitch,
        host_row_pitch,
        host_slice_pitch,
    ];
    // SAFETY: the same contract.
    super::guard::status("clEnqueueReadBufferRect", || unsafe {
        host_rect(
            queue,
            buffer,
            false,
            buffer_origin,
            host_origin,
            region,
            pitches,
            ptr,
            n,
            list,
            event,
        )
    })
}

/// `clEnqueueWriteBufferRect` (blocking or not: it completes first).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueWriteBufferRect(
    queue: *mut c_void,
    buffer: *mut c_void,
    _blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    let pitches = [
        buffer_row_pitch,
        buffer_slice_pitch,
        host_row_pitch,
        host_slice_pitch,
    ];
    // SAFETY: the same contract.
    super::guard::status("clEnqueueWriteBufferRect", || unsafe {
        host_rect(
            queue,
            buffer,
            true,
            buffer_origin,
            host_origin,
            region,
            pitches,
            ptr.cast_mut(),
            n,
            list,
            event,
        )
    })
}

/// Whether any row of one rectangle shares a byte with a row of the other.
fn rows_overlap(a: &[usize], b: &[usize], width: usize) -> bool {
    let mut all: Vec<(usize, bool)> = a
        .iter()
        .map(|&r| (r, false))
        .chain(b.iter().map(|&r| (r, true)))
        .collect();
    all.sort_unstable();
    all.windows(2)
        .any(|w| w[0].1 != w[1].1 && w[1].0 < w[0].0 + width)
}

/// `clEnqueueCopyBufferRect`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueCopyBufferRect(
    queue: *mut c_void,
    src: *mut c_void,
    dst: *mut c_void,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueCopyBufferRect", || {
        let geometry = (|| {
            // SAFETY: by the contract.
            let (so, d_o, region) =
                unsafe { (three(src_origin)?, three(dst_origin)?, three(region)?) };
            let s = Layout::new(so, region, src_row_pitch, src_slice_pitch)?;
            let d = Layout::new(d_o, region, dst_row_pitch, dst_slice_pitch)?;
            if src == dst && (s.row != d.row || s.slice != d.slice) {
                // One buffer: the pitches must agree (OpenCL 1.2, 5.2.3).
                return Err(CL_INVALID_VALUE);
            }
            Ok((s, d, region))
        })();
        let (s, d, region) = match geometry {
            Ok(g) => g,
            Err(e) => return e,
        };
        let src_rows: Vec<usize> = s.rows(region).collect();
        let dst_rows: Vec<usize> = d.rows(region).collect();
        let width = region[0];
        let (s_end, d_end) = (s.end(region), d.end(region));
        let check = |a: &[Allocation]| {
            if s_end as u64 > a[0].size || d_end as u64 > a[1].size {
                return Err(CL_INVALID_VALUE);
            }
            if src == dst && rows_overlap(&src_rows, &dst_rows, width) {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            Ok(())
        };
        let (s_base, d_base) = (s.base, d.base);
        let pairs: Vec<(usize, usize)> = s.rows(region).zip(d.rows(region)).collect();
        let run = move |sess: &mut cosim::session::Session, a: Vec<Allocation>| {
            let drv = sess.driver();
            let from = drv
                .download_range(a[0], s_base as u64, (s_end - s_base) as u64)
                .map_err(|e| e.to_string())?;
            let mut to = drv
                .download_range(a[1], d_base as u64, (d_end - d_base) as u64)
                .map_err(|e| e.to_string())?;
            for &(sr, dr) in &pairs {
                to[dr - d_base..dr - d_base + width]
                    .copy_from_slice(&from[sr - s_base..sr - s_base + width]);
            }
            drv.upload(a[1], d_base as u64, &to)
                .map_err(|e| e.to_string())
        };
        // SAFETY: by the contract.
        unsafe {
            on_buffers(
                queue,
                &[(src, false), (dst, true)],
                n,
                list,
                event,
                CL_COMMAND_COPY_BUFFER_RECT,
                check,
                run,
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitches_follow_the_specification() {
        let l = Layout::new([4, 1, 1], [8, 2, 2], 0, 0).unwrap();
        assert_eq!(
            l,
            Layout {
                base: 16 + 8 + 4,
                row: 8,
                slice: 16
            }
        );
        assert_eq!(l.rows([8, 2, 2]).collect::<Vec<_>>(), vec![28, 36, 44, 52]);
        assert_eq!(l.end([8, 2, 2]), 60);
        assert_eq!(Layout::new([0; 3], [8, 2, 1], 4, 0), Err(CL_INVALID_VALUE));
        assert_eq!(Layout::new([0; 3], [8, 2, 1], 8, 12), Err(CL_INVALID_VALUE));
        assert_eq!(Layout::new([0; 3], [8, 2, 1], 8, 20), Err(CL_INVALID_VALUE));
        assert_eq!(Layout::new([0; 3], [0, 2, 1], 0, 0), Err(CL_INVALID_VALUE));
        assert!(rows_overlap(&[0, 16], &[8], 10));
        assert!(!rows_overlap(&[0, 16], &[8], 8));
    }
}
