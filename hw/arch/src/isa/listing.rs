//! Disassembly listings in exactly `llvm-objdump -d`'s layout, so users can
//! diff our output against LLVM's with no filtering.

use std::fmt::Write as _;

use super::{decode, DecodeError, Instruction, Target};

/// A label in the code: a function or kernel symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Symbol name.
    pub name: String,
    /// Virtual address.
    pub address: u64,
}

/// Column at which llvm-objdump starts the `// address: words` comment (the
/// leading tab counts as one column).
const COMMENT_COLUMN: usize = 60;

/// Writes the listing of one code section: for each label in `labels` (any
/// order) a `<name>:` header and the instructions up to the next label.
/// `labels` outside the section are ignored. The file header lines are written
/// by [`file_header`].
pub fn section_listing(
    target: Target,
    section_address: u64,
    bytes: &[u8],
    labels: &[Label],
    out: &mut String,
) -> Result<(), DecodeError> {
    let end = section_address + bytes.len() as u64;
    let mut labels: Vec<&Label> = labels
        .iter()
        .filter(|l| (section_address..end).contains(&l.address))
        .collect();
    labels.sort_by(|a, b| a.address.cmp(&b.address).then(a.name.cmp(&b.name)));
    labels.dedup_by_key(|l| l.address);
    let mut at = labels
        .first()
        .map_or(0, |l| (l.address - section_address) as usize);
    let mut next_label = 0;
    while at < bytes.len() {
        let address = section_address + at as u64;
        if next_label < labels.len() && labels[next_label].address <= address {
            let _ = write!(out, "\n{:016x} <{}>:\n", address, labels[next_label].name);
            next_label += 1;
        }
        // llvm-objdump disassembles symbol by symbol: a zero run never crosses
        // into the next label's code.
        let region_end = labels
            .get(next_label)
            .map_or(bytes.len(), |l| (l.address - section_address) as usize);
        let skip = skippable_zeros(&bytes[at..region_end]);
        if skip > 0 {
            out.push_str("\t\t...\n");
            at += skip;
            continue;
        }
        match decode(target, &bytes[at..]) {
            Ok(inst) => {
                let size = usize::from(inst.size);
                write_line(&inst, address, &bytes[at..at + size], &labels, out);
                at += size;
            }
            // What LLVM cannot decode either it prints as one data dword and
            // moves on; an encoding LLVM knows and we do not model stops the
            // listing, since its text would not be LLVM's.
            Err(e) if e.is_invalid() && bytes.len() - at >= 4 => {
                let word =
                    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
                write_data_line(word, address, out);
                at += 4;
            }
            Err(e) => return Err(e.at(at)),
        }
    }
    Ok(())
}

/// Zero bytes at the start of `bytes` that llvm-objdump replaces by `...`: none
/// unless there are at least 8, and then a multiple of 4 (so an instruction
/// that starts with a zero byte is not cut).
fn skippable_zeros(bytes: &[u8]) -> usize {
    let zeros = bytes.iter().take_while(|&&b| b == 0).count();
    if zeros < 8 {
        0
    } else {
        zeros & !3
    }
}

/// Writes llvm-objdump's line for an undecodable dword: `.long 0x…` and the
/// usual address and word comment.
fn write_data_line(word: u32, address: u64, out: &mut String) {
    let start = out.len();
    let _ = write!(out, "\t.long {word:#010x}");
    pad_to_comment(out, start);
    let _ = writeln!(out, "// {address:012X}: {word:08X}");
}

/// Pads the line started at `start` to the comment column.
fn pad_to_comment(out: &mut String, start: usize) {
    let width = out.len() - start;
    for _ in width..COMMENT_COLUMN {
        out.push(' ');
    }
}

/// The lines llvm-objdump prints before the first section.
pub fn file_header(file_name: &str, out: &mut String) {
    let _ = write!(
        out,
        "\n{file_name}:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n"
    );
}

/// Writes one instruction line: text, address, words and a branch-target comment.
fn write_line(inst: &Instruction, address: u64, bytes: &[u8], labels: &[&Label], out: &mut String) {
    let start = out.len();
    let _ = write!(out, "\t{inst}");
    pad_to_comment(out, start);
    let _ = write!(out, "// {address:012X}:");
    for word in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..word.len()].copy_from_slice(word);
        let _ = write!(out, " {:08X}", u32::from_le_bytes(w));
    }
    if let Some(target) = inst.branch_target(address) {
        // llvm-objdump names the target relative to the closest label at or before it.
        if let Some(label) = labels.iter().rev().find(|l| l.address <= target) {
            let offset = target - label.address;
            if offset == 0 {
                let _ = write!(out, " <{}>", label.name);
            } else {
                let _ = write!(out, " <{}+0x{offset:x}>", label.name);
            }
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::DecodeError;

    fn listing(words: &[u32]) -> Result<String, DecodeError> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let labels = [Label {
            name: "k".into(),
            address: 0x1600,
        }];
        let mut out = String::new();
        section_listing(Target::GFX1030_W32, 0x1600, &bytes, &labels, &mut out).map(|()| out)
    }

    /// Lines as llvm-objdump-19 -d printed them for the same words in a
    /// gfx1030 code object.
    #[test]
    fn undecodable_words_and_zero_runs_as_llvm_objdump_prints_them() {
        const NOP: u32 = 0xBF80_0000;
        let out = listing(&[NOP, 1, 0, 0, NOP, 0, 0, 0, NOP, 0xD000_0000, 0, 0]).unwrap();
        let expected = "\n0000000000001600 <k>:\n\
            \ts_nop 0                                                    // 000000001600: BF800000\n\
            \t.long 0x00000001                                           // 000000001604: 00000001\n\
            \t\t...\n\
            \ts_nop 0                                                    // 000000001610: BF800000\n\
            \t\t...\n\
            \ts_nop 0                                                    // 000000001620: BF800000\n\
            \t.long 0xd0000000                                           // 000000001624: D0000000\n\
            \t\t...\n";
        assert_eq!(out, expected);
        // Fewer than 8 zero bytes are decoded: on gfx1030 the zero word is `v_illegal`.
        let out = listing(&[NOP, 0, NOP]).unwrap();
        assert!(
            out.contains("\tv_illegal                                                  // 000000001604: 00000000\n"),
            "{out}"
        );
    }

    #[test]
    fn an_unmodelled_real_encoding_stops_the_listing_with_its_offset() {
        // image_load v0, v0, s[0:7] dim:SQ_RSRC_IMG_1D (MIMG) after one s_nop.
        let e = listing(&[0xBF80_0000, 0xF000_0000, 0]).unwrap_err();
        assert!(
            matches!(e, DecodeError::Unimplemented { offset: 4, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("MIMG"), "{e}");
    }
}
