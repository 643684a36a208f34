//! The text of one VCD sample, formatted with fixed-size stores: every piece
//! (8 binary digits, an identifier code with its line end) is written as a
//! whole 8- or 16-byte word into a buffer kept larger than the text, and the
//! write position then advances by the piece's real length. This avoids the
//! capacity checks and variable-length copies of `Vec::extend_from_slice`,
//! which cost more than the digits themselves.

/// Bytes a buffer keeps beyond the text's end so that a whole-word store at
/// the end position stays in bounds.
const SLACK: usize = 32;

/// Largest text of one value change: `b`, 64 digits per word, the space, the
/// identifier suffix.
pub(crate) fn max_change_len(words: usize) -> usize {
    1 + 64 * words + Suffix::CAP
}

/// An identifier code with what follows it, ready to store in one go: `id\n`
/// after a scalar's digit, ` id\n` after a vector's digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Suffix {
    bytes: [u8; Suffix::CAP],
    len: u8,
}

impl Suffix {
    /// Room for a space, a 7-character identifier and the line end.
    pub(crate) const CAP: usize = 16;

    /// No text (a signal that is not written).
    pub(crate) const EMPTY: Suffix = Suffix {
        bytes: [0; Suffix::CAP],
        len: 0,
    };

    /// The suffix of identifier `id` (at most 7 bytes), after a vector value
    /// (`vector`: led by a space) or a scalar.
    pub(crate) fn new(id: &[u8], vector: bool) -> Suffix {
        let mut bytes = [0u8; Suffix::CAP];
        let mut n = 0;
        if vector {
            bytes[0] = b' ';
            n = 1;
        }
        let id = &id[..id.len().min(Suffix::CAP - 2)];
        bytes[n..n + id.len()].copy_from_slice(id);
        n += id.len();
        bytes[n] = b'\n';
        Suffix {
            bytes,
            len: (n + 1) as u8,
        }
    }
}

/// ASCII `0`/`1` for each byte value, most significant bit first, as the
/// little-endian word whose bytes are those characters.
static DIGITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut k = 0;
        let mut w = 0u64;
        while k < 8 {
            let c = b'0' as u64 + ((v as u64 >> (7 - k)) & 1);
            w |= c << (8 * k);
            k += 1;
        }
        t[v] = w;
        v += 1;
    }
    t
};

/// A reusable text buffer written by whole words.
#[derive(Debug, Default)]
pub(crate) struct Line {
    buf: Vec<u8>,
    pos: usize,
}

impl Line {
    /// Empties the text and makes room for `bytes` more.
    pub(crate) fn clear(&mut self, bytes: usize) {
        self.pos = 0;
        self.reserve(bytes);
    }

