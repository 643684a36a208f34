//! AMDGPU code objects (ELF64): read v2 (`amd_kernel_code_t`) and v4/v5 (kernel
//! descriptors, MessagePack metadata); write v5.
