//! Golden model: typed buffer formats other than 32-bit components, and the
//! d16 typed forms. Expected register and memory values are worked out by
//! hand from the format definitions (see
//! `cosim/golden/src/exec/mubuf/buffer_format.rs`); f32/f16 bit patterns
//! were computed with Python's `struct` (e.g. 128/255 -> 0x3f008081).

use arch::isa::{Isa, Target};
use golden::testing::probe::{Probe, MEM};

const ALL: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

/// Data formats (GCN3 numbering) and numeric formats used below.
const DF_16_16: u32 = 5;
const DF_10_11_11: u32 = 6;
const DF_2_10_10_10: u32 = 9;
const DF_8_8_8_8: u32 = 10;
const DF_8: u32 = 1;
const DF_16: u32 = 2;
const NF_UNORM: u32 = 0;
const NF_SNORM: u32 = 1;
const NF_UINT: u32 = 4;
const NF_SINT: u32 = 5;
const NF_FLOAT: u32 = 7;

/// The gfx1030 unified format of a (data, numeric) pair used here.
fn unified(df: u32, nf: u32) -> u32 {
    match (df, nf) {
        (DF_8, NF_UINT) => 5,
        (DF_8, NF_SINT) => 6,
        (DF_16, NF_SNORM) => 8,
        (DF_16, NF_FLOAT) => 13,
        (DF_16_16, NF_UNORM) => 23,
        (DF_16_16, NF_SNORM) => 24,
        (DF_16_16, NF_FLOAT) => 29,
        (DF_10_11_11, NF_FLOAT) => 36,
        (DF_2_10_10_10, NF_UINT) => 54,
        (DF_2_10_10_10, NF_SINT) => 55,
        (DF_8_8_8_8, NF_UNORM) => 56,
        (12, NF_UINT) => 69,
        _ => panic!("no unified format for {df}/{nf} in this test"),
    }
}

/// A probe whose `s[8:11]` is a raw buffer over the memory window with the
/// given format (stride 0, 256 bytes), only lane 0 active, `v1` = 0.
fn probe(t: Target, df: u32, nf: u32) -> Probe {
    let mut p = Probe::new(t);
    let w3 = match t.isa {
        Isa::Gfx803 => nf << 12 | df << 15,
        Isa::Gfx1030 => unified(df, nf) << 12 | 3 << 28,
    };
    p.wave.sgpr[8..12].copy_from_slice(&[MEM as u32, (MEM >> 32) as u32, 256, w3]);
    p.wave.set_exec(1);
    p
}

fn regs(p: &Probe, first: usize, n: usize) -> Vec<u32> {
    (first..first + n).map(|r| p.wave.vgpr[r][0]).collect()
}

fn load(p: &mut Probe, what: &str, n: usize) -> Vec<u32> {
    let dst = if n == 1 {
        "v20".to_string()
    } else {
        format!("v[20:{}]", 19 + n)
    };
    p.exec(&format!(
        "buffer_load_format_{what} {dst}, v1, s[8:11], 0 offen"
    ))
    .unwrap();
    regs(p, 20, n)
}

