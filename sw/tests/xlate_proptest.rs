//! Issue 9's property test: random legacy gfx803 programs — straight-line
//! SALU/VALU with carries through VCC, SCC and SGPR pairs, divergent branches
//! with EXEC manipulation, counted loops, uniform branches, LDS, global (FLAT)
//! loads/stores and atomics — run natively on the gfx803 golden GPU and,
//! translated at dispatch, on the gfx1030 golden GPU. The final registers
//! (stored to memory by a fixed epilogue: v1..v8, s4..s9, VCC, s[12:13],
//! s[16:17], SCC) and all memory must be identical.
//!
//! Programs are generated as an instruction tree (`Block`s of `Op`s), so a
//! failure shrinks to a minimal program, which is printed. Cases:
//! `PROPTEST_CASES` (default 96). A failing program found this way is kept
//! below as a named regression test.

mod xlate_support;

use proptest::prelude::*;
use xlate_support::{compare, resolve_labels, Shape, LANES};

/// Dwords per lane: 24 written by the epilogue, 2 the program's own memory
/// words (dwords 24 and 25), the rest untouched.
const SLOT_DWORDS: u32 = 32;
/// Dwords after the lane slots that every lane updates atomically.
const SHARED_DWORDS: u32 = 16;
/// LDS: one word per lane, then 16 shared words.
const LDS_BYTES: u32 = 4 * LANES + 4 * SHARED_DWORDS;

/// `out` = s[2:3]; v[10:11] = the lane's slot; v[18:19] and v[44:45] its
/// two own memory words; v[14:15] the shared dwords; s[18:19] the same for
/// SMEM; v9 the lane's LDS word, v16 its neighbour's, v17 the shared LDS
/// words; M0 = -1 (gfx8 LDS clamps to M0).
const PROLOGUE: &str = "
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_lshlrev_b32_e32 v10, 7, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32_e32 v11, s3
    v_add_u32_e32 v10, vcc, s2, v10
    v_addc_u32_e32 v11, vcc, 0, v11, vcc
    v_add_u32_e32 v18, vcc, 96, v10
    v_addc_u32_e32 v19, vcc, 0, v11, vcc
    v_add_u32_e32 v44, vcc, 100, v10
    v_addc_u32_e32 v45, vcc, 0, v11, vcc
    s_add_u32 s18, s2, 0x2000
    s_addc_u32 s19, s3, 0
    v_mov_b32_e32 v14, s18
    v_mov_b32_e32 v15, s19
    v_lshlrev_b32_e32 v9, 2, v0
    v_xor_b32_e32 v16, 4, v9
    v_lshlrev_b32_e32 v17, 26, v0
    s_mov_b32 m0, -1
";

/// Captures SCC, copies the observed registers to v[20:43] and stores them
/// in the lane's slot.
const EPILOGUE: &str = "
    s_cselect_b32 s40, 1, 0
    v_mov_b32_e32 v20, v1
    v_mov_b32_e32 v21, v2
    v_mov_b32_e32 v22, v3
    v_mov_b32_e32 v23, v4
    v_mov_b32_e32 v24, v5
    v_mov_b32_e32 v25, v6
    v_mov_b32_e32 v26, v7
    v_mov_b32_e32 v27, v8
    v_mov_b32_e32 v28, s4
    v_mov_b32_e32 v29, s5
    v_mov_b32_e32 v30, s6
    v_mov_b32_e32 v31, s7
    v_mov_b32_e32 v32, s8
    v_mov_b32_e32 v33, s9
    v_mov_b32_e32 v34, vcc_lo
    v_mov_b32_e32 v35, vcc_hi
    v_mov_b32_e32 v36, s12
    v_mov_b32_e32 v37, s13
    v_mov_b32_e32 v38, s16
    v_mov_b32_e32 v39, s17
    v_mov_b32_e32 v40, s40
    v_mov_b32_e32 v41, 0
    v_mov_b32_e32 v42, 0
    v_mov_b32_e32 v43, 0
    flat_store_dwordx4 v[10:11], v[20:23]
    v_add_u32_e64 v12, s[36:37], 16, v10
    v_addc_u32_e64 v13, s[36:37], 0, v11, s[36:37]
    flat_store_dwordx4 v[12:13], v[24:27]
    v_add_u32_e64 v12, s[36:37], 16, v12
    v_addc_u32_e64 v13, s[36:37], 0, v13, s[36:37]
    flat_store_dwordx4 v[12:13], v[28:31]
    v_add_u32_e64 v12, s[36:37], 16, v12
    v_addc_u32_e64 v13, s[36:37], 0, v13, s[36:37]
    flat_store_dwordx4 v[12:13], v[32:35]
    v_add_u32_e64 v12, s[36:37], 16, v12
    v_addc_u32_e64 v13, s[36:37], 0, v13, s[36:37]
    flat_store_dwordx4 v[12:13], v[36:39]
    v_add_u32_e64 v12, s[36:37], 16, v12
    v_addc_u32_e64 v13, s[36:37], 0, v13, s[36:37]
    flat_store_dwordx4 v[12:13], v[40:43]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm
