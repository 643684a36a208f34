#!/usr/bin/env python3
"""Turn an ld.lld-19 output linked from llvm-mc's amd_kernel_code_t object
into a code object v2: set e_ident[EI_OSABI] = ELFOSABI_AMDGPU_HSA (64) and
e_ident[EI_ABIVERSION] = 0 (HSA v2), and give the kernel symbols the type
STT_AMDGPU_HSA_KERNEL (10) that v2 producers used. LLVM 19 cannot do this
itself (it dropped code object v2), see docs/code-objects.md.

usage: patch_v2.py FILE KERNEL...
"""
import struct
import sys

path, kernels = sys.argv[1], set(sys.argv[2:])
data = bytearray(open(path, "rb").read())
assert data[:4] == b"\x7fELF" and data[4] == 2, "not ELF64"
data[7] = 64  # ELFOSABI_AMDGPU_HSA
data[8] = 0   # ELFABIVERSION_AMDGPU_HSA_V2
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
patched = 0
for (_name, typ, _flags, _addr, off, size, link, _info, _align, entsize) in sections:
    if typ not in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
        continue
    stroff = sections[link][4]
    for s in range(off, off + size, entsize):
        st_name, st_info = struct.unpack_from("<IB", data, s)
        end = data.index(0, stroff + st_name)
        name = data[stroff + st_name:end].decode()
        if name in kernels and st_info & 0xF == 2:  # STT_FUNC
            data[s + 4] = (st_info & 0xF0) | 10
            patched += 1
assert patched >= len(kernels), f"patched {patched} symbols for {sorted(kernels)}"
open(path, "wb").write(data)
