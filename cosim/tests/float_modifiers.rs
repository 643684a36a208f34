//! Float input modifiers (`neg`, `abs`) on both GPU models, opcode by opcode.
//!
//! Which source bits are float sign modifiers is a property of the opcode and
//! its encoding in LLVM's tables (`arch::isa::family::float_input_modifiers`),
//! not of the operand's type: `v_cndmask_b32_e64` reads untyped bits and still
//! takes `-v36` — the form LLVM's own `cos` expansion emits. The golden GPU
//! once read such sources as plain bits and dropped the modifier (issue 14:
//! any kernel calling `cos` computed wrong results on the functional model).
//!
//! * `v_cndmask_with_a_negated_source_*`: the exact instruction of the
//!   report, with values checked lane by lane, on both models and both ISAs.
//! * `every_modifier_taking_source_*`: every row of the VOP1/VOP2/VOPC/VOP3
//!   tables, in every encoding that carries modifier bits (VOP3, SDWA, DPP16),
//!   for every source whose `neg` or `abs` LLVM accepts: running with the
//!   modifier must equal running without it on the input with its sign bit
//!   flipped (`neg`) or cleared (`abs`) — the definition of the modifier, true
//!   of every operation. A model that ignores a modifier fails it wherever
//!   the operation depends on the sign of that source, which the test also
//!   counts so it cannot pass vacuously.

use arch::isa::family::float_input_modifiers;
use arch::isa::tables::{tables, Field, OpInfo};
use arch::isa::{
    Family, Instruction, Isa, Modifiers, Opcode, Operand, OperandType, Target, Variant,
    MAX_OPERANDS,
};
use golden::testing::probe::Probe;
use hw::exec::{execute_isolated, ScalarState, Vgprs};

/// First VGPR of source `i` (room for a 64-bit pair each).
fn src_vgpr(i: usize) -> u16 {
    8 + 4 * i as u16
}

/// The SGPR pair holding a lane-mask source.
const MASK_SGPR: u16 = 20;

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A dword that is often a float of ordinary magnitude (either sign),
    /// sometimes a special, so that most operations depend on the sign.
    fn value(&mut self) -> u32 {
        const SPECIAL: [u32; 8] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x0000_0001,
            0x7fc0_0000,
            0x3c00_bc00,
        ];
        let r = self.next();
        match r % 8 {
            0 => SPECIAL[(r >> 8) as usize % 8],
            // f16 pairs of moderate magnitude (the low half is what 16-bit ops read).
            1 | 2 => {
                let h = |x: u64| (0x3000 + (x as u32 & 0x0fff)) | (((x >> 12) as u32 & 1) << 15);
                h(r >> 16) | h(r >> 32) << 16
            }
            // f32 in roughly [2^-8, 2^8), either sign.
            _ => (0x3b80_0000 + ((r >> 16) as u32 % 0x0800_0000)) | (((r >> 60) as u32 & 1) << 31),
        }
    }
}

/// One probe: an instruction and the source whose modifier is exercised.
struct Case {
    inst: Instruction,
    /// Source index (0..=2).
    src: usize,
    /// `true`: `neg`; `false`: `abs`.
    neg: bool,
    /// Sign bit of the source's element, within its dword (and dword 1 for 64-bit).
    wide: bool,
    half: bool,
}

fn operand(row: &OpInfo, field: Field, ty: OperandType, src: &mut usize) -> Operand {
    match field {
        Field::Vdst => Operand::vgpr(0, ty),
        Field::Sdst => Operand::scalar(4, ty),
        Field::Vcc => Operand::scalar(106, ty),
        Field::K => Operand::Literal {
            value: 0x3fc0_0000,
            ty,
        },
        Field::Src0 | Field::Src1 | Field::Src2 => {
            let i = *src;
            *src += 1;
            if ty == OperandType::LaneMask {
                Operand::scalar(MASK_SGPR, ty)
            } else if i == 0 && row.opcode == Opcode::V_WRITELANE_B32 {
                Operand::scalar(3, ty)
            } else {
                Operand::vgpr(src_vgpr(i), ty)
            }
        }
        _ => Operand::Off,
    }
}

