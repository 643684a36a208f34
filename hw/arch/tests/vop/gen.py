#!/usr/bin/env python3
"""Regenerates the VOP regression data in this directory from LLVM 19:

- kernels.txt: every VALU instruction (mnemonic `v_*`) that clang-19 -O3 emits for
  kernels.cl on gfx1030 wave32, gfx1030 wave64 and gfx803, with the bytes and the
  text llvm-objdump-19 prints for it;
- asm.txt: what llvm-mc-19 assembles each hand-written line of asm_<target>.s to
  (suffix-less mnemonics, so the assembler's choice of encoding is pinned down).

Line format: TARGET|BYTES|TEXT[|asmonly]. usage: gen.py [OUTDIR] (default: here).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = [('gfx1030', 'gfx1030', []), ('gfx1030-w64', 'gfx1030', ['+wavefrontsize64']), ('gfx803', 'gfx803', [])]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout


def kernel_lines(tmp):
    out = []
    for name, mcpu, attrs in TARGETS:
        obj, so = os.path.join(tmp, name + '.o'), os.path.join(tmp, name + '.hsaco')
        wave = ['-mwavefrontsize64'] if attrs else []
        run(['clang-19', '-x', 'cl', '-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa', '-mcpu=' + mcpu, *wave,
             '-O3', '-nogpulib', '-c', os.path.join(HERE, 'kernels.cl'), '-o', obj])
        run(['ld.lld-19', '-shared', obj, '-o', so])
        mattr = ['--mattr=' + ','.join(attrs)] if attrs else []
        dis = run(['llvm-objdump-19', '-d', '--mcpu=' + mcpu, *mattr, so])
        for line in dis.splitlines():
            m = re.match(r'\s+(\S.*?)\s*// [0-9A-F]+: ([0-9A-F ]+)$', line)
            if not m or not m.group(1).startswith('v_'):
                continue
            data = b''.join(int(w, 16).to_bytes(4, 'little') for w in m.group(2).split())
            out.append(f"{name}|{','.join('0x%02x' % b for b in data)}|{m.group(1).strip()}")
    return out


def asm_lines():
    out = []
    for name, mcpu, attrs in TARGETS:
        mattr = ['-mattr=' + ','.join(attrs)] if attrs else []
        for line in open(os.path.join(HERE, f'asm_{name}.s')):
            line = line.strip()
            if not line:
                continue
            res = run(['llvm-mc-19', '-arch=amdgcn', '-mcpu=' + mcpu, *mattr, '-show-encoding'], input=line + '\n')
            enc = re.search(r'encoding: \[([^\]]*)\]', res).group(1)
            out.append(f'{name}|{enc}|{line}|asmonly')
    return out


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else HERE
    with tempfile.TemporaryDirectory() as tmp:
        kernels = kernel_lines(tmp)
    with open(os.path.join(outdir, 'kernels.txt'), 'w') as f:
        f.write('\n'.join(kernels) + '\n')
    with open(os.path.join(outdir, 'asm.txt'), 'w') as f:
        f.write('\n'.join(asm_lines()) + '\n')


if __name__ == '__main__':
    main()
