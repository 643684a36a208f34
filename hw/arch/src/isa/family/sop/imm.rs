//! The 16-bit immediates of SOPP and SOPK, which LLVM prints in many ways:
//! plain hex or decimal, `s_waitcnt` counters, `sendmsg(...)`, `hwreg(...)`,
//! `s_waitcnt_depctr` fields, `gpr_idx(...)` and `s_version` flags.
//!
//! Every printer here is checked exhaustively (all 65536 values) against
//! llvm-mc-19 by `tests/scalar_llvm.rs` when LLVM is installed.

use std::fmt::{self, Write};

use crate::isa::syntax::{parse_int, Token};
use crate::isa::{AsmError, Isa, Opcode};

/// How an opcode's 16-bit immediate is printed and parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImmKind {
    /// No immediate; the field must be zero.
    None,
    /// `s_endpgm`: printed in decimal only when non-zero.
    OptionalDec,
    /// Decimal for 0..=64, hex above (LLVM's inline-integer rule).
    Small,
    /// Always `0x...`.
    Hex,
    /// Unsigned decimal (branch and call offsets, as llvm-mc prints them).
    Dec,
    /// `vmcnt(..) expcnt(..) lgkmcnt(..)`.
    Waitcnt,
    /// `sendmsg(MSG_..., OP, stream)`.
    SendMsg,
    /// `hwreg(HW_REG_..., offset, size)`.
    Hwreg,
    /// `depctr_...(n)` fields of `s_waitcnt_depctr`.
    DepCtr,
    /// `gpr_idx(SRC0,...)` (gfx803 `s_set_gpr_idx_mode` / `s_set_gpr_idx_on`).
    GprIdx,
    /// `s_version` flags.
    Version,
}

/// The immediate kind of a SOPP/SOPK (or SOPC `s_set_gpr_idx_on`) opcode.
pub(crate) fn kind(opcode: Opcode) -> ImmKind {
    use Opcode::*;
    match opcode {
        S_ENDPGM => ImmKind::OptionalDec,
        S_NOP | S_SETKILL | S_SETHALT | S_SLEEP | S_SETPRIO | S_TRAP | S_INCPERFLEVEL
        | S_DECPERFLEVEL | S_DENORM_MODE => ImmKind::Small,
        S_INST_PREFETCH | S_CLAUSE | S_ROUND_MODE | S_TTRACEDATA_IMM => ImmKind::Hex,
        S_MOVK_I32 | S_CMOVK_I32 | S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32
        | S_CMPK_GE_I32 | S_CMPK_LT_I32 | S_CMPK_LE_I32 | S_CMPK_EQ_U32 | S_CMPK_LG_U32
        | S_CMPK_GT_U32 | S_CMPK_GE_U32 | S_CMPK_LT_U32 | S_CMPK_LE_U32 | S_ADDK_I32
        | S_MULK_I32 | S_WAITCNT_VSCNT | S_WAITCNT_VMCNT | S_WAITCNT_EXPCNT | S_WAITCNT_LGKMCNT => {
            ImmKind::Hex
        }
        S_BRANCH
        | S_CBRANCH_SCC0
        | S_CBRANCH_SCC1
        | S_CBRANCH_VCCZ
        | S_CBRANCH_VCCNZ
        | S_CBRANCH_EXECZ
        | S_CBRANCH_EXECNZ
        | S_CBRANCH_CDBGSYS
        | S_CBRANCH_CDBGUSER
        | S_CBRANCH_CDBGSYS_OR_USER
        | S_CBRANCH_CDBGSYS_AND_USER
        | S_CALL_B64
        | S_CBRANCH_I_FORK
        | S_SUBVECTOR_LOOP_BEGIN
        | S_SUBVECTOR_LOOP_END => ImmKind::Dec,
        S_WAITCNT => ImmKind::Waitcnt,
        S_SENDMSG | S_SENDMSGHALT => ImmKind::SendMsg,
        S_GETREG_B32 | S_SETREG_B32 | S_SETREG_IMM32_B32 => ImmKind::Hwreg,
        S_WAITCNT_DEPCTR => ImmKind::DepCtr,
        S_SET_GPR_IDX_MODE | S_SET_GPR_IDX_ON => ImmKind::GprIdx,
        S_VERSION => ImmKind::Version,
        _ => ImmKind::None,
    }
}

// ---------------------------------------------------------------- s_waitcnt

/// Bit layout of the `s_waitcnt` counters on one ISA.
struct WaitcntLayout {
    /// vmcnt low bits [3:0] plus, on gfx10, high bits [15:14].
    vm_hi: bool,
    /// lgkmcnt width in bits at [8+].
    lgkm_bits: u32,
}

