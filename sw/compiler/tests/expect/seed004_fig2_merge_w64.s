; kernel @fig2_merge(a: ptr.global global_buffer "int*", b: ptr.global global_buffer "int*", c: ptr.global global_buffer "int*", v: ptr.global global_buffer "int*", out: ptr.global global_buffer "int*", out2: ptr.global global_buffer "int*", mbits: i32 by_value "uint") {
; block0:
;     v0:ptr.global = arg 0
;     v1:ptr.global = arg 1
;     v2:ptr.global = arg 2
;     v3:ptr.global = arg 3
;     v4:ptr.global = arg 4
;     v5:ptr.global = arg 5
;     v6:i32 = arg 6
;     v7:i32 = global_id 0
;     v8:i32 = iconst 2
;     v9:i32 = shl v7, v8
;     v10:ptr.global = ptr_add v0, v9
;     v11:ptr.global = ptr_add v1, v9
;     v12:ptr.global = ptr_add v2, v9
;     v13:ptr.global = ptr_add v3, v9
;     v14:ptr.global = ptr_add v4, v9
;     v15:ptr.global = ptr_add v5, v9
;     v16:i32 = load v10
;     v17:i32 = load v11
;     v18:i32 = load v12
;     v19:i32 = load v13
;     v20:i32 = load v14
;     v21:i32 = lshr v6, v7
;     v22:i32 = iconst 1
;     v23:i32 = and v21, v22
;     v24:i32 = iconst 0
;     v25:i1 = icmp ne v23, v24
;     v26:i32 = iadd v16, v17
;     v27:i32 = select v25, v26, v16
;     store v14, v27
;     ret
; }

s_load_dwordx2 s[4:5], s[0:1], null
s_load_dwordx2 s[6:7], s[0:1], 0x8
s_load_dwordx2 s[8:9], s[0:1], 0x20
s_load_dword s3, s[0:1], 0x30
s_load_dword s10, s[0:1], 0x44
s_waitcnt lgkmcnt(0)
s_and_b32 s0, s10, 0xffff
s_mul_i32 s1, s2, s0
v_add_nc_u32_e32 v1, s1, v0
v_lshlrev_b32_e32 v0, 2, v1
v_ashrrev_i32_e32 v2, 31, v0
v_add_co_u32 v3, vcc, s4, v0
v_add_co_ci_u32_e32 v4, vcc, s5, v2, vcc
v_add_co_u32 v5, vcc, s6, v0
v_add_co_ci_u32_e32 v6, vcc, s7, v2, vcc
v_add_co_u32 v7, vcc, s8, v0
v_add_co_ci_u32_e32 v8, vcc, s9, v2, vcc
global_load_dword v0, v[3:4], off
global_load_dword v2, v[5:6], off
v_lshrrev_b32_e64 v3, v1, s3
v_and_b32_e32 v1, 1, v3
v_cmp_ne_u32_e64 s[0:1], v1, 0
s_waitcnt vmcnt(1)
v_mov_b32_e32 v1, v0
s_and_saveexec_b64 s[2:3], s[0:1]
s_waitcnt vmcnt(0)
v_add_nc_u32_e32 v1, v0, v2
s_mov_b64 exec, s[2:3]
global_store_dword v[7:8], v1, off
s_endpgm
