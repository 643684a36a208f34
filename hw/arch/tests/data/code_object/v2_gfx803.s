// A code object v2 (gfx803) fixture, written by hand from the documented
// layout because LLVM 19 no longer emits code object v2 (see make.sh and
// docs/code-objects.md). llvm-mc-19 still assembles the 256-byte
// amd_kernel_code_t header (for a non-HSA triple); the NT_AMD_HSA_* notes and
// the YAML metadata are laid out below by hand, and make.sh patches the ELF
// header (OS/ABI = HSA, ABI version 0) and the kernel symbol types
// (STT_AMDGPU_HSA_KERNEL = 10) after linking.

// ---- notes: name "AMD", 4-byte aligned fields -------------------------------
        .section .note,"a",@note
        .p2align 2
// NT_AMD_HSA_CODE_OBJECT_VERSION (1): major, minor
        .long 4, 8, 1
        .asciz "AMD"
        .long 2, 1
// NT_AMD_HSA_ISA_VERSION (3): vendor size, arch size, major, minor, stepping, vendor, arch
        .long 4, 27, 3
        .asciz "AMD"
        .short 4, 7
        .long 8, 0, 3
        .asciz "AMD"
        .asciz "AMDGPU"
        .p2align 2
// NT_AMD_HSA_PRODUCER (4): name size, major, minor, name
        .long 4, 27, 4
        .asciz "AMD"
        .long 15, 1, 0
        .asciz "gpusim make.sh"
        .p2align 2
// NT_AMD_HSA_METADATA (10): YAML text (the "Kernels:" form of later v2 producers)
        .long 4, .Lmd_end - .Lmd_begin, 10
        .asciz "AMD"
.Lmd_begin:
        .ascii "---\n"
        .ascii "Version:         [ 1, 0 ]\n"
        .ascii "Kernels:\n"
        .ascii "  - Name:            copy_v2\n"
        .ascii "    SymbolName:      'copy_v2@kd'\n"
        .ascii "    Language:        OpenCL C\n"
        .ascii "    LanguageVersion: [ 1, 2 ]\n"
        .ascii "    Args:\n"
        .ascii "      - Name:            dst\n"
        .ascii "        TypeName:        'int*'\n"
        .ascii "        Size:            8\n"
        .ascii "        Align:           8\n"
        .ascii "        ValueKind:       GlobalBuffer\n"
        .ascii "        ValueType:       I32\n"
        .ascii "        AddrSpaceQual:   Global\n"
        .ascii "        AccQual:         Default\n"
        .ascii "      - Name:            src\n"
        .ascii "        TypeName:        'int*'\n"
        .ascii "        Size:            8\n"
        .ascii "        Align:           8\n"
        .ascii "        ValueKind:       GlobalBuffer\n"
        .ascii "        ValueType:       I32\n"
        .ascii "        AddrSpaceQual:   Global\n"
        .ascii "        AccQual:         Default\n"
        .ascii "        IsConst:         true\n"
        .ascii "      - Name:            n\n"
        .ascii "        TypeName:        int\n"
        .ascii "        Size:            4\n"
        .ascii "        Align:           4\n"
        .ascii "        ValueKind:       ByValue\n"
        .ascii "        ValueType:       I32\n"
        .ascii "      - Size:            8\n"
        .ascii "        Align:           8\n"
        .ascii "        ValueKind:       HiddenGlobalOffsetX\n"
        .ascii "        ValueType:       I64\n"
        .ascii "    CodeProps:\n"
        .ascii "      KernargSegmentSize: 32\n"
        .ascii "      GroupSegmentFixedSize: 0\n"
        .ascii "      PrivateSegmentFixedSize: 0\n"
        .ascii "      KernargSegmentAlign: 8\n"
        .ascii "      WavefrontSize:   64\n"
        .ascii "      NumSGPRs:        16\n"
        .ascii "      NumVGPRs:        4\n"
        .ascii "      MaxFlatWorkGroupSize: 256\n"
        .ascii "  - Name:            empty_v2\n"
        .ascii "    SymbolName:      'empty_v2@kd'\n"
        .ascii "    Language:        OpenCL C\n"
        .ascii "    LanguageVersion: [ 1, 2 ]\n"
        .ascii "    CodeProps:\n"
        .ascii "      KernargSegmentSize: 0\n"
        .ascii "      GroupSegmentFixedSize: 256\n"
        .ascii "      PrivateSegmentFixedSize: 0\n"
        .ascii "      KernargSegmentAlign: 4\n"
        .ascii "      WavefrontSize:   64\n"
        .ascii "      NumSGPRs:        8\n"
        .ascii "      NumVGPRs:        1\n"
        .ascii "      MaxFlatWorkGroupSize: 64\n"
        .ascii "...\n"
        .byte 0