";

/// One instruction (or a short fixed group: a memory access with its wait).
/// Register fields are indices: VGPRs v1..v8, SGPRs s4..s9.
#[derive(Clone, Debug)]
enum Op {
    /// A VALU instruction of kind `k` (see [`valu`]) on vD, vA, vB, vC.
    Valu { k: u8, d: u8, a: u8, b: u8, c: u8 },
    /// A SALU instruction of kind `k` (see [`salu`]) with an immediate.
    Salu {
        k: u8,
        d: u8,
        a: u8,
        b: u8,
        imm: u32,
    },
    /// A memory group of kind `k` (see [`mem`]); `w` picks a shared word.
    Mem { k: u8, a: u8, b: u8, w: u8 },
}

/// Straight-line code or a control structure around nested blocks.
#[derive(Clone, Debug)]
enum Block {
    Straight(Vec<Op>),
    /// `v_cmp` (kind `cmp`) of vA, vB → `s_and_saveexec_b64` →
    /// `s_cbranch_execz` over the body → `s_or_b64 exec`.
    Divergent {
        cmp: u8,
        a: u8,
        b: u8,
        body: Vec<Block>,
    },
    /// A scalar counted loop of 1..=3 trips.
    Loop {
        trips: u8,
        body: Vec<Block>,
    },
    /// `s_cmp_lt_u32 sA, sB` ; `s_cbranch_scc1` over the body (uniform).
    Uniform {
        a: u8,
        b: u8,
        body: Vec<Op>,
    },
}

/// Number of kinds of each op family (the strategies draw below these).
const VALU_KINDS: u8 = 32;
const SALU_KINDS: u8 = 16;
const MEM_KINDS: u8 = 14;

fn v(i: u8) -> String {
    format!("v{}", 1 + i % 8)
}

fn s(i: u8) -> String {
    format!("s{}", 4 + i % 6)
}

/// A VGPR pair v[i:i+1] inside v1..v8.
fn vpair(i: u8) -> String {
    let lo = 1 + i % 7;
    format!("v[{lo}:{}]", lo + 1)
}

