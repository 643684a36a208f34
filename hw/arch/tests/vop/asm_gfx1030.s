v_add_f32 v0, v1, v2
v_add_f32 v0, s1, v2
v_add_f32 v0, v1, s2
v_add_f32 v0, -v1, v2
v_add_f32 v0, v1, 0x1234
v_add_f32 v0, 0x1234, v2
v_add_f32 v0, 1.0, v2
v_add_f32 v0, v1, 1.0
v_add_f32 v0, 2.5, v2
v_cndmask_b32 v0, v1, v2, vcc_lo
v_cndmask_b32 v0, v1, v2, s0
v_cndmask_b32 v0, 0, 1, s0
v_add_co_ci_u32 v3, vcc_lo, s1, v1, vcc_lo
v_add_co_ci_u32 v3, s2, s1, v1, vcc_lo
v_add_co_u32 v2, vcc_lo, s0, v0
v_cmp_gt_i32 vcc_lo, s1, v0
v_cmp_gt_i32 s0, s1, v0
v_cmp_gt_i32 vcc_lo, v0, s1
v_cmpx_gt_i32 s1, v0
v_cmpx_gt_i32 v0, s1
v_mov_b32 v0, 0x1234
v_mov_b32 v0, s0
v_mov_b32 v0, -1
v_lshlrev_b64 v[0:1], 2, v[0:1]
v_mad_u64_u32 v[0:1], null, s6, s0, v[0:1]
v_fmac_f32 v0, v1, v2
v_fmac_f32 v0, s1, v2
v_fmac_f32 v0, v1, s2
v_fmaak_f32 v0, v1, v2, 0x41200000
v_fmamk_f32 v0, v1, 0x41200000, v2
v_readfirstlane_b32 s0, v1
v_readlane_b32 s0, v1, 3
v_writelane_b32 v0, s1, 3
v_mul_lo_u32 v0, v1, v2
v_mul_hi_u32 v0, v1, 0x12345678
v_cvt_f32_u32 v0, v1
v_cvt_f32_u32 v0, v1 clamp
v_rcp_f32 v0, -v1
v_add_nc_u32 v0, v1, v2 clamp
v_sub_nc_u32 v0, s1, v2
v_pk_add_f16 v0, v1, v2
v_pk_fma_f16 v0, v1, v2, v3 op_sel_hi:[0,0,0]
v_mov_b32 v0, v1 quad_perm:[1,0,3,2]
v_add_f32 v0, v1, v2 row_shl:1
v_mov_b32 v0, v1 dpp8:[1,0,3,2,4,5,6,7]
v_mov_b32_sdwa v0, v1 src0_sel:BYTE_1
v_add_f16 v0, v1, v2
v_add_f16 v0, 0x3c00, v2
v_add_nc_u16 v0, v1, 5
v_bfe_u32 v0, v1, 8, 8
v_and_b32 v0, 0xff, v1
v_and_b32 v0, v1, 0xff
v_cmp_class_f32 vcc_lo, v1, 3
v_cmp_ne_u64 vcc_lo, 0, v[0:1]
v_cmp_ne_u64 s0, v[0:1], 0
v_div_scale_f32 v0, vcc_lo, v1, v2, v3
v_div_fmas_f32 v0, v1, v2, v3
v_ldexp_f32 v0, v1, v2
v_med3_i32 v0, v1, 5, v2
v_alignbit_b32 v0, v1, v2, 8
v_perm_b32 v0, v1, v2, 0x5040100
v_mbcnt_lo_u32_b32 v0, -1, 0
v_mbcnt_hi_u32_b32 v0, -1, v0
