#!/usr/bin/env bash
# Rebuilds the code object fixtures in this directory and the LLVM outputs the
# tests compare against. Needs clang-19, llvm-mc-19, ld.lld-19, llvm-readelf-19,
# llvm-objdump-19 and python3. Run from anywhere:
#   bash hw/arch/tests/data/code_object/make.sh
#
# Fixtures (code objects are ELF64 shared objects, as the ROCm loader wants):
#   gfx803.co       kernels.cl, gfx803, code object v5 (LLVM 19 default)
#   gfx1030.co      kernels.cl, gfx1030 wave32, v5
#   gfx1030_w64.co  kernels.cl, gfx1030 -mwavefrontsize64, v5
#   gfx1030_v4.co   kernels.cl, gfx1030 wave32, code object v4
#   v2_gfx803.co    v2_gfx803.s: code object v2 (amd_kernel_code_t + NT_AMD_HSA_*
#                   notes + YAML metadata), hand-written because LLVM 19 cannot
#                   emit v2; patch_v2.py fixes the ELF header and symbol types.
# Next to each FILE.co: FILE.notes.txt (llvm-readelf-19 --notes),
# FILE.rodata.txt (llvm-objdump-19 -s -j .rodata, the kernel descriptors) and
# FILE.dis.txt (llvm-objdump-19 -d).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cl() { # out mcpu extra-flags...
  local out=$1 mcpu=$2
  shift 2
  clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$mcpu" -O3 -nogpulib -cl-kernel-arg-info \
    "$@" -c kernels.cl -o "$tmp/$out.o"
  ld.lld-19 -shared "$tmp/$out.o" -o "$out.co"
}

cl gfx803 gfx803
cl gfx1030 gfx1030
cl gfx1030_w64 gfx1030 -mwavefrontsize64
cl gfx1030_v4 gfx1030 -mcode-object-version=4

llvm-mc-19 -triple=amdgcn-- -mcpu=gfx803 -filetype=obj v2_gfx803.s -o "$tmp/v2.o"
ld.lld-19 -shared "$tmp/v2.o" -o v2_gfx803.co
# llvm-objdump-19 refuses STT_AMDGPU_HSA_KERNEL symbols ("code object v2 is not
# supported"), so the v2 disassembly is taken before the symbol types are patched
# (its first 256 bytes per kernel are the amd_kernel_code_t, printed as garbage).
llvm-objdump-19 -d v2_gfx803.co | sed 1,2d > v2_gfx803.dis.txt
python3 patch_v2.py v2_gfx803.co copy_v2 empty_v2

llvm-readelf-19 --notes v2_gfx803.co > v2_gfx803.notes.txt

for base in gfx803 gfx1030 gfx1030_w64 gfx1030_v4; do
  llvm-readelf-19 --notes "$base.co" > "$base.notes.txt"
  # sed drops llvm-objdump's file-name header so the text does not depend on the path.
  llvm-objdump-19 -s -j .rodata "$base.co" | sed 1,3d > "$base.rodata.txt"
  llvm-objdump-19 -d "$base.co" | sed 1,2d > "$base.dis.txt"
done