.Lmd_end:
        .p2align 2

// ---- code --------------------------------------------------------------------
        .text
        .globl copy_v2
        .p2align 8
        .type copy_v2,@function
// dst[i] = src[i], i = workgroup_id_x * 64 + workitem_id_x.
// User SGPRs: s[0:1] kernarg pointer; s2 workgroup id x; v0 workitem id x.
copy_v2:
        .amd_kernel_code_t
          amd_code_version_major = 1
          amd_code_version_minor = 2
          amd_machine_kind = 1
          amd_machine_version_major = 8
          amd_machine_version_minor = 0
          amd_machine_version_stepping = 3
          kernel_code_entry_byte_offset = 256
          granulated_workitem_vgpr_count = 0
          granulated_wavefront_sgpr_count = 1
          float_mode = 192
          enable_dx10_clamp = 1
          enable_ieee_mode = 1
          user_sgpr_count = 2
          enable_sgpr_workgroup_id_x = 1
          enable_vgpr_workitem_id = 0
          enable_sgpr_kernarg_segment_ptr = 1
          private_element_size = 1
          is_ptr64 = 1
          kernarg_segment_byte_size = 32
          wavefront_sgpr_count = 16
          workitem_vgpr_count = 4
          kernarg_segment_alignment = 4
          group_segment_alignment = 4
          private_segment_alignment = 4
          wavefront_size = 6
        .end_amd_kernel_code_t
        s_load_dwordx4 s[4:7], s[0:1], 0x0
        s_lshl_b32 s2, s2, 6
        v_add_u32_e32 v0, vcc, s2, v0
        v_lshlrev_b32_e32 v0, 2, v0
        s_waitcnt lgkmcnt(0)
        v_mov_b32_e32 v2, s7
        v_add_u32_e32 v1, vcc, s6, v0
        v_addc_u32_e32 v2, vcc, 0, v2, vcc
        flat_load_dword v3, v[1:2]
        v_mov_b32_e32 v2, s5
        v_add_u32_e32 v1, vcc, s4, v0
        v_addc_u32_e32 v2, vcc, 0, v2, vcc
        s_waitcnt vmcnt(0) lgkmcnt(0)
        flat_store_dword v[1:2], v3
        s_endpgm
.Lcopy_v2_end:
        .size copy_v2, .Lcopy_v2_end - copy_v2

        .globl empty_v2
        .p2align 8
        .type empty_v2,@function
empty_v2:
        .amd_kernel_code_t
          amd_code_version_major = 1
          amd_code_version_minor = 2
          amd_machine_kind = 1
          amd_machine_version_major = 8
          amd_machine_version_minor = 0
          amd_machine_version_stepping = 3
          kernel_code_entry_byte_offset = 256
          granulated_workitem_vgpr_count = 0
          granulated_wavefront_sgpr_count = 0
          float_mode = 192
          enable_dx10_clamp = 1
          enable_ieee_mode = 1
          user_sgpr_count = 0
          granulated_lds_size = 2
          private_element_size = 1
          is_ptr64 = 1
          workgroup_group_segment_byte_size = 256
          wavefront_sgpr_count = 8
          workitem_vgpr_count = 1
          kernarg_segment_alignment = 4
          group_segment_alignment = 4
          private_segment_alignment = 4
          wavefront_size = 6
        .end_amd_kernel_code_t
        s_endpgm
.Lempty_v2_end:
        .size empty_v2, .Lempty_v2_end - empty_v2