/// Every (row, encoding, source, modifier) whose modifier LLVM accepts, on `target`.
fn cases(target: Target) -> Vec<Case> {
    let mut out = Vec::new();
    for row in tables(target.isa).rows {
        let variants: &[Variant] = match row.family {
            Family::Vop3 => &[Variant::Plain],
            Family::Vop1 | Family::Vop2 | Family::Vopc => &[Variant::Sdwa, Variant::Dpp16],
            _ => continue,
        };
        // Lane-select and lane-write opcodes read or write single lanes:
        // their sources are not per-lane values with sign modifiers.
        for &variant in variants {
            let mut operands = [Operand::Off; MAX_OPERANDS];
            let mut src = 0;
            for (o, spec) in operands.iter_mut().zip(row.operands) {
                *o = operand(row, spec.field, spec.ty, &mut src);
            }
            let mut modifiers = Modifiers::default();
            match variant {
                Variant::Sdwa => {
                    modifiers.dst_sel = 6;
                    modifiers.src0_sel = 6;
                    modifiers.src1_sel = 6;
                }
                Variant::Dpp16 => {
                    modifiers.dpp_ctrl = 0xe4; // quad_perm:[0,1,2,3], the identity
                    modifiers.row_mask = 0xf;
                    modifiers.bank_mask = 0xf;
                }
                _ => {}
            }
            let inst = Instruction {
                target,
                opcode: row.opcode,
                family: row.family,
                variant,
                operands,
                operand_count: row.operands.len() as u8,
                modifiers,
                size: 8,
            };
            let srcs: Vec<OperandType> = row
                .operands
                .iter()
                .filter(|o| matches!(o.field, Field::Src0 | Field::Src1 | Field::Src2))
                .map(|o| o.ty)
                .collect();
            for (i, &ty) in srcs.iter().enumerate() {
                let takes = float_input_modifiers(&inst, i);
                for (neg, allowed) in [(true, takes.neg), (false, takes.abs)] {
                    if !allowed {
                        continue;
                    }
                    let mut inst = inst;
                    if neg {
                        inst.modifiers.neg |= 1 << i;
                    } else {
                        inst.modifiers.abs |= 1 << i;
                    }
                    out.push(Case {
                        inst,
                        src: i,
                        neg,
                        wide: ty.element_bits() == 64,
                        half: ty.element_bits() == 16,
                    });
                }
            }
        }
    }
    out
}

/// Register contents of one run: VGPRs 0..24 per lane and SGPRs 0..32.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    vgpr: Vec<[u32; 64]>,
    sgpr: [u32; 32],
    vcc: u64,
    exec: u64,
}

impl State {
    fn random(rng: &mut Rng, wave64: bool) -> State {
        let mut vgpr = vec![[0u32; 64]; 24];
        for r in vgpr.iter_mut() {
            for x in r.iter_mut() {
                *x = rng.value();
            }
        }
        // Equal and opposite operands in some lanes, so that comparisons for
        // equality see the sign of a source too.
        let first = vgpr[usize::from(src_vgpr(0))];
        for other in [src_vgpr(1), src_vgpr(2)].map(usize::from) {
            for (l, (x, &a)) in vgpr[other].iter_mut().zip(first.iter()).enumerate() {
                match (l + other) % 6 {
                    0 => *x = a,
                    1 => *x = a ^ 0x8000_0000,
                    2 => *x = a ^ 0x8000,
                    _ => {}
                }
            }
        }
        let mut sgpr = [0u32; 32];
        for x in sgpr.iter_mut() {
            *x = rng.next() as u32;
        }
        let exec = if wave64 {
            rng.next() | 1
        } else {
            (rng.next() | 1) & 0xffff_ffff
        };
        let vcc = rng.next() & if wave64 { u64::MAX } else { 0xffff_ffff };
        State {
            vgpr,
            sgpr,
            vcc,
            exec,
        }
    }

    /// This state with source `c.src`'s input changed as its modifier would.
    fn pre_modified(&self, c: &Case) -> State {
        let mut s = self.clone();
        let reg = usize::from(src_vgpr(c.src));
        let (reg, sign) = match (c.wide, c.half) {
            (true, _) => (reg + 1, 0x8000_0000u32),
            (_, true) => (reg, 0x8000),
            _ => (reg, 0x8000_0000),
        };
        for x in s.vgpr[reg].iter_mut() {
            *x = if c.neg { *x ^ sign } else { *x & !sign };
        }
        s
    }
}

/// The instruction without the exercised modifier bit.
fn without(c: &Case) -> Instruction {
    let mut inst = c.inst;
    inst.modifiers.neg &= !(1 << c.src);
    inst.modifiers.abs &= !(1 << c.src);
    inst
}