/// The VALU instruction of kind `k`. `divergent`: inside a divergent
/// section, where a `v_cmpx` may change EXEC (the section end restores it).
fn valu(k: u8, d: u8, a: u8, b: u8, c: u8, divergent: bool) -> String {
    let (d, va, vb, vc, sa) = (v(d), v(a), v(b), v(c), s(a));
    match k {
        0 => format!("v_add_u32_e32 {d}, vcc, {va}, {vb}"),
        1 => format!("v_addc_u32_e32 {d}, vcc, {va}, {vb}, vcc"),
        2 => format!("v_sub_u32_e32 {d}, vcc, {sa}, {vb}"),
        3 => format!("v_subb_u32_e32 {d}, vcc, {va}, {vb}, vcc"),
        4 => format!("v_subrev_u32_e64 {d}, s[12:13], {va}, {vb}"),
        5 => format!("v_subbrev_u32_e64 {d}, vcc, {va}, {vb}, s[12:13]"),
        6 => format!("v_addc_u32_e64 {d}, s[12:13], {va}, {vb}, s[12:13]"),
        7 => format!("v_mac_f32_e32 {d}, {va}, {vb}"),
        8 => format!("v_mad_f32 {d}, {va}, -{vb}, {vc}"),
        9 => format!("v_madmk_f32 {d}, {va}, 0x40490fdb, {vb}"),
        10 => format!("v_mad_legacy_f32 {d}, {va}, {vb}, {vc}"),
        11 => format!("v_cmp_gt_u32_e32 vcc, {va}, {vb}"),
        12 => format!("v_cmp_lt_i32_e64 s[12:13], {va}, {vb}"),
        13 => format!("v_cndmask_b32_e32 {d}, {va}, {vb}, vcc"),
        14 => format!("v_cndmask_b32_e64 {d}, {va}, {vb}, s[12:13]"),
        15 => format!("v_xor_b32_e32 {d}, {sa}, {vb}"),
        16 => format!("v_mul_lo_u32 {d}, {va}, {vb}"),
        17 => format!("v_mul_hi_u32 {d}, {va}, {vb}"),
        18 => format!("v_lshlrev_b32_e32 {d}, {va}, {vb}"),
        19 => format!("v_bfe_u32 {d}, {va}, {vb}, {vc}"),
        20 => format!("v_mad_u32_u24 {d}, {va}, {vb}, {vc}"),
        21 => format!("v_add_f32_e32 {d}, {va}, {vb}"),
        22 => format!("v_mul_f32_e32 {d}, {va}, {vb}"),
        23 if divergent => format!("v_cmpx_lt_u32_e64 s[16:17], {va}, {vb}"),
        23 => format!("v_cmp_lt_u32_e64 s[16:17], {va}, {vb}"),
        24 => format!("v_add_u16_e32 {d}, {va}, {vb}"),
        25 => format!("v_readfirstlane_b32 {sa}, {vb}"),
        26 => format!("v_alignbit_b32 {d}, {va}, {vb}, {vc}"),
        27 => format!("v_max_i32_e32 {d}, {va}, {vb}"),
        28 => format!("v_mbcnt_lo_u32_b32 {d}, {sa}, {vb}"),
        29 => format!("v_cvt_f32_u32_e32 {d}, {va}"),
        30 => format!("v_mac_f16_e32 {d}, {va}, {vb}"),
        _ => format!("v_cmp_eq_u32_e32 vcc, {sa}, {vb}\nv_cndmask_b32_e32 {d}, {va}, {vc}, vcc"),
    }
}

/// The SALU instruction of kind `k`.
fn salu(k: u8, d: u8, a: u8, b: u8, imm: u32) -> String {
    let (d, a, b) = (s(d), s(a), s(b));
    match k {
        0 => format!("s_add_u32 {d}, {a}, {b}"),
        1 => format!("s_addc_u32 {d}, {a}, 0x{imm:x}"),
        2 => format!("s_sub_u32 {d}, {a}, {b}"),
        3 => format!("s_subb_u32 {d}, {a}, {b}"),
        4 => format!("s_cmp_lt_u32 {a}, {b}"),
        5 => format!("s_cselect_b32 {d}, {a}, {b}"),
        6 => format!("s_and_b32 {d}, {a}, {b}"),
        7 => format!("s_lshl_b32 {d}, {a}, {}", imm % 32),
        8 => format!("s_mul_i32 {d}, {a}, {b}"),
        9 => format!("s_cmp_eq_u32 {a}, 0x{imm:x}"),
        10 => format!("s_bfe_u32 {d}, {a}, 0x{:x}", imm & 0x7f_001f),
        11 => format!("s_min_i32 {d}, {a}, {b}"),
        12 => format!("s_movk_i32 {d}, 0x{:x}", imm & 0xffff),
        13 => format!("s_add_i32 {d}, {a}, {b}"),
        14 => format!("s_xor_b32 {d}, {a}, {b}"),
        _ => format!("s_cmpk_gt_u32 {a}, 0x{:x}", imm & 0xffff),
    }
}

