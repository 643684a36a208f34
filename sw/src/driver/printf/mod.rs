//! OpenCL `printf` (OpenCL C 1.2 §6.12.13): the buffer a dispatch's kernels
//! print into, and its decoding into text.
//!
//! The convention is clang-19's for OpenCL on AMDGPU ("printf runtime
//! binding", `AMDGPUUsage.rst`), so objects from clang (linked with ROCm's
//! `ockl`) and from `gpusim compile` both print:
//!
//! - a kernel that prints has a hidden kernel argument
//!   `.value_kind: hidden_printf_buffer`: the buffer's device address;
//! - the code object's `amdhsa.printf` metadata lists each call site's format
//!   as `"ID:NARGS:SIZE0:…:SIZEn-1:FORMAT"` (`:` in the format escaped as
//!   `\72`, control characters as `\n`, `\t`…);
//! - the buffer starts with two 32-bit words, bytes used after the header and
//!   the buffer's whole size; each call reserves `4 + ΣSIZE` bytes after the
//!   header atomically (ockl's `__printf_alloc`: compare-and-swap, giving up
//!   when the record would pass the size) and writes the ID then each
//!   argument (`%s` strings as their bytes, NUL-padded to 4).
//!
//! gpusim adds two things a clang kernel never touches, so neither breaks the
//! convention:
//!
//! - a 32-bit **lost-record counter** just past the buffer (`size` bytes from
//!   its start): gpusim's code reserves with an atomic add and, when the record
//!   does not fit, increments that word instead of writing. The driver reports
//!   how many records were lost. clang's code loses records silently; the
//!   driver then reports that the buffer was full (its free space is smaller
//!   than the largest record), without a count.
//! - a **work-item tag**: gpusim's records end with one extra 8-byte argument
//!   (listed in NARGS/SIZE, consumed by no conversion, which C ignores) holding
//!   the work-group's linear id and the work-item's local linear id. A code
//!   object says its records are tagged with a `GPUSIM` note of type
//!   [`NT_GPUSIM_PRINTF`]. The driver prints tagged records in **work-item
//!   order**: by work-group linear id, then local linear id, then call order
//!   within the work-item (the order its reservations succeeded, which program
//!   order fixes). Untagged (clang) records print in reservation order, which
//!   is deterministic on every gpusim model but differs between models.

mod format;
mod number;

pub use format::format;

pub use arch::code_object::NT_GPUSIM_PRINTF;

/// Default printf buffer size per dispatch (header included).
pub const DEFAULT_PRINTF_BUFFER: u32 = 1 << 20;

/// Bytes of the buffer header (used, size).
pub const HEADER_BYTES: u32 = 8;

/// Bytes of the work-item tag argument of gpusim's records.
pub const TAG_BYTES: u32 = 8;

/// One `amdhsa.printf` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    /// The ID records start with.
    pub id: u32,
    /// Each argument's size in bytes.
    pub sizes: Vec<u32>,
    /// The format string, unescaped.
    pub text: String,
}

impl PrintfFormat {
    /// Parses `"ID:NARGS:SIZE…:FORMAT"`.
    pub fn parse(entry: &str) -> Result<PrintfFormat, String> {
        let bad = |why: &str| format!("amdhsa.printf entry `{entry}`: {why}");
        let mut parts = entry.splitn(3, ':');
        let id: u32 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("the ID is not a number"))?;
        let nargs: usize = parts
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|&n| n <= 4096)
            .ok_or_else(|| bad("the argument count is not a number"))?;
        let mut rest = parts.next().ok_or_else(|| bad("no format"))?;
        let mut sizes = Vec::with_capacity(nargs);
        for _ in 0..nargs {
            let (size, tail) = rest
                .split_once(':')
                .ok_or_else(|| bad("fewer sizes than arguments"))?;
            let size: u32 = size
                .parse()
                .ok()
                .filter(|&s| s <= 1 << 16)
                .ok_or_else(|| bad("an argument size is not a number"))?;
            sizes.push(size);
            rest = tail;
        }
        Ok(PrintfFormat {
            id,
            sizes,
            text: unescape(rest),
        })
    }

    /// Bytes of one record: the ID and the arguments.
    pub fn record_bytes(&self) -> u64 {
        4 + self.sizes.iter().map(|&s| u64::from(s)).sum::<u64>()
    }
}

/// Undoes the metadata's escaping: `\a \b \f \n \r \t \v` and octal `\NNN`
/// (clang writes `:` as `\72`). Any other backslash stays as it is: clang
/// writes a backslash of the string unescaped.
pub fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let c = b[i + 1];
            let simple = match c {
                b'a' => Some(7),
                b'b' => Some(8),
                b'f' => Some(12),
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'v' => Some(11),
                _ => None,
            };
            if let Some(v) = simple {
                out.push(v);
                i += 2;
                continue;
            }
            if (b'0'..=b'7').contains(&c) {
                let mut v = 0u32;
                let mut j = i + 1;
                while j < b.len() && j < i + 4 && (b'0'..=b'7').contains(&b[j]) {
                    v = v * 8 + u32::from(b[j] - b'0');
                    j += 1;
                }
                out.push(v as u8);
                i = j;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes a format string for `amdhsa.printf` as clang does (the inverse of
/// [`unescape`] for strings without backslashes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\x0b' => out.push_str("\\v"),
            ':' => out.push_str("\\72"),
            c => out.push(c),
        }
    }
    out
}

