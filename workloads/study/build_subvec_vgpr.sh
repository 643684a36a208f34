#!/bin/sh
# Rebuilds the study code objects of subvec_vgpr*.yaml (needs LLVM 19).
set -e
cd "$(dirname "$0")"
as() { clang-19 -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx1030 -c -o "$2" "$1"; }
as subvec_vgpr.s /tmp/subvec_vgpr.o
ld.lld-19 -shared -o subvec_vgpr.hsaco /tmp/subvec_vgpr.o
cat subvec_vgpr.s subvec_vgpr_note.s > /tmp/subvec_vgpr_note.s
as /tmp/subvec_vgpr_note.s /tmp/subvec_vgpr_note.o
ld.lld-19 -shared -o subvec_vgpr_note.hsaco /tmp/subvec_vgpr_note.o
# Breaks the shared-region contract on purpose (the store reads v103 after
# its window): for the lockstep test that the checker stops there.
sed 's/global_store_dword v2, v5, s\[6:7\]/global_store_dword v2, v103, s[6:7]/' subvec_vgpr.s > /tmp/subvec_vgpr_broken.s
as /tmp/subvec_vgpr_broken.s /tmp/subvec_vgpr_broken.o
ld.lld-19 -shared -o subvec_vgpr_broken.hsaco /tmp/subvec_vgpr_broken.o