/// The memory group of kind `k`: own-slot accesses (v[18:19], v[44:45]),
/// order-independent atomics on shared word `w` (every lane), LDS (own
/// word, the neighbour's, shared words), SMEM of a shared word. Each group
/// waits before its results are used, as gfx8 code must.
fn mem(k: u8, a: u8, b: u8, w: u8) -> String {
    let (va, vb) = (v(a), v(b));
    let w = u32::from(w) % SHARED_DWORDS * 4;
    let shared_addr = format!(
        "v_add_u32_e64 v12, s[36:37], {w}, v14\nv_addc_u32_e64 v13, s[36:37], 0, v15, s[36:37]"
    );
    const COMMUTATIVE: [&str; 8] = ["add", "sub", "and", "or", "xor", "smin", "umax", "inc"];
    const OWN: [&str; 10] = [
        "add", "sub", "smax", "umin", "and", "or", "xor", "swap", "inc", "dec",
    ];
    match k {
        0 => format!("flat_store_dword v[18:19], {va}\nflat_load_dword {vb}, v[18:19]\ns_waitcnt vmcnt(0) lgkmcnt(0)"),
        1 => format!(
            "flat_atomic_{} {vb}, v[18:19], {va} glc\ns_waitcnt vmcnt(0) lgkmcnt(0)",
            OWN[usize::from(a + b) % OWN.len()]
        ),
        2 => format!(
            "{shared_addr}\nflat_atomic_{} v[12:13], {va}",
            COMMUTATIVE[usize::from(a + b) % COMMUTATIVE.len()]
        ),
        3 => format!("flat_atomic_cmpswap {vb}, v[18:19], {} glc\ns_waitcnt vmcnt(0) lgkmcnt(0)", vpair(a)),
        4 => format!("s_waitcnt vmcnt(0) lgkmcnt(0)\n{shared_addr}\nflat_load_dword {vb}, v[12:13]\ns_waitcnt vmcnt(0) lgkmcnt(0)"),
        // A partial wait: the load is older than the store, so vmcnt(1)
        // covers it (gfx1030: vmcnt(0) and vscnt(1)).
        5 => format!("flat_load_dword {vb}, v[44:45]\nflat_store_dword v[18:19], {va}\ns_waitcnt vmcnt(1)\nv_xor_b32_e32 {va}, {va}, {vb}"),
        6 => format!("flat_store_dwordx2 v[18:19], {}\ns_waitcnt vmcnt(0)\nflat_load_dword {vb}, v[44:45]\ns_waitcnt vmcnt(0) lgkmcnt(0)", vpair(a)),
        7 => format!("ds_write_b32 v9, {va}\nds_read_b32 {vb}, v16\ns_waitcnt lgkmcnt(0)"),
        8 => format!("ds_add_u32 v9, {va}\nds_read_b32 {vb}, v9\ns_waitcnt lgkmcnt(0)"),
        9 => format!("v_mov_b32_e32 v17, 0x100\nds_max_u32 v17, {va} offset:{w}\nds_read_b32 {vb}, v17 offset:{w}\ns_waitcnt lgkmcnt(0)"),
        10 => format!("ds_add_rtn_u32 {vb}, v9, {va}\ns_waitcnt lgkmcnt(0)"),
        11 => format!("ds_read2_b32 {}, v16 offset1:1\ns_waitcnt lgkmcnt(0)", vpair(b)),
        12 => format!("s_waitcnt vmcnt(0) lgkmcnt(0)\ns_load_dword {}, s[18:19], 0x{w:x}\ns_waitcnt lgkmcnt(0)", s(b)),
        _ => format!("flat_load_dwordx2 {}, v[18:19]\ns_waitcnt vmcnt(0) lgkmcnt(0)", vpair(b)),
    }
}