/// What a dispatch printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintfOutput {
    /// The kernel.
    pub kernel: String,
    /// The text, records in the order the module documentation defines.
    pub text: String,
    /// Records decoded.
    pub records: u64,
    /// Records the kernel could not write because the buffer was full:
    /// `Some(n)` counted (gpusim code), `None` with `full` set when the
    /// kernel does not count (clang code).
    pub lost: Option<u64>,
    /// The buffer was too full for at least one more record.
    pub full: bool,
    /// Records that could not be decoded (unknown ID, a record running past
    /// the used bytes, a bad format): each a sentence.
    pub errors: Vec<String>,
}

impl PrintfOutput {
    /// A sentence for the overflow, if any: how many records were lost and
    /// how to get them.
    pub fn overflow_message(&self, buffer: u32) -> Option<String> {
        let fix =
            format!("the printf buffer is {buffer} bytes; give a larger one (--printf-buffer)");
        match self.lost {
            Some(0) | None if !self.full => None,
            Some(n) if n > 0 => Some(format!(
                "kernel `{}`: {n} printf record(s) lost: {fix}",
                self.kernel
            )),
            _ => Some(format!(
                "kernel `{}`: the printf buffer filled up; records that did not fit were dropped by the kernel (it does not count them): {fix}",
                self.kernel
            )),
        }
    }
}

