//! The textual IR (`gpusim compile --emit-ir`): one instruction a line,
//! `vN:type = op operands`, blocks as `blockN(params):`.

use std::fmt::{self, Write};

use super::function::{Function, ParamKind};
use super::instructions::{BlockCall, InstKind};
use super::Value;

/// The function as text.
pub fn print(f: &Function) -> String {
    let mut s = String::new();
    write_function(f, &mut s).expect("writing to a String cannot fail");
    s
}

fn vlist(vs: &[Value]) -> String {
    vs.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn call(c: &BlockCall) -> String {
    if c.args.is_empty() {
        c.block.to_string()
    } else {
        format!("{}({})", c.block, vlist(&c.args))
    }
}

/// Writes `f` to `out`.
pub fn write_function(f: &Function, out: &mut impl Write) -> fmt::Result {
    write!(out, "kernel @{}(", f.name)?;
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        let kind = match p.kind {
            ParamKind::ByValue | ParamKind::Aggregate { .. } => "by_value",
            ParamKind::GlobalBuffer => "global_buffer",
            ParamKind::LocalBuffer => "local_buffer",
            ParamKind::PrintfBuffer => "printf_buffer",
        };
        write!(out, "{}: {} {kind} \"{}\"", p.name, p.ty, p.type_name)?;
    }
    out.write_str(") {\n")?;
    if let Some(r) = f.reqd_workgroup_size {
        writeln!(out, "    reqd_work_group_size {} {} {}", r[0], r[1], r[2])?;
    }
    for (i, l) in f.locals.iter().enumerate() {
        writeln!(out, "    lds{i}: {} bytes, align {}", l.size, l.align)?;
    }
    for &b in f.blocks() {
        let data = f.block(b);
        if data.params.is_empty() {
            writeln!(out, "{b}:")?;
        } else {
            let ps: Vec<String> = data
                .params
                .iter()
                .map(|&p| format!("{p}:{}", f.ty(p)))
                .collect();
            writeln!(out, "{b}({}):", ps.join(", "))?;
        }
        for &i in &data.insts {
            let d = f.inst(i);
            out.write_str("    ")?;
            if let Some(r) = d.result {
                write!(out, "{r}:{} = ", f.ty(r))?;
            }
            write_inst(&d.kind, out)?;
            out.write_char('\n')?;
        }
    }
    out.write_str("}\n")
}

/// Writes one instruction (without its result).
pub fn write_inst(k: &InstKind, out: &mut impl Write) -> fmt::Result {
    match k {
        InstKind::Iconst { imm, .. } => write!(out, "iconst {imm}"),
        InstKind::Fconst { ty, bits } => {
            if *ty == super::Type::F32 {
                write!(out, "fconst {:?} ; {bits:#x}", f32::from_bits(*bits as u32))
            } else if *ty == super::Type::F16 {
                let x = super::half::f16_bits_to_f64(*bits as u16);
                write!(out, "fconst.f16 {x:?} ; {bits:#x}")
            } else {
                write!(out, "fconst {bits:#x}")
            }
        }
        InstKind::Unary { op, arg } => write!(out, "{} {arg}", op.name()),
        InstKind::Binary { op, args } => write!(out, "{} {}, {}", op.name(), args[0], args[1]),
        InstKind::Ternary { op, args } => {
            write!(out, "{} {}, {}, {}", op.name(), args[0], args[1], args[2])
        }
        InstKind::Icmp { cond, args } => {
            write!(out, "icmp {} {}, {}", cond.name(), args[0], args[1])
        }
        InstKind::Fcmp { cond, args } => {
            write!(out, "fcmp {} {}, {}", cond.name(), args[0], args[1])
        }
        InstKind::Select { cond, args } => {
            write!(out, "select {cond}, {}, {}", args[0], args[1])
        }
        InstKind::Convert { op, arg, .. } => write!(out, "{} {arg}", op.name()),
        InstKind::PtrAdd { base, offset } => write!(out, "ptr_add {base}, {offset}"),
        InstKind::Load { addr, .. } => write!(out, "load {addr}"),
        InstKind::Store { addr, value } => write!(out, "store {addr}, {value}"),
        InstKind::Atomic { op, addr, value } => {
            write!(out, "atomic_{} {addr}, {value}", op.name())
        }
        InstKind::AtomicCas { addr, cmp, value } => {
            write!(out, "atomic_cas {addr}, {cmp}, {value}")
        }
        InstKind::Barrier => out.write_str("barrier"),
        InstKind::Fence => out.write_str("fence"),
        InstKind::WorkItem { query, dim } => write!(out, "{} {dim}", query.name()),
        InstKind::KernelArg { index } => write!(out, "arg {index}"),
        InstKind::LocalAddr { var } => write!(out, "local_addr {var}"),
        InstKind::PrivateAddr { offset } => write!(out, "private_addr {offset}"),
        InstKind::DataAddr { index } => write!(out, "data_addr {index}"),
        InstKind::Call { builtin, args } => write!(out, "call {}({})", builtin.name(), vlist(args)),
        InstKind::Jump { dest } => write!(out, "jump {}", call(dest)),
        InstKind::Brif {
            cond,
            then_dest,
            else_dest,
        } => write!(out, "brif {cond}, {}, {}", call(then_dest), call(else_dest)),
        InstKind::Return => out.write_str("ret"),
    }
}