fn op() -> impl Strategy<Value = Op> {
    let r = || 0u8..8;
    prop_oneof![
        4 => (0..VALU_KINDS, r(), r(), r(), r()).prop_map(|(k, d, a, b, c)| Op::Valu { k, d, a, b, c }),
        2 => (0..SALU_KINDS, r(), r(), r(), any::<u32>()).prop_map(|(k, d, a, b, imm)| Op::Salu { k, d, a, b, imm }),
        2 => (0..MEM_KINDS, r(), r(), 0u8..16).prop_map(|(k, a, b, w)| Op::Mem { k, a, b, w }),
    ]
}

fn block() -> impl Strategy<Value = Block> {
    let leaf = prop_oneof![
        3 => prop::collection::vec(op(), 1..8).prop_map(Block::Straight),
        1 => (0u8..8, 0u8..8, prop::collection::vec(op(), 1..5))
            .prop_map(|(a, b, body)| Block::Uniform { a, b, body }),
    ];
    // Depth ≤ 3 keeps the saved-EXEC pairs and loop counters within budget.
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                0u8..4,
                0u8..8,
                0u8..8,
                prop::collection::vec(inner.clone(), 1..4)
            )
                .prop_map(|(cmp, a, b, body)| Block::Divergent { cmp, a, b, body }),
            (1u8..4, prop::collection::vec(inner, 1..3))
                .prop_map(|(trips, body)| Block::Loop { trips, body }),
        ]
    })
}

/// A whole program: initial v1..v8, s4..s9, s[12:13] and its blocks.
#[derive(Clone, Debug)]
struct Program {
    vgprs: Vec<u32>,
    sgprs: Vec<u32>,
    blocks: Vec<Block>,
    denorm_f32: bool,
}

/// Float specials and denormals are likely initial values.
fn value() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![
            0u32, 1, 0x8000_0001, 0x7f80_0000, 0x7fc0_0000, 0x3f80_0000, 0x0080_0000, 0xffff_ffff,
        ]),
    ]
}

fn program() -> impl Strategy<Value = Program> {
    (
        prop::collection::vec(value(), 8),
        prop::collection::vec(value(), 8),
        prop::collection::vec(block(), 1..5),
        any::<bool>(),
    )
        .prop_map(|(vgprs, sgprs, blocks, denorm_f32)| Program {
            vgprs,
            sgprs,
            blocks,
            denorm_f32,
        })
}

/// Labels and nesting state while rendering.
struct Render {
    text: String,
    labels: u32,
}

impl Render {
    fn label(&mut self) -> String {
        self.labels += 1;
        format!("L{}", self.labels)
    }

    fn ops(&mut self, ops: &[Op], divergent: bool) {
        for o in ops {
            let line = match *o {
                Op::Valu { k, d, a, b, c } => valu(k, d, a, b, c, divergent),
                Op::Salu { k, d, a, b, imm } => salu(k, d, a, b, imm),
                Op::Mem { k, a, b, w } => mem(k, a, b, w),
            };
            self.text += &line;
            self.text.push('\n');
        }
    }