/// Decodes a printf buffer: `buffer` holds the whole allocation (header,
/// `size - 8` bytes of records, then the lost-record counter).
pub fn decode(kernel: &str, buffer: &[u8], formats: &[PrintfFormat], tagged: bool) -> PrintfOutput {
    let word = |at: usize| {
        buffer
            .get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let used = word(0);
    let size = word(4);
    let mut out = PrintfOutput {
        kernel: kernel.to_string(),
        ..PrintfOutput::default()
    };
    let capacity = size.saturating_sub(HEADER_BYTES) as usize;
    let end = HEADER_BYTES as usize + (used as usize).min(capacity);
    let end = end.min(buffer.len());
    let mut records: Vec<((u32, u32), Vec<u8>)> = Vec::new();
    let mut at = HEADER_BYTES as usize;
    let largest = formats.iter().map(|f| f.record_bytes()).max().unwrap_or(0);
    while at + 4 <= end {
        let id = word(at);
        if id == 0 && used as usize > capacity {
            // gpusim's atomic add reserved past the end: the first record
            // that did not fit was never written (the driver zeroes the
            // buffer), and nothing after it was.
            break;
        }
        let Some(f) = formats.iter().find(|f| f.id == id) else {
            out.errors.push(format!(
                "printf record at buffer offset {at} has ID {id}, which no amdhsa.printf entry has; the rest of the buffer is skipped"
            ));
            break;
        };
        let len = f.record_bytes() as usize;
        if at + len > end {
            if used as usize > capacity {
                break; // the reservation that did not fit, as above
            }
            out.errors.push(format!(
                "printf record at buffer offset {at} (format {id}) runs past the {} bytes used",
                end - HEADER_BYTES as usize
            ));
            break;
        }
        let mut args: Vec<&[u8]> = Vec::with_capacity(f.sizes.len());
        let mut p = at + 4;
        for &s in &f.sizes {
            args.push(&buffer[p..p + s as usize]);
            p += s as usize;
        }
        let mut key = (0, 0);
        if tagged {
            if let Some(tag) = args.pop().filter(|t| t.len() == TAG_BYTES as usize) {
                key = (
                    u32::from_le_bytes([tag[0], tag[1], tag[2], tag[3]]),
                    u32::from_le_bytes([tag[4], tag[5], tag[6], tag[7]]),
                );
            }
        }
        let text = match format::format(&f.text, &args) {
            Ok(t) => t,
            Err(e) => {
                out.errors.push(format!(
                    "printf format {id} `{}`: {e}",
                    f.text.escape_debug()
                ));
                Vec::new()
            }
        };
        records.push((key, text));
        out.records += 1;
        at += len;
    }
    // A stable sort keeps each work-item's records in call order.
    records.sort_by_key(|r| r.0);
    let mut bytes = Vec::new();
    for (_, t) in records {
        bytes.extend_from_slice(&t);
    }
    out.text = String::from_utf8_lossy(&bytes).into_owned();
    let counted = word(size as usize);
    if tagged {
        out.lost = Some(u64::from(counted));
        out.full = counted > 0;
    } else {
        out.full = (capacity as u64).saturating_sub(u64::from(used)) < largest;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_clang_entries() {
        let f = PrintfFormat::parse("3:3:4:8:4:a\\72b %d\\n").unwrap();
        assert_eq!(f.id, 3);
        assert_eq!(f.sizes, vec![4, 8, 4]);
        assert_eq!(f.text, "a:b %d\n");
        assert_eq!(f.record_bytes(), 20);
        assert_eq!(PrintfFormat::parse("1:0:plain\\n").unwrap().sizes, vec![]);
        assert!(PrintfFormat::parse("x:1:4:y").is_err());
        assert!(PrintfFormat::parse("1:2:4:y").is_err());
        assert_eq!(unescape(&escape("a:b\n\x07\r")), "a:b\n\x07\r");
    }

    /// A buffer of `size` bytes holding `records` (ID, then argument bytes),
    /// with `used` in the header and `lost` in the counter after it.
    fn buffer(size: u32, used: Option<u32>, records: &[(u32, Vec<u8>)], lost: u32) -> Vec<u8> {
        let mut b = vec![0u8; size as usize + 4];
        let mut at = 8;
        for (id, args) in records {
            b[at..at + 4].copy_from_slice(&id.to_le_bytes());
            b[at + 4..at + 4 + args.len()].copy_from_slice(args);
            at += 4 + args.len();
        }
        let used = used.unwrap_or(at as u32 - 8);
        b[0..4].copy_from_slice(&used.to_le_bytes());
        b[4..8].copy_from_slice(&size.to_le_bytes());
        let n = size as usize;
        b[n..n + 4].copy_from_slice(&lost.to_le_bytes());
        b
    }

    fn tagged(v: i32, group: u32, item: u32) -> Vec<u8> {
        let mut a = v.to_le_bytes().to_vec();
        a.extend_from_slice(&group.to_le_bytes());
        a.extend_from_slice(&item.to_le_bytes());
        a
    }

    #[test]
    fn tagged_records_print_in_work_item_order() {
        let formats = [
            PrintfFormat::parse("1:2:4:8:a%d\\n").unwrap(),
            PrintfFormat::parse("2:2:4:8:b%d\\n").unwrap(),
        ];
        // Reservation order: group 1 before group 0, item 3 before item 1,
        // and item 1's two calls (a then b) interleaved with others.
        let records = [
            (1, tagged(10, 1, 0)),
            (1, tagged(3, 0, 3)),
            (1, tagged(1, 0, 1)),
            (1, tagged(11, 1, 1)),
            (2, tagged(2, 0, 1)),
        ];
        let out = decode("k", &buffer(256, None, &records, 0), &formats, true);
        assert_eq!(out.text, "a1\nb2\na3\na10\na11\n");
        assert_eq!((out.records, out.lost, out.full), (5, Some(0), false));
        assert!(out.overflow_message(256).is_none());
        // Untagged (clang): reservation order, the tag read as an ignored
        // argument.
        let out = decode("k", &buffer(256, None, &records, 0), &formats, false);
        assert_eq!(out.text, "a10\na3\na1\na11\nb2\n");
    }

    #[test]
    fn overflow_is_counted_or_reported() {
        let formats = [PrintfFormat::parse("1:2:4:8:%d\\n").unwrap()];
        let records = [(1, tagged(1, 0, 0)), (1, tagged(2, 0, 1))];
        // gpusim's atomic add ran past the end: `used` exceeds the capacity
        // and 7 records were counted as lost.
        let b = buffer(8 + 32, Some(16 * 9), &records, 7);
        let out = decode("k", &b, &formats, true);
        assert_eq!(out.text, "1\n2\n");
        assert_eq!(out.lost, Some(7));
        let msg = out.overflow_message(40).unwrap();
        assert!(
            msg.contains("7 printf record(s) lost") && msg.contains("40 bytes"),
            "{msg}"
        );
        // clang's CAS stops short of the end: full, no count.
        let b = buffer(8 + 40, None, &records, 0);
        let out = decode("k", &b, &formats, false);
        assert!(out.full && out.lost.is_none());
        assert!(out.overflow_message(48).unwrap().contains("does not count"));
    }

    #[test]
    fn corrupt_buffers_are_reported() {
        let formats = [PrintfFormat::parse("1:1:4:%d\\n").unwrap()];
        let records = [(1, 5i32.to_le_bytes().to_vec()), (9, vec![0; 4])];
        let out = decode("k", &buffer(64, None, &records, 0), &formats, false);
        assert_eq!(out.text, "5\n");
        assert!(out.errors[0].contains("ID 9"), "{:?}", out.errors);
        // `used` claims half a record.
        let out = decode("k", &buffer(64, Some(6), &records[..1], 0), &formats, false);
        assert!(out.errors[0].contains("runs past"), "{:?}", out.errors);
        // A format with too few arguments prints the problem, not a panic.
        let bad = [PrintfFormat::parse("1:0:%d %s\\n").unwrap()];
        let out = decode("k", &buffer(64, Some(4), &[(1, vec![])], 0), &bad, false);
        assert!(
            out.errors[0].contains("missing argument"),
            "{:?}",
            out.errors
        );
    }
}