#[test]
fn loads_convert_each_numeric_format() {
    for t in ALL {
        // UNORM 8_8_8_8: 0, 128/255, 1, 51/255 (= 0.2).
        let mut p = probe(t, DF_8_8_8_8, NF_UNORM);
        p.poke(MEM, &[0x00, 0x80, 0xff, 0x33]);
        assert_eq!(
            load(&mut p, "xyzw", 4),
            [0, 0x3f00_8081, 0x3f80_0000, 0x3e4c_cccd],
            "{t:?}"
        );
        // SNORM 16_16: -32768 clamps to -1.0; -16384/32767.
        let mut p = probe(t, DF_16_16, NF_SNORM);
        p.poke(MEM, &[0x00, 0x80, 0x00, 0xc0]);
        // Z is absent (0), W absent (1.0: float-valued format).
        assert_eq!(
            load(&mut p, "xyzw", 4),
            [0xbf80_0000, 0xbf00_0100, 0, 0x3f80_0000],
            "{t:?}"
        );
        // UINT / SINT 2_10_10_10: X = 1 or -1 (0x3ff), Y = 2, Z = 3, W = 3 or -1.
        let word: u32 = 3 << 30 | 3 << 20 | 2 << 10 | 0x3ff;
        let mut p = probe(t, DF_2_10_10_10, NF_UINT);
        p.poke(MEM, &word.to_le_bytes());
        assert_eq!(load(&mut p, "xyzw", 4), [0x3ff, 2, 3, 3], "{t:?}");
        let mut p = probe(t, DF_2_10_10_10, NF_SINT);
        p.poke(MEM, &word.to_le_bytes());
        assert_eq!(load(&mut p, "xyzw", 4), [u32::MAX, 2, 3, u32::MAX], "{t:?}");
        // FLOAT 10_11_11: X (11 bits) 1.0 = 15 << 6, Y 2.0 = 16 << 6, Z (10
        // bits) 0.5 = 14 << 5.
        let word: u32 = 0x3c0 | 0x400 << 11 | 0x1c0 << 22;
        let mut p = probe(t, DF_10_11_11, NF_FLOAT);
        p.poke(MEM, &word.to_le_bytes());
        assert_eq!(
            load(&mut p, "xyz", 3),
            [0x3f80_0000, 0x4000_0000, 0x3f00_0000],
            "{t:?}"
        );
        // FLOAT 16_16 halves widen; a one-component format's W is 1.0.
        let mut p = probe(t, DF_16_16, NF_FLOAT);
        p.poke(MEM, &[0x00, 0x3c, 0x00, 0xc0]);
        assert_eq!(load(&mut p, "xy", 2), [0x3f80_0000, 0xc000_0000], "{t:?}");
        let mut p = probe(t, DF_8, NF_UINT);
        p.poke(MEM, &[0xfe]);
        assert_eq!(load(&mut p, "xyzw", 4), [0xfe, 0, 0, 1], "{t:?}");
    }
}