    /// `depth` picks the saved-EXEC pair (s[24+2d:25+2d]) and loop counter
    /// (s32+d) so nested structures do not share them.
    fn blocks(&mut self, blocks: &[Block], depth: u32, divergent: bool) {
        for b in blocks {
            match b {
                Block::Straight(ops) => self.ops(ops, divergent),
                Block::Uniform { a, b, body } => {
                    let end = self.label();
                    self.text +=
                        &format!("s_cmp_lt_u32 {}, {}\ns_cbranch_scc1 @{end}\n", s(*a), s(*b));
                    self.ops(body, divergent);
                    self.text += &format!("{end}:\n");
                }
                Block::Divergent { cmp, a, b, body } => {
                    let end = self.label();
                    let cmp = ["gt_u32", "lt_i32", "ne_u32", "ge_u32"][*cmp as usize % 4];
                    let save = 24 + 2 * depth;
                    self.text += &format!(
                        "v_cmp_{cmp}_e32 vcc, {}, {}\ns_and_saveexec_b64 s[{save}:{}], vcc\ns_cbranch_execz @{end}\n",
                        v(*a),
                        v(*b),
                        save + 1
                    );
                    self.blocks(body, depth + 1, true);
                    self.text += &format!("{end}:\ns_or_b64 exec, exec, s[{save}:{}]\n", save + 1);
                }
                Block::Loop { trips, body } => {
                    let top = self.label();
                    let counter = 32 + depth;
                    self.text += &format!("s_mov_b32 s{counter}, {trips}\n{top}:\n");
                    self.blocks(body, depth + 1, divergent);
                    self.text += &format!(
                        "s_sub_u32 s{counter}, s{counter}, 1\ns_cmp_lg_u32 s{counter}, 0\ns_cbranch_scc1 @{top}\n"
                    );
                }
            }
        }
    }
}

/// The program's complete assembly text (labels resolved).
fn render(p: &Program) -> String {
    let mut r = Render {
        text: String::from(PROLOGUE),
        labels: 0,
    };
    for (i, bits) in p.vgprs.iter().enumerate() {
        let n = i + 1;
        // Lanes differ in low bits and, for even registers, sign/exponent.
        r.text += &format!("v_mov_b32_e32 v{n}, 0x{bits:x}\nv_xor_b32_e32 v{n}, v{n}, v0\n");
        if n % 2 == 0 {
            r.text += &format!("v_xor_b32_e32 v{n}, v{n}, v17\n");
        }
    }
    for (i, bits) in p.sgprs.iter().take(6).enumerate() {
        r.text += &format!("s_mov_b32 s{}, 0x{bits:x}\n", 4 + i);
    }
    r.text += &format!(
        "s_mov_b32 s12, 0x{:x}\ns_mov_b32 s13, 0x{:x}\ns_mov_b64 s[16:17], 0\nv_mov_b32_e32 v17, 0x100\n",
        p.sgprs[6], p.sgprs[7]
    );
    r.blocks(&p.blocks, 0, false);
    r.text += EPILOGUE;
    resolve_labels(&r.text)
}

fn shape(p: &Program) -> Shape {
    Shape {
        vgprs: 48,
        denorm_f32: if p.denorm_f32 { 3 } else { 0 },
        lds_bytes: LDS_BYTES,
        out_bytes: (LANES * SLOT_DWORDS + SHARED_DWORDS) * 4,
    }
}