fn waitcnt_layout(isa: Isa) -> WaitcntLayout {
    match isa {
        // GCN3: vmcnt [3:0], expcnt [6:4], lgkmcnt [11:8].
        Isa::Gfx803 => WaitcntLayout {
            vm_hi: false,
            lgkm_bits: 4,
        },
        // RDNA: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [13:8].
        Isa::Gfx1030 => WaitcntLayout {
            vm_hi: true,
            lgkm_bits: 6,
        },
    }
}

/// (vmcnt, expcnt, lgkmcnt) and their maxima.
fn waitcnt_fields(isa: Isa, imm: u16) -> ([u32; 3], [u32; 3]) {
    let l = waitcnt_layout(isa);
    let imm = u32::from(imm);
    let mut vm = imm & 0xf;
    let mut vm_max = 0xf;
    if l.vm_hi {
        vm |= ((imm >> 14) & 3) << 4;
        vm_max = 0x3f;
    }
    let lgkm_max = (1 << l.lgkm_bits) - 1;
    (
        [vm, (imm >> 4) & 7, (imm >> 8) & lgkm_max],
        [vm_max, 7, lgkm_max],
    )
}

fn encode_waitcnt(isa: Isa, vm: u32, exp: u32, lgkm: u32) -> u16 {
    let l = waitcnt_layout(isa);
    let mut v = (vm & 0xf) | ((exp & 7) << 4) | ((lgkm & ((1 << l.lgkm_bits) - 1)) << 8);
    if l.vm_hi {
        v |= ((vm >> 4) & 3) << 14;
    }
    v as u16
}

const WAITCNT_NAMES: [&str; 3] = ["vmcnt", "expcnt", "lgkmcnt"];

fn write_waitcnt(isa: Isa, imm: u16, out: &mut impl Write) -> fmt::Result {
    let (vals, max) = waitcnt_fields(isa, imm);
    // LLVM leaves out counters at their maximum (no wait) unless all are.
    let all = (0..3).all(|i| vals[i] == max[i]);
    let mut sep = "";
    for i in 0..3 {
        if vals[i] != max[i] || all {
            write!(out, "{sep}{}({})", WAITCNT_NAMES[i], vals[i])?;
            sep = " ";
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- sendmsg

const MSG_GS: u16 = 2;
const MSG_GS_DONE: u16 = 3;
const MSG_SYSMSG: u16 = 15;

fn msg_name(isa: Isa, id: u16) -> Option<&'static str> {
    let gfx10 = isa == Isa::Gfx1030;
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 => "MSG_SAVEWAVE",
        5 if gfx10 => "MSG_STALL_WAVE_GEN",
        6 if gfx10 => "MSG_HALT_WAVES",
        7 if gfx10 => "MSG_ORDERED_PS_DONE",
        8 if gfx10 => "MSG_EARLY_PRIM_DEALLOC",
        9 if gfx10 => "MSG_GS_ALLOC_REQ",
        10 if gfx10 => "MSG_GET_DOORBELL",
        11 if gfx10 => "MSG_GET_DDID",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

fn sysmsg_op_name(isa: Isa, op: u16) -> Option<&'static str> {
    Some(match op {
        1 => "SYSMSG_OP_ECC_ERR_INTERRUPT",
        2 => "SYSMSG_OP_REG_RD",
        3 if isa == Isa::Gfx803 => "SYSMSG_OP_HOST_TRAP_ACK",
        4 => "SYSMSG_OP_TTRACE_PC",
        _ => return None,
    })
}

const GS_OP_NAMES: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];

fn write_sendmsg(isa: Isa, imm: u16, out: &mut impl Write) -> fmt::Result {
    let id = imm & 0xf;
    let op = (imm >> 4) & 7;
    let stream = (imm >> 8) & 3;
    let is_gs = id == MSG_GS || id == MSG_GS_DONE;
    // The symbolic form ignores bits outside the three fields, as LLVM does.
    if let Some(name) = msg_name(isa, id) {
        if id == MSG_SYSMSG {
            if let Some(op_name) = sysmsg_op_name(isa, op) {
                if stream == 0 {
                    return write!(out, "sendmsg({name}, {op_name})");
                }
            }
        } else if is_gs {
            let op_ok = op < 4 && !(id == MSG_GS && op == 0);
            if op_ok && op == 0 && stream == 0 {
                return write!(out, "sendmsg({name}, {})", GS_OP_NAMES[0]);
            }
            if op_ok && op != 0 {
                return write!(
                    out,
                    "sendmsg({name}, {}, {stream})",
                    GS_OP_NAMES[usize::from(op)]
                );
            }
        } else if op == 0 && stream == 0 {
            return write!(out, "sendmsg({name})");
        }
    }
    if imm & !0x37f == 0 {
        write!(out, "sendmsg({id}, {op}, {stream})")
    } else {
        write!(out, "{imm}")
    }
}

// ---------------------------------------------------------------- hwreg

fn hwreg_name(isa: Isa, id: u16) -> Option<&'static str> {
    let gfx10 = isa == Isa::Gfx1030;
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        4 if !gfx10 => "HW_REG_HW_ID",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 if gfx10 => "HW_REG_SH_MEM_BASES",
        16 if gfx10 => "HW_REG_TBA_LO",
        17 if gfx10 => "HW_REG_TBA_HI",
        18 if gfx10 => "HW_REG_TMA_LO",
        19 if gfx10 => "HW_REG_TMA_HI",
        20 if gfx10 => "HW_REG_FLAT_SCR_LO",
        21 if gfx10 => "HW_REG_FLAT_SCR_HI",
        23 if gfx10 => "HW_REG_HW_ID1",
        24 if gfx10 => "HW_REG_HW_ID2",
        25 if gfx10 => "HW_REG_POPS_PACKER",
        29 if gfx10 => "HW_REG_SHADER_CYCLES",
        _ => return None,
    })
}