#[test]
fn stores_round_to_nearest_even_and_saturate() {
    for t in ALL {
        // UNORM 8: 0.0, 1.0, 0.5 * 255 = 127.5 -> 128 (ties to even), 2.0 -> 255.
        let mut p = probe(t, DF_8_8_8_8, NF_UNORM);
        for (r, x) in [0.0f32, 1.0, 0.5, 2.0].into_iter().enumerate() {
            p.set_vgpr(20 + r, |_| x.to_bits());
        }
        p.exec("buffer_store_format_xyzw v[20:23], v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(
            p.peek_u32(MEM),
            u32::from_le_bytes([0, 255, 128, 255]),
            "{t:?}"
        );
        // Fewer components than the format: only X's byte is written.
        p.set_vgpr(20, |_| 0.25f32.to_bits());
        p.exec("buffer_store_format_x v20, v1, s[8:11], 0 offen")
            .unwrap();
        // 0.25 * 255 = 63.75 -> 64.
        assert_eq!(
            p.peek_u32(MEM),
            u32::from_le_bytes([64, 255, 128, 255]),
            "{t:?}"
        );
        // SNORM 16: -1.5 clamps to -1 -> -32767 (0x8001).
        let mut p = probe(t, DF_16, NF_SNORM);
        p.set_vgpr(20, |_| (-1.5f32).to_bits());
        p.exec("buffer_store_format_x v20, v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(p.peek_u32(MEM) & 0xffff, 0x8001, "{t:?}");
        // UINT 8 saturates 300 to 255; SINT 8 saturates -200 to -128.
        let mut p = probe(t, DF_8, NF_UINT);
        p.set_vgpr(20, |_| 300);
        p.exec("buffer_store_format_x v20, v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(p.peek_u32(MEM) & 0xff, 255, "{t:?}");
        let mut p = probe(t, DF_8, NF_SINT);
        p.set_vgpr(20, |_| (-200i32) as u32);
        p.exec("buffer_store_format_x v20, v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(p.peek_u32(MEM) & 0xff, 0x80, "{t:?}");
        // FLOAT 10_11_11: 1.0 -> 0x3c0; -1.0 stores 0 (no sign); 0.5 -> 0x1c0.
        let mut p = probe(t, DF_10_11_11, NF_FLOAT);
        for (r, x) in [1.0f32, -1.0, 0.5].into_iter().enumerate() {
            p.set_vgpr(20 + r, |_| x.to_bits());
        }
        p.exec("buffer_store_format_xyz v[20:22], v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(p.peek_u32(MEM), 0x3c0 | 0x1c0 << 22, "{t:?}");
    }
}

#[test]
fn d16_forms_use_half_registers() {
    for t in ALL {
        let packed = t.isa == Isa::Gfx1030;
        // UNORM 8_8_8_8 [0, 255, 128, 255] as halves: 0, 1.0, 128/255 ->
        // f16 0x3804, 1.0.
        let mut p = probe(t, DF_8_8_8_8, NF_UNORM);
        p.poke(MEM, &[0, 255, 128, 255]);
        p.set_vgpr(21, |_| 0xdead_beef);
        if packed {
            p.exec("buffer_load_format_d16_xyzw v[20:21], v1, s[8:11], 0 offen")
                .unwrap();
            assert_eq!(regs(&p, 20, 2), [0x3c00_0000, 0x3c00_3804], "{t:?}");
            // d16_xyz keeps the high half of its second register.
            p.set_vgpr(21, |_| 0xdead_beef);
            p.exec("buffer_load_format_d16_xyz v[20:21], v1, s[8:11], 0 offen")
                .unwrap();
            assert_eq!(regs(&p, 20, 2), [0x3c00_0000, 0xdead_3804], "{t:?}");
            // d16_hi_x: X into the high half, the low half kept.
            p.set_vgpr(22, |_| 0x1234_5678);
            p.poke(MEM, &[255]);
            p.exec("buffer_load_format_d16_hi_x v22, v1, s[8:11], 0 offen")
                .unwrap();
            assert_eq!(regs(&p, 22, 1), [0x3c00_5678], "{t:?}");
        } else {
            p.exec("buffer_load_format_d16_xyzw v[20:23], v1, s[8:11], 0 offen")
                .unwrap();
            assert_eq!(regs(&p, 20, 4), [0, 0x3c00, 0x3804, 0x3c00], "{t:?}");
        }
        // Stores: UNORM 16_16 from halves 1.0 and 0.5: 65535 and 32767.5 ->
        // 32768 (ties to even).
        let mut p = probe(t, DF_16_16, NF_UNORM);
        if packed {
            p.set_vgpr(20, |_| 0x3800_3c00);
            p.exec("buffer_store_format_d16_xy v20, v1, s[8:11], 0 offen")
                .unwrap();
        } else {
            p.set_vgpr(20, |_| 0x3c00);
            p.set_vgpr(21, |_| 0x3800);
            p.exec("buffer_store_format_d16_xy v[20:21], v1, s[8:11], 0 offen")
                .unwrap();
        }
        assert_eq!(p.peek_u32(MEM), 0x8000_ffff, "{t:?}");
    }
}

#[test]
fn typed_buffer_formats_and_range() {
    for t in ALL {
        // MTBUF takes the instruction's format: 8_8_8_8 UNORM.
        let mut p = probe(t, DF_16_16, NF_FLOAT);
        p.poke(MEM, &[0, 255, 0, 255]);
        let f = match t.isa {
            Isa::Gfx803 => DF_8_8_8_8 | NF_UNORM << 4,
            Isa::Gfx1030 => 56,
        };
        p.exec(&format!(
            "tbuffer_load_format_xy v[20:21], v1, s[8:11], 0 offen format:{f}"
        ))
        .unwrap();
        assert_eq!(regs(&p, 20, 2), [0, 0x3f80_0000], "{t:?}");
        // An element past num_records (256 bytes) loads as zeros (W default
        // 1.0) and its store is dropped.
        let mut p = probe(t, DF_8_8_8_8, NF_UNORM);
        p.poke(MEM + 256, &[255; 4]);
        p.set_vgpr(1, |_| 256);
        assert_eq!(load(&mut p, "xyzw", 4), [0, 0, 0, 0], "{t:?}");
        p.set_vgpr(20, |_| 0);
        p.exec("buffer_store_format_x v20, v1, s[8:11], 0 offen")
            .unwrap();
        assert_eq!(p.peek_u32(MEM + 256), u32::MAX, "{t:?}");
    }
}

#[test]
fn tfe_loads_write_a_zero_status_after_the_data() {
    for t in ALL {
        let mut p = probe(t, DF_8_8_8_8, NF_UNORM);
        p.wave.set_exec(0b01);
        p.poke(MEM, &0x1234_5678u32.to_le_bytes());
        p.set_vgpr(21, |_| 0xdead);
        p.exec("buffer_load_dword v[20:21], v1, s[8:11], 0 offen tfe")
            .unwrap();
        // Lane 0: the data and a zero status; lane 1 (inactive) untouched.
        assert_eq!(regs(&p, 20, 2), [0x1234_5678, 0], "{t:?}");
        assert_eq!(p.wave.vgpr[21][1], 0xdead, "{t:?}");
        // A typed load: two components (UNORM bytes 0x78, 0x56) then the status.
        p.set_vgpr(22, |_| 0xdead);
        p.exec("buffer_load_format_xy v[20:22], v1, s[8:11], 0 offen tfe")
            .unwrap();
        let want = [
            (0x78 as f32 / 255.0).to_bits(),
            (0x56 as f32 / 255.0).to_bits(),
            0,
        ];
        assert_eq!(regs(&p, 20, 3), want, "{t:?}");
        // Out of range is not a texture fault: data 0, status 0.
        p.set_vgpr(1, |_| 4096);
        p.exec("buffer_load_dword v[20:21], v1, s[8:11], 0 offen tfe")
            .unwrap();
        assert_eq!(regs(&p, 20, 2), [0, 0], "{t:?}");
    }
}

/// Every typed opcode (MUBUF and MTBUF, loads and stores, plain and d16)
/// on a 16_16_16_16 UINT element holding 1, 2, 3, 4.
#[test]
fn every_typed_opcode_on_a_16_bit_uint_format() {
    const DF_16_16_16_16: u32 = 12;
    for t in ALL {
        let packed = t.isa == Isa::Gfx1030;
        let format = match t.isa {
            Isa::Gfx803 => DF_16_16_16_16 | NF_UINT << 4,
            Isa::Gfx1030 => 69,
        };
        let element: [u8; 8] = [1, 0, 2, 0, 3, 0, 4, 0];
        for (n, what) in [(1, "x"), (2, "xy"), (3, "xyz"), (4, "xyzw")] {
            for prefix in ["buffer", "tbuffer"] {
                let tail = if prefix == "tbuffer" {
                    format!(" format:{format}")
                } else {
                    String::new()
                };
                let regs_text = |first: usize, count: usize| {
                    if count == 1 {
                        format!("v{first}")
                    } else {
                        format!("v[{first}:{}]", first + count - 1)
                    }
                };
                // Plain load: one component per VGPR.
                let mut p = probe(t, DF_16_16_16_16, NF_UINT);
                p.poke(MEM, &element);
                p.exec(&format!(
                    "{prefix}_load_format_{what} {}, v1, s[8:11], 0 offen{tail}",
                    regs_text(20, n)
                ))
                .unwrap();
                assert_eq!(regs(&p, 20, n), [1, 2, 3, 4][..n], "{t:?} {prefix} {what}");
                // d16 load: packed pairs on gfx1030 (the unused high half of
                // the last register kept), one per VGPR on gfx803.
                let d16_regs = if packed { n.div_ceil(2) } else { n };
                p.set_vgpr(20, |_| 0xabcd_0000);
                p.set_vgpr(21, |_| 0xabcd_0000);
                p.exec(&format!(
                    "{prefix}_load_format_d16_{what} {}, v1, s[8:11], 0 offen{tail}",
                    regs_text(20, d16_regs)
                ))
                .unwrap();
                let want: Vec<u32> = if packed {
                    match n {
                        1 => vec![0xabcd_0001],
                        2 => vec![0x0002_0001],
                        3 => vec![0x0002_0001, 0xabcd_0003],
                        _ => vec![0x0002_0001, 0x0004_0003],
                    }
                } else {
                    vec![1, 2, 3, 4][..n].to_vec()
                };
                assert_eq!(regs(&p, 20, d16_regs), want, "{t:?} {prefix} d16 {what}");
                // Stores write only the instruction's components: 7, 8, 9, 10.
                let mut expect = element;
                for i in 0..n {
                    expect[2 * i] = 7 + i as u8;
                }
                p.poke(MEM, &element);
                for i in 0..4 {
                    p.set_vgpr(20 + i, |_| 7 + i as u32);
                }
                p.exec(&format!(
                    "{prefix}_store_format_{what} {}, v1, s[8:11], 0 offen{tail}",
                    regs_text(20, n)
                ))
                .unwrap();
                let got = (MEM..MEM + 8)
                    .map(|a| p.peek_u32(a) as u8)
                    .collect::<Vec<_>>();
                assert_eq!(got, expect, "{t:?} {prefix} store {what}");
                // The d16 store of the same values.
                p.poke(MEM, &element);
                if packed {
                    p.set_vgpr(20, |_| 8 << 16 | 7);
                    p.set_vgpr(21, |_| 10 << 16 | 9);
                }
                p.exec(&format!(
                    "{prefix}_store_format_d16_{what} {}, v1, s[8:11], 0 offen{tail}",
                    regs_text(20, d16_regs)
                ))
                .unwrap();
                let got = (MEM..MEM + 8)
                    .map(|a| p.peek_u32(a) as u8)
                    .collect::<Vec<_>>();
                assert_eq!(got, expect, "{t:?} {prefix} d16 store {what}");
            }
        }
    }
}