/// Native and translated final state of `p`, or the difference and the
/// program.
fn check(p: &Program) -> Result<Vec<u32>, String> {
    let text = render(p);
    compare(&text, shape(p), SLOT_DWORDS).map_err(|e| format!("{e}\nprogram:\n{text}"))
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(96)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_legacy_programs_run_the_same_translated(p in program()) {
        if let Err(e) = check(&p) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Every op kind is reachable, assembles and runs the same translated.
#[test]
fn every_op_kind_in_every_context_runs_the_same_translated() {
    let out = check(&every_op_program()).unwrap_or_else(|e| panic!("{e}"));
    let shared = &out[(LANES * SLOT_DWORDS) as usize..];
    assert!(shared.iter().any(|&w| w != 0), "atomics reach shared words");
    // The registers differ between lanes (the program is not trivial).
    assert_ne!(
        out[..24],
        out[SLOT_DWORDS as usize..SLOT_DWORDS as usize + 24]
    );
}

/// One program with every op kind in each context (straight, divergent
/// inside a loop, uniform).
fn every_op_program() -> Program {
    let mut ops = Vec::new();
    for k in 0..VALU_KINDS {
        ops.push(Op::Valu {
            k,
            d: k,
            a: k + 1,
            b: k + 2,
            c: k + 3,
        });
    }
    for k in 0..SALU_KINDS {
        ops.push(Op::Salu {
            k,
            d: k,
            a: k + 1,
            b: k + 2,
            imm: 0x9e37_79b9u32.wrapping_mul(u32::from(k) + 1),
        });
    }
    for k in 0..MEM_KINDS {
        ops.push(Op::Mem {
            k,
            a: k,
            b: k + 3,
            w: k,
        });
    }
    Program {
        vgprs: (0..8).map(|i| 0x3f80_0000 ^ (i * 0x0101_0101)).collect(),
        sgprs: (0..8).map(|i| 0x8000_0000 | (i * 77)).collect(),
        blocks: vec![
            Block::Straight(ops.clone()),
            Block::Loop {
                trips: 2,
                body: vec![Block::Divergent {
                    cmp: 0,
                    a: 1,
                    b: 2,
                    body: vec![Block::Straight(ops.clone())],
                }],
            },
            Block::Uniform {
                a: 0,
                b: 1,
                body: ops,
            },
        ],
        denorm_f32: false,
    }
}

/// `docs/translation.md`'s expansion table names every gfx803 opcode the
/// property test's generator, the corpus kernels and the v2 fixtures reach.
#[test]
fn every_reached_opcode_is_in_the_expansion_table() {
    let documented = xlate_support::doc_names();
    let mut missing = std::collections::BTreeMap::<&str, &str>::new();
    let mut check = |code: &[u8], from: &'static str| {
        for name in xlate_support::opcode_names(code) {
            if !documented.contains(name) {
                missing.entry(name).or_insert(from);
            }
        }
    };
    // The generator: every op kind, every register combination of the
    // memory groups (they pick atomics by register), every divergent compare.
    let mut ops = Vec::new();
    for k in 0..VALU_KINDS {
        ops.push(Op::Valu {
            k,
            d: 0,
            a: 1,
            b: 2,
            c: 3,
        });
    }
    for k in 0..SALU_KINDS {
        ops.push(Op::Salu {
            k,
            d: 0,
            a: 1,
            b: 2,
            imm: 77,
        });
    }
    for k in 0..MEM_KINDS {
        for a in 0..8 {
            for b in 0..8 {
                ops.push(Op::Mem { k, a, b, w: 1 });
            }
        }
    }
    let mut blocks: Vec<Block> = (0..4)
        .map(|cmp| Block::Divergent {
            cmp,
            a: 1,
            b: 2,
            body: vec![Block::Straight(ops.clone())],
        })
        .collect();
    blocks.push(Block::Loop {
        trips: 2,
        body: vec![Block::Straight(ops.clone())],
    });
    blocks.push(Block::Uniform {
        a: 0,
        b: 1,
        body: ops,
    });
    let text = render(&Program {
        vgprs: vec![0; 8],
        sgprs: vec![0; 8],
        blocks,
        denorm_f32: false,
    });
    let code = arch::isa::assemble(arch::isa::Target::GFX803, &text).expect("assembles");
    check(&code, "property test");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut objects: Vec<(std::path::PathBuf, &'static str)> = Vec::new();
    for (dir, from) in [
        ("tests/kernels/prebuilt/gfx803", "corpus"),
        ("sw/tests/fixtures/v2", "v2 fixtures"),
    ] {
        let entries = std::fs::read_dir(format!("{root}/{dir}")).expect(dir);
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "hsaco" || x == "co") {
                objects.push((p, from));
            }
        }
    }
    assert!(objects.len() >= 30, "found {} code objects", objects.len());
    for (p, from) in objects {
        let bytes = std::fs::read(&p).expect("read");
        let object = arch::code_object::CodeObject::parse(&bytes).expect("parse");
        for k in object.kernels() {
            check(&k.code, from);
        }
    }
    assert!(
        missing.is_empty(),
        "gfx803 opcodes reached but not in docs/translation.md's expansion table: {missing:?}"
    );
}