fn write_hwreg(isa: Isa, imm: u16, out: &mut impl Write) -> fmt::Result {
    let id = imm & 0x3f;
    let offset = (imm >> 6) & 0x1f;
    let size = ((imm >> 11) & 0x1f) + 1;
    out.write_str("hwreg(")?;
    match hwreg_name(isa, id) {
        Some(name) => out.write_str(name)?,
        None => write!(out, "{id}")?,
    }
    if offset != 0 || size != 32 {
        write!(out, ", {offset}, {size}")?;
    }
    out.write_char(')')
}

// ---------------------------------------------------------------- s_waitcnt_depctr

/// (name, shift, width) of the gfx1030 `s_waitcnt_depctr` fields in LLVM's print
/// order; every field's maximum is also its default (all ones = no wait).
const DEPCTR: [(&str, u32, u32); 7] = [
    ("depctr_hold_cnt", 7, 1),
    ("depctr_sa_sdst", 0, 1),
    ("depctr_va_vdst", 12, 4),
    ("depctr_va_sdst", 9, 3),
    ("depctr_va_ssrc", 8, 1),
    ("depctr_va_vcc", 1, 1),
    ("depctr_vm_vsrc", 2, 3),
];

fn depctr_mask() -> u16 {
    DEPCTR
        .iter()
        .fold(0, |m, &(_, s, w)| m | (((1u16 << w) - 1) << s))
}

