// Study kernel for docs/variable-wavefront.md (seed 000 §2, the shared VGPR
// region): out[i] = sqrt(a[i]² + a[i+256]²) + a[i], wave64, 128 VGPRs
// allocated. v100–v103 are window-local scratch: written and read only in
// the run of VALU instructions between `s_waitcnt vmcnt(0)` and the store
// (one sub-vector window), so the top 64 registers (v64–v127) may be shared
// by the parts of a wave. Built by workloads/study/build_subvec_vgpr.sh.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.amdhsa_code_object_version 5
	.text
	.globl	subvec_vgpr
	.p2align	8
	.type	subvec_vgpr,@function
subvec_vgpr:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_lshl_b32 s8, s2, 6
	v_add_nc_u32_e32 v1, s8, v0
	v_lshlrev_b32_e32 v2, 2, v1
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v2, s[4:5]
	global_load_dword v4, v2, s[4:5] offset:1024
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v100, v3, v3
	v_mul_f32_e32 v101, v4, v4
	v_add_f32_e32 v102, v100, v101
	v_sqrt_f32_e32 v103, v102
	v_add_f32_e32 v5, v103, v3
	global_store_dword v2, v5, s[6:7]
	s_endpgm
.Lfunc_end0:
	.size	subvec_vgpr, .Lfunc_end0-subvec_vgpr

	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel subvec_vgpr
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_wavefront_size32 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 128
		.amdhsa_next_free_sgpr 9
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .is_const:       true
        .name:           a
        .offset:         0
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           out
        .offset:         8
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           subvec_vgpr
    .private_segment_fixed_size: 0
    .sgpr_count:     9
    .sgpr_spill_count: 0
    .symbol:         subvec_vgpr.kd
    .vgpr_count:     128
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx1030
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
