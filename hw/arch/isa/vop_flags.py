#!/usr/bin/env python3
"""Generates hw/arch/src/isa/family/vop/flags.rs: which modifiers and extension
encodings LLVM 19 accepts per VOP opcode (clamp, omod, op_sel, neg/abs per source
for VOP3; SDWA, DPP16, DPP8 for VOP1/VOP2/VOPC).

The facts come from llvm-mc-19 itself: for every row of hw/arch/isa/<isa>/VOP*.isa
one probe line per feature is assembled, and a feature is allowed when its line
assembles. Run: python3 hw/arch/isa/vop_flags.py [OUTPUT] (default: flags.rs in place).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, '..', 'src', 'isa', 'family', 'vop', 'flags.rs')
DWORDS = {'b64': 2, 'f64': 2, 'b96': 3, 'b128': 4}
BITS = ['CLAMP', 'OMOD', 'OP_SEL', 'NEG0', 'NEG1', 'NEG2', 'ABS0', 'ABS1', 'ABS2', 'SDWA', 'DPP16', 'DPP8',
        'SEXT0', 'SEXT1', 'SEXT2', 'DPP_NEG0', 'DPP_NEG1', 'DPP_SEXT0', 'DPP_SEXT1',
        'SDWA_NEG0', 'SDWA_NEG1', 'SDWA_SEXT0', 'SDWA_SEXT1', 'OP_SEL2']


def rows(isa, fam):
    path = os.path.join(ROOT, isa, fam + '.isa')
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith('#'):
            p = line.split()
            out.append((int(p[0]), p[1], [tuple(x.split(':')) for x in p[2:]]))
    return out


def reg(prefix, n, ty):
    d = DWORDS.get(ty, 1)
    return f'{prefix}{n}' if d == 1 else f'{prefix}[{n}:{n + d - 1}]'


def operands(isa, ops, mods=None, style='vop3'):
    parts = []
    for field, ty in ops:
        if field == 'vdst':
            parts.append(reg('v', 10, ty))
        elif field == 'sdst':
            parts.append('s[4:5]' if isa == 'gfx803' and ty == 'lanemask' else 's4')
        elif field == 'vcc':
            parts.append('vcc' if isa == 'gfx803' else 'vcc_lo')
        elif field == 'k':
            parts.append('0x41200000')
        else:
            i = int(field[3])
            if ty == 'lanemask':
                parts.append('s[20:21]' if isa == 'gfx803' else 's20')
                continue
            v = reg('v', 2 + 4 * i, ty)
            if mods and i in mods:
                v = mods[i](v)
            parts.append(v)
    return ', '.join(parts)


def accepted(isa, lines):
    """Indices of the lines llvm-mc assembles without error."""
    r = subprocess.run(['llvm-mc-19', '-arch=amdgcn', '-mcpu=' + isa, '-show-encoding'],
                       input='\n'.join(lines) + '\n', capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r'<stdin>:(\d+):\d+: error', r.stderr)}
    return {i for i in range(len(lines)) if i not in bad}


def probe(isa):
    e32 = {mn for fam in ('VOP1', 'VOP2', 'VOPC') for _, mn, _ in rows(isa, fam)}
    tables = {}
    lines, owners = [], []
    for fam in ('VOP1', 'VOP2', 'VOPC', 'VOP3'):
        for number, mn, ops in rows(isa, fam):
            nsrc = sum(1 for f, _ in ops if f.startswith('src'))
            probes = {}
            if fam == 'VOP3':
                head = mn + ('_e64' if mn in e32 else '') + ' '
                body = operands(isa, ops)
                probes['CLAMP'] = head + body + ' clamp'
                probes['OMOD'] = head + body + ' mul:2'
                if isa == 'gfx1030':
                    probes['OP_SEL'] = head + body + ' op_sel:[' + ','.join(['1'] + ['0'] * nsrc) + ']'
                    # v_permlane*: op_sel is two bits (fi, bound_ctrl), printed as a pair;
                    # their src1/src2 are SGPRs.
                    pbody = body
                    if mn.startswith('v_permlane'):
                        dst, rest = body.split(',', 1)
                        pbody = dst + rest.replace('v6', 's6').replace('v10', 's10')
                    probes['OP_SEL2'] = head + pbody + ' op_sel:[1,0]'
                lanemask = {int(f[3]) for f, ty in ops if f.startswith('src') and ty == 'lanemask'}
                for i in (i for i in range(nsrc) if i not in lanemask):
                    probes[f'NEG{i}'] = head + operands(isa, ops, {i: lambda v: '-' + v})
                    probes[f'ABS{i}'] = head + operands(isa, ops, {i: lambda v: '|' + v + '|'})
                    probes[f'SEXT{i}'] = head + operands(isa, ops, {i: lambda v: 'sext(' + v + ')'})
            else:
                body = operands(isa, ops)
                has1 = any(f == 'src1' for f, _ in ops)
                sels = ' src0_sel:DWORD' + (' src1_sel:DWORD' if has1 else '')
                if fam != 'VOPC':
                    sels = ' dst_sel:DWORD dst_unused:UNUSED_PAD' + sels
                probes['SDWA'] = mn + '_sdwa ' + body + sels
                dpp = ' quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf'
                probes['DPP16'] = mn + '_dpp ' + body + dpp
                lanemask = {int(f[3]) for f, ty in ops if f.startswith('src') and ty == 'lanemask'}
                for i in (i for i in range(min(nsrc, 2)) if i not in lanemask):
                    neg = operands(isa, ops, {i: lambda v: '-' + v})
                    sext = operands(isa, ops, {i: lambda v: 'sext(' + v + ')'})
                    probes[f'DPP_NEG{i}'] = mn + '_dpp ' + neg + dpp
                    probes[f'DPP_SEXT{i}'] = mn + '_dpp ' + sext + dpp
                    probes[f'SDWA_NEG{i}'] = mn + '_sdwa ' + neg + sels
                    probes[f'SDWA_SEXT{i}'] = mn + '_sdwa ' + sext + sels
                if isa == 'gfx1030':
                    probes['DPP8'] = mn + '_dpp ' + body + ' dpp8:[0,1,2,3,4,5,6,7]'
            for bit, line in probes.items():
                lines.append(line)
                owners.append((fam, number, bit))
            tables.setdefault(fam, {})[number] = 0
    ok = accepted(isa, lines)
    for i, (fam, number, bit) in enumerate(owners):
        if i in ok:
            tables[fam][number] |= 1 << BITS.index(bit)
    return tables


def emit(all_tables, path):
    out = ['// @generated by hw/arch/isa/vop_flags.py from llvm-mc-19 — do not edit.',
           '//! Which modifiers and SDWA/DPP encodings LLVM accepts per VOP opcode',
           '//! (one probe assembled per feature and opcode).',
           '']
    for i, b in enumerate(BITS):
        out.append(f'/// Feature bit: `{b.lower()}` is accepted.')
        out.append(f'pub(super) const {b}: u32 = 1 << {i};')
    out.append('')
    sizes = {'VOP1': 256, 'VOP2': 64, 'VOPC': 256, 'VOP3': 1024}
    for isa, tables in all_tables:
        for fam in ('VOP1', 'VOP2', 'VOPC', 'VOP3'):
            n = sizes[fam]
            values = [tables.get(fam, {}).get(k, 0) for k in range(n)]
            name = f'{isa.upper()}_{fam}'
            out.append(f'/// Feature bits of {isa} {fam}, by opcode number.')
            out.append('#[rustfmt::skip]')
            out.append(f'pub(super) static {name}: [u32; {n}] = [')
            for k in range(0, n, 16):
                out.append('    ' + ', '.join(f'{v:#x}' for v in values[k:k + 16]) + ',')
            out.append('];')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    path = sys.argv[1] if len(sys.argv) > 1 else OUT
    emit([(isa, probe(isa)) for isa in ('gfx1030', 'gfx803')], path)
    print('wrote', os.path.normpath(path), file=sys.stderr)