    /// Makes room for `bytes` more after the text.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        let need = self.pos + bytes + SLACK;
        if self.buf.len() < need {
            self.buf.resize(need.next_power_of_two(), 0);
        }
    }

    /// The text so far.
    pub(crate) fn text(&self) -> &[u8] {
        &self.buf[..self.pos]
    }

    /// True when no text has been written since the last `clear`.
    pub(crate) fn is_empty(&self) -> bool {
        self.pos == 0
    }

    /// Stores 8 bytes at the end and keeps the first `len` of them.
    #[inline(always)]
    fn word(&mut self, w: u64, len: usize) {
        self.buf[self.pos..self.pos + 8].copy_from_slice(&w.to_le_bytes());
        self.pos += len;
    }

    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.buf[self.pos] = b;
        self.pos += 1;
    }

    #[inline(always)]
    fn suffix(&mut self, s: &Suffix) {
        self.buf[self.pos..self.pos + Suffix::CAP].copy_from_slice(&s.bytes);
        self.pos += usize::from(s.len);
    }

    /// `#cycle\n`.
    pub(crate) fn timestamp(&mut self, cycle: u64) {
        let mut digits = [0u8; 20];
        let d = decimal(cycle, &mut digits);
        self.reserve(d.len() + 2);
        self.byte(b'#');
        self.buf[self.pos..self.pos + d.len()].copy_from_slice(d);
        self.pos += d.len();
        self.byte(b'\n');
    }

    /// Literal text.
    pub(crate) fn text_bytes(&mut self, t: &[u8]) {
        self.reserve(t.len());
        self.buf[self.pos..self.pos + t.len()].copy_from_slice(t);
        self.pos += t.len();
    }

    /// The binary digits of `w`, `bits` of them (1 to 64), leading ones first.
    #[inline(always)]
    fn bits(&mut self, w: u64, bits: u32) {
        // The top group holds 1 to 8 digits; its table word is shifted so
        // that they come first.
        let top = (bits - 1) % 8 + 1;
        let mut k = bits - top;
        let row = DIGITS[(w >> k) as u8 as usize];
        self.word(row >> (8 * (8 - top)), top as usize);
        while k != 0 {
            k -= 8;
            self.word(DIGITS[(w >> k) as u8 as usize], 8);
        }
    }

    /// A value change: `1!` for a scalar (`width` 1), `b101 !` for a vector
    /// (leading zeros dropped, as the VCD standard allows: readers extend with
    /// zeros), given as little-endian words. The caller has reserved
    /// [`max_change_len`] bytes.
    #[inline]
    pub(crate) fn change(&mut self, width: u32, words: &[u64], suffix: &Suffix) {
        let Some(&low) = words.first() else {
            return;
        };
        if width == 1 {
            self.byte(b'0' + (low & 1) as u8);
        } else {
            self.byte(b'b');
            // Most significant non-zero word first; a zero value prints as `b0`.
            let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
            let w = words[top];
            self.bits(w, (64 - w.leading_zeros()).max(1));
            for &w in words[..top].iter().rev() {
                self.bits(w, 64);
            }
        }
        self.suffix(suffix);
    }
}

/// The decimal digits of `v`, written at the end of `buf` (a `u64` has at
/// most 20): the one formatter of timestamps, header numbers and names.
#[inline]
pub(crate) fn decimal(mut v: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut n = buf.len();
    loop {
        n -= 1;
        buf[n] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: `format!`'s binary digits.
    fn reference(width: u32, words: &[u64], id: &str) -> String {
        if width == 1 {
            return format!("{}{id}\n", words[0] & 1);
        }
        let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
        let mut s = format!("b{:b}", words[top]);
        for w in words[..top].iter().rev() {
            s.push_str(&format!("{w:064b}"));
        }
        format!("{s} {id}\n")
    }

    #[test]
    fn changes_match_format_for_every_length_and_identifier() {
        let mut line = Line::default();
        let ids = ["!", "a#", "~~~", "!!!!!!!"];
        let mut expected = String::new();
        line.clear(0);
        for (n, id) in ids.iter().enumerate() {
            for bits in 0..=64u32 {
                // Every digit count, with ones and zeros inside.
                let w = match bits {
                    0 => 0,
                    _ => {
                        let mask = u64::MAX >> (64 - bits);
                        let pattern = 0x5a5a_a5a5_0ff0_c3c3u64.rotate_left(n as u32);
                        pattern & mask | 1 << (bits - 1)
                    }
                };
                for (width, words) in [
                    (64, vec![w]),
                    (1, vec![w]),
                    (130, vec![7, w, 0]),
                    (130, vec![w, 0, 0]),
                ] {
                    line.reserve(max_change_len(words.len()));
                    line.change(width, &words, &Suffix::new(id.as_bytes(), width > 1));
                    expected.push_str(&reference(width, &words, id));
                }
            }
        }
        assert_eq!(std::str::from_utf8(line.text()).unwrap(), expected);
    }

    #[test]
    fn timestamps_and_text_follow_each_other() {
        let mut line = Line::default();
        line.clear(0);
        line.timestamp(0);
        line.text_bytes(b"$dumpvars\n");
        line.timestamp(u64::MAX);
        assert_eq!(
            line.text(),
            format!("#0\n$dumpvars\n#{}\n", u64::MAX).as_bytes()
        );
        line.clear(0);
        assert!(line.is_empty());
        line.timestamp(1234);
        assert_eq!(line.text(), b"#1234\n");
    }
}
