v_add_u32 v0, vcc, s6, v0
v_add_u32 v0, s[0:1], v1, v2
v_add_u32 v0, vcc, v1, s2
v_addc_u32 v3, vcc, v3, v1, vcc
v_addc_u32 v3, s[0:1], v3, v1, vcc
v_mac_f32 v0, v1, v2
v_mac_f32 v0, v1, s2
v_madak_f32 v0, v1, v2, 0x41200000
v_madmk_f32 v0, v1, 0x41200000, v2
v_cmp_gt_i32 vcc, s1, v0
v_cmp_gt_i32 s[0:1], s1, v0
v_cmpx_gt_i32 vcc, s1, v0
v_cmpx_gt_i32 s[0:1], v1, s0
v_lshlrev_b64 v[0:1], 2, v[0:1]
v_mov_b32 v0, 0x1234
v_add_f32 v0, v1, 1.0
v_add_f32 v0, 0x1234, v1
v_or_b32_sdwa v0, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_or_b32 v0, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_cmp_eq_u32 vcc, v1, v2 src0_sel:BYTE_0 src1_sel:DWORD
v_cmp_eq_u32_sdwa vcc, v1, v2 src0_sel:BYTE_0 src1_sel:DWORD
v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32 v0, v1 row_bcast:15 row_mask:0xa
v_add_u16 v0, v1, v2
v_mad_u32_u24 v0, v1, v2, v3
v_cndmask_b32 v0, 0, 1, s[0:1]
v_cndmask_b32 v0, v1, v2, vcc
v_readlane_b32 s0, v1, 3
v_mul_hi_u32 v0, v1, s2
v_mad_u64_u32 v[0:1], s[2:3], v1, v2, v[4:5]
v_div_scale_f32 v0, vcc, v1, v2, v3
v_add_f16 v0, v1, v2
v_cvt_f32_ubyte0 v0, v1
v_cvt_f32_ubyte0_sdwa v0, v1 src0_sel:BYTE_1
v_sub_u32 v0, vcc, s0, v1
v_subrev_u32 v0, vcc, s0, v1
v_bfe_u32 v0, v1, 8, 8
v_mbcnt_lo_u32_b32 v0, -1, 0