/// Runs `inst` on the golden GPU from `s`; the registers after it, or the fault.
fn golden_run(inst: &Instruction, s: &State) -> Result<State, String> {
    let mut p = Probe::new(inst.target);
    for (r, v) in s.vgpr.iter().enumerate() {
        p.wave.vgpr[r] = *v;
    }
    p.wave.sgpr[..32].copy_from_slice(&s.sgpr);
    p.wave.sgpr[106] = s.vcc as u32;
    p.wave.sgpr[107] = (s.vcc >> 32) as u32;
    p.wave.set_exec(s.exec);
    p.run(inst).map_err(|f| format!("{f:?}"))?;
    let mut vgpr = s.vgpr.clone();
    for (r, v) in vgpr.iter_mut().enumerate().take(8) {
        *v = p.wave.vgpr[r];
    }
    let mut sgpr = [0; 32];
    sgpr.copy_from_slice(&p.wave.sgpr[..32]);
    Ok(State {
        vgpr,
        sgpr,
        vcc: u64::from(p.wave.sgpr[106]) | u64::from(p.wave.sgpr[107]) << 32,
        exec: p.wave.exec(),
    })
}

/// Runs `inst` through the clocked GPU's datapath from `s`.
fn hw_run(inst: &Instruction, s: &State) -> Result<State, String> {
    let wave64 = inst.target.wave64;
    let mut rows = vec![[0u32; 32]; if wave64 { 48 } else { 24 }];
    for (r, v) in s.vgpr.iter().enumerate() {
        for (l, &x) in v.iter().enumerate().take(if wave64 { 64 } else { 32 }) {
            let row = if wave64 { 2 * r + l / 32 } else { r };
            rows[row][l % 32] = x;
        }
    }
    let mut sc = ScalarState::new();
    sc.sgpr[..32].copy_from_slice(&s.sgpr);
    sc.sgpr[106] = s.vcc as u32;
    sc.sgpr[107] = (s.vcc >> 32) as u32;
    sc.sgpr[126] = s.exec as u32;
    sc.sgpr[127] = (s.exec >> 32) as u32;
    let out = execute_isolated(
        inst,
        &sc,
        Vgprs {
            rows: &rows,
            wave64,
        },
    )
    .map_err(|f| format!("{f:?}"))?;
    let mut after = s.clone();
    for w in &out.vgpr {
        for l in 0..64 {
            if w.mask >> l & 1 != 0 {
                after.vgpr[usize::from(w.reg)][l] = w.values[l];
            }
        }
    }
    for &(code, value) in &out.sgpr {
        match code {
            0..=31 => after.sgpr[usize::from(code)] = value,
            106 => after.vcc = after.vcc & !0xffff_ffff | u64::from(value),
            107 => after.vcc = after.vcc & 0xffff_ffff | u64::from(value) << 32,
            126 => after.exec = after.exec & !0xffff_ffff | u64::from(value),
            127 => after.exec = after.exec & 0xffff_ffff | u64::from(value) << 32,
            _ => {}
        }
    }
    Ok(after)
}

/// What a model did with the cases of one target.
#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    /// Cases where the modifier changed the result (so ignoring it would fail).
    sensitive: usize,
    /// Cases the model does not implement (the same fault with and without).
    unimplemented: usize,
    failures: Vec<String>,
}

fn check(target: Target, run: fn(&Instruction, &State) -> Result<State, String>) -> Tally {
    let mut t = Tally::default();
    let mut rng = Rng(0x5eed_f10a_7000_0001 ^ u64::from(target.wave64));
    for c in cases(target) {
        t.cases += 1;
        let s = State::random(&mut rng, target.wave64);
        let with = run(&c.inst, &s);
        let pre = run(&without(&c), &s.pre_modified(&c));
        let plain = run(&without(&c), &s);
        match (&with, &pre) {
            (Ok(a), Ok(b)) => {
                // The modified source register itself differs by construction.
                let mut b = b.clone();
                b.vgpr[usize::from(src_vgpr(c.src))] = a.vgpr[usize::from(src_vgpr(c.src))];
                b.vgpr[usize::from(src_vgpr(c.src)) + 1] = a.vgpr[usize::from(src_vgpr(c.src)) + 1];
                if *a != b {
                    t.failures
                        .push(format!("{}: {}", c.inst, first_difference(a, &b)));
                } else if plain.as_ref().ok() != Some(a) {
                    t.sensitive += 1;
                } else if std::env::var_os("SHOW_BLIND").is_some() {
                    eprintln!("blind: {}", c.inst);
                }
            }
            // The same refusal either way (the fault text names the instruction).
            // A model may refuse a form (a fault naming it as not
            // implemented) but never ignore its modifier.
            (Err(a), _) if a.contains("not implemented") => t.unimplemented += 1,
            _ => t
                .failures
                .push(format!("{}: with {with:?} / pre-modified {pre:?}", c.inst)),
        }
    }
    t
}

