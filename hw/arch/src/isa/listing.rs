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
        let inst = decode(target, &bytes[at..]).map_err(|e| e.at(at))?;
        write_line(
            &inst,
            address,
            &bytes[at..at + usize::from(inst.size)],
            &labels,
            out,
        );
        at += usize::from(inst.size);
    }
    Ok(())
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
    let width = out.len() - start;
    for _ in width..COMMENT_COLUMN {
        out.push(' ');
    }
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