fn write_depctr(imm: u16, out: &mut impl Write) -> fmt::Result {
    if imm & !depctr_mask() != 0 {
        return write!(out, "{imm:#x}");
    }
    let field = |s: u32, w: u32| (imm >> s) & ((1 << w) - 1);
    let any_non_default = DEPCTR.iter().any(|&(_, s, w)| field(s, w) != (1 << w) - 1);
    let mut sep = "";
    for &(name, s, w) in &DEPCTR {
        let v = field(s, w);
        if v != (1 << w) - 1 || !any_non_default {
            write!(out, "{sep}{name}({v})")?;
            sep = " ";
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- gpr_idx, s_version

const GPR_IDX_NAMES: [&str; 4] = ["SRC0", "SRC1", "SRC2", "DST"];

fn write_gpr_idx(imm: u16, out: &mut impl Write) -> fmt::Result {
    if imm & !0xf != 0 {
        return write!(out, "{imm:#x}");
    }
    out.write_str("gpr_idx(")?;
    let mut sep = "";
    for (i, name) in GPR_IDX_NAMES.iter().enumerate() {
        if imm & (1 << i) != 0 {
            write!(out, "{sep}{name}")?;
            sep = ",";
        }
    }
    out.write_char(')')
}

const VERSION_FLAGS: [(&str, u16); 3] = [
    ("UC_VERSION_W64_BIT", 0x2000),
    ("UC_VERSION_W32_BIT", 0x4000),
    ("UC_VERSION_MDP_BIT", 0x8000),
];

fn version_name(v: u16) -> Option<&'static str> {
    Some(match v {
        0 => "UC_VERSION_GFX7",
        4 => "UC_VERSION_GFX10",
        6 => "UC_VERSION_GFX11",
        9 => "UC_VERSION_GFX12",
        _ => return None,
    })
}

fn write_version(imm: u16, out: &mut impl Write) -> fmt::Result {
    if imm & 0x1f00 != 0 {
        return write!(out, "{imm:#x}");
    }
    // LLVM builds a left-nested `|` expression and parenthesises nested operands.
    let mut text = match version_name(imm & 0xff) {
        Some(n) => n.to_string(),
        None => (imm & 0xff).to_string(),
    };
    for (name, bit) in VERSION_FLAGS {
        if imm & bit != 0 {
            text = if text.contains('|') {
                format!("({text})|{name}")
            } else {
                format!("{text}|{name}")
            };
        }
    }
    out.write_str(&text)
}

/// Writes `imm` as LLVM prints an immediate of `kind` on `isa`.
pub(crate) fn write(kind: ImmKind, isa: Isa, imm: u16, out: &mut impl Write) -> fmt::Result {
    match kind {
        ImmKind::None => Ok(()),
        ImmKind::OptionalDec | ImmKind::Dec => write!(out, "{imm}"),
        ImmKind::Small if imm <= 64 => write!(out, "{imm}"),
        ImmKind::Small | ImmKind::Hex => write!(out, "{imm:#x}"),
        ImmKind::Waitcnt => write_waitcnt(isa, imm, out),
        ImmKind::SendMsg => write_sendmsg(isa, imm, out),
        ImmKind::Hwreg => write_hwreg(isa, imm, out),
        ImmKind::DepCtr => write_depctr(imm, out),
        ImmKind::GprIdx => write_gpr_idx(imm, out),
        ImmKind::Version => write_version(imm, out),
    }
}

// ---------------------------------------------------------------- parsing

/// Parses a plain 16-bit integer (`-1` is accepted as 0xffff, as llvm-mc does).
fn parse_u16(token: &Token<'_>, text: &str) -> Result<u16, AsmError> {
    match parse_int(text) {
        Some(v) if (-32768..=65535).contains(&v) => Ok(v as u16),
        Some(_) => Err(token.error(format!("immediate `{text}` does not fit in 16 bits"))),
        None => Err(token.error(format!("expected an integer, found `{text}`"))),
    }
}

/// Splits `name(args)` into `args`.
fn call_args<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.strip_prefix(name)?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')
}

/// Parses a symbolic name or integer with `lookup` from names to numbers.
fn name_or_int(
    token: &Token<'_>,
    text: &str,
    lookup: impl Fn(&str) -> Option<u16>,
) -> Result<u16, AsmError> {
    let text = text.trim();
    if let Some(v) = lookup(text) {
        return Ok(v);
    }
    parse_u16(token, text).map_err(|_| token.error(format!("unknown name `{text}`")))
}

fn parse_waitcnt(isa: Isa, tokens: &[Token<'_>]) -> Result<u16, AsmError> {
    let (_, max) = waitcnt_fields(isa, 0xffff);
    let mut vals = max;
    for token in tokens {
        // `vmcnt(0) & lgkmcnt(0)` and `vmcnt(0), lgkmcnt(0)` are both accepted by llvm-mc.
        if token.text == "&" {
            continue;
        }
        let Some((i, arg)) = WAITCNT_NAMES
            .iter()
            .enumerate()
            .find_map(|(i, n)| Some((i, call_args(token.text, n)?)))
        else {
            return Err(token.error(format!(
                "expected vmcnt(N), expcnt(N) or lgkmcnt(N), found `{}`",
                token.text
            )));
        };
        let v = parse_u16(token, arg)?;
        if u32::from(v) > max[i] {
            return Err(token.error(format!(
                "{} value {v} is out of range (max {})",
                WAITCNT_NAMES[i], max[i]
            )));
        }
        vals[i] = u32::from(v);
    }
    Ok(encode_waitcnt(isa, vals[0], vals[1], vals[2]))
}

fn parse_sendmsg(isa: Isa, token: &Token<'_>) -> Result<u16, AsmError> {
    let Some(args) = call_args(token.text, "sendmsg") else {
        return parse_u16(token, token.text);
    };
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(token.error("sendmsg takes 1 to 3 arguments"));
    }
    let id = name_or_int(token, parts[0], |n| {
        (0..16).find(|&i| msg_name(isa, i) == Some(n))
    })?;
    let op = match parts.get(1) {
        Some(p) => name_or_int(token, p, |n| {
            (0..8)
                .find(|&i| sysmsg_op_name(isa, i) == Some(n))
                .or_else(|| GS_OP_NAMES.iter().position(|&g| g == n).map(|i| i as u16))
        })?,
        None => 0,
    };
    let stream = match parts.get(2) {
        Some(p) => parse_u16(token, p)?,
        None => 0,
    };
    if id > 15 || op > 7 || stream > 3 {
        return Err(token.error("sendmsg field out of range"));
    }
    Ok(id | (op << 4) | (stream << 8))
}

fn parse_hwreg(isa: Isa, token: &Token<'_>) -> Result<u16, AsmError> {
    let Some(args) = call_args(token.text, "hwreg") else {
        return parse_u16(token, token.text);
    };
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    let id = name_or_int(token, parts[0], |n| {
        if isa == Isa::Gfx1030 && n == "HW_REG_HW_ID" {
            return Some(23); // LLVM's gfx10 alias of HW_REG_HW_ID1
        }
        (0..64).find(|&i| hwreg_name(isa, i) == Some(n))
    })?;
    let (offset, size) = match parts.len() {
        1 => (0, 32),
        3 => (parse_u16(token, parts[1])?, parse_u16(token, parts[2])?),
        _ => return Err(token.error("hwreg takes 1 or 3 arguments: hwreg(REG[, offset, size])")),
    };
    if id > 63 || offset > 31 || !(1..=32).contains(&size) {
        return Err(token.error("hwreg field out of range (id 0..63, offset 0..31, size 1..32)"));
    }
    Ok(id | (offset << 6) | ((size - 1) << 11))
}

fn parse_depctr(tokens: &[Token<'_>]) -> Result<u16, AsmError> {
    if let [token] = tokens {
        if let Some(v) = parse_int(token.text) {
            return parse_u16(token, &v.to_string());
        }
    }
    let mut imm = depctr_mask();
    for token in tokens {
        if token.text == "&" {
            continue;
        }
        let Some(&(name, s, w)) = DEPCTR
            .iter()
            .find(|(n, _, _)| call_args(token.text, n).is_some())
        else {
            return Err(token.error(format!("unknown depctr field `{}`", token.text)));
        };
        let v = parse_u16(token, call_args(token.text, name).unwrap_or_default())?;
        if v >= 1 << w {
            return Err(token.error(format!("{name} value {v} is out of range")));
        }
        imm = (imm & !(((1 << w) - 1) << s)) | (v << s);
    }
    Ok(imm)
}

fn parse_gpr_idx(token: &Token<'_>) -> Result<u16, AsmError> {
    let Some(args) = call_args(token.text, "gpr_idx") else {
        return parse_u16(token, token.text);
    };
    let mut imm = 0;
    for part in args.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some(i) = GPR_IDX_NAMES.iter().position(|&n| n == part) else {
            return Err(token.error(format!("unknown gpr_idx mode `{part}`")));
        };
        imm |= 1 << i;
    }
    Ok(imm)
}

fn parse_version(token: &Token<'_>) -> Result<u16, AsmError> {
    let mut imm = 0;
    for part in token
        .text
        .split('|')
        .map(|p| p.trim_matches(|c| c == '(' || c == ')' || c == ' '))
    {
        imm |= match VERSION_FLAGS.iter().find(|(n, _)| *n == part) {
            Some(&(_, bit)) => bit,
            None => name_or_int(token, part, |n| {
                (0..=0xff).find(|&v| version_name(v) == Some(n))
            })?,
        };
    }
    Ok(imm)
}

/// Parses the immediate of `kind` from `tokens` (all remaining tokens of the
/// operand: `s_waitcnt vmcnt(0) lgkmcnt(0)` spans several).
pub(crate) fn parse(kind: ImmKind, isa: Isa, tokens: &[Token<'_>]) -> Result<u16, AsmError> {
    let Some(first) = tokens.first() else {
        return Ok(match kind {
            ImmKind::Waitcnt => encode_waitcnt(isa, 0xff, 0xff, 0xff),
            _ => 0,
        });
    };
    let single = || {
        if tokens.len() > 1 {
            Err(tokens[1].error(format!("unexpected `{}`", tokens[1].text)))
        } else {
            Ok(first)
        }
    };
    match kind {
        ImmKind::Waitcnt => match parse_int(first.text) {
            Some(_) => parse_u16(single()?, first.text),
            None => parse_waitcnt(isa, tokens),
        },
        ImmKind::DepCtr => parse_depctr(tokens),
        ImmKind::SendMsg => parse_sendmsg(isa, single()?),
        ImmKind::Hwreg => parse_hwreg(isa, single()?),
        ImmKind::GprIdx => parse_gpr_idx(single()?),
        ImmKind::Version => parse_version(single()?),
        _ => parse_u16(single()?, first.text),
    }
}