fn first_difference(a: &State, b: &State) -> String {
    for r in 0..a.vgpr.len() {
        for l in 0..64 {
            if a.vgpr[r][l] != b.vgpr[r][l] {
                return format!(
                    "v{r} lane {l}: with the modifier {:#010x}, on the pre-modified input {:#010x}",
                    a.vgpr[r][l], b.vgpr[r][l]
                );
            }
        }
    }
    format!("scalar state differs: {:x?} vs {:x?}", a.sgpr, b.sgpr)
}

fn assert_clean(name: &str, t: &Tally, min_cases: usize) {
    assert!(
        t.failures.is_empty(),
        "{name}: {} of {} cases ignore or misapply a modifier, e.g.\n{}",
        t.failures.len(),
        t.cases,
        t.failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        t.cases >= min_cases,
        "{name}: only {} cases — the table walk lost rows",
        t.cases
    );
    // Ignoring a modifier must be visible: most operations depend on their
    // sources' signs (the rest are the sign-blind ones and unimplemented rows).
    assert!(
        t.sensitive * 10 >= (t.cases - t.unimplemented) * 8,
        "{name}: the modifier changed the result in only {} of {} cases",
        t.sensitive,
        t.cases - t.unimplemented
    );
}

#[test]
fn every_modifier_taking_source_honours_neg_and_abs_on_the_golden_gpu() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64, Target::GFX803] {
        let t = check(target, golden_run);
        assert_clean(&format!("golden {target:?}"), &t, 500);
        // Everything LLVM gives modifiers to, the golden model implements.
        assert!(
            t.unimplemented * 20 <= t.cases,
            "golden {target:?}: {} of {} cases not implemented",
            t.unimplemented,
            t.cases
        );
    }
}

#[test]
fn every_modifier_taking_source_honours_neg_and_abs_on_the_clocked_gpu() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let t = check(target, hw_run);
        assert_clean(&format!("clocked {target:?}"), &t, 500);
    }
}

/// The lanes of `v_cndmask_b32_e64 v2, -v8, v12, s20` — the form of LLVM's
/// `cos` expansion (`v_cndmask_b32_e64 v22, -v36, v22, vcc_lo`), with the
/// condition in an SGPR the probes set — checked one by one: condition-0
/// lanes take the modified `v8`, the others `v12`.
fn check_cndmask_neg(target: Target, model: fn(&Instruction, &State) -> Result<State, String>) {
    let cond_reg = if target.isa == Isa::Gfx803 || target.wave64 {
        "s[20:21]"
    } else {
        "s20"
    };
    type Modify = fn(u32) -> u32;
    let forms: [(&str, Modify); 3] = [
        ("-v8", |x| x ^ 0x8000_0000),
        ("|v8|", |x| x & 0x7fff_ffff),
        ("-|v8|", |x| x | 0x8000_0000),
    ];
    for (src0, f) in forms {
        let text = format!("v_cndmask_b32_e64 v2, {src0}, v12, {cond_reg}");
        let bytes = arch::isa::assemble(target, &text).expect(&text);
        let inst = arch::isa::decode(target, &bytes).expect(&text);
        let mut s = State {
            vgpr: vec![[0; 64]; 24],
            sgpr: [0; 32],
            vcc: 0,
            exec: if target.wave64 { u64::MAX } else { 0xffff_ffff },
        };
        for l in 0..64u32 {
            // ±(0.5 + a little): both signs reach the modifier.
            s.vgpr[8][l as usize] = (0x3f00_0000 + l) | (l & 2) << 30;
            s.vgpr[12][l as usize] = 0x4000_0000 + l;
        }
        s.sgpr[20] = 0x5555_aaaa;
        s.sgpr[21] = 0x0f0f_f0f0;
        let after = model(&inst, &s).unwrap_or_else(|e| panic!("{text}: {e}"));
        let cond = u64::from(s.sgpr[20]) | u64::from(s.sgpr[21]) << 32;
        for l in 0..if target.wave64 { 64 } else { 32 } {
            let want = if cond >> l & 1 != 0 {
                s.vgpr[12][l]
            } else {
                f(s.vgpr[8][l])
            };
            assert_eq!(
                after.vgpr[2][l],
                want,
                "{text} on {target:?}, lane {l} (condition {})",
                cond >> l & 1
            );
        }
    }
}

#[test]
fn v_cndmask_with_a_negated_source_takes_the_modifier_on_the_golden_gpu_regression_issue_14() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64, Target::GFX803] {
        check_cndmask_neg(target, golden_run);
    }
}

#[test]
fn v_cndmask_with_a_negated_source_takes_the_modifier_on_the_clocked_gpu() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        check_cndmask_neg(target, hw_run);
    }
}
