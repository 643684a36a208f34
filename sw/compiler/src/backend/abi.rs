//! The kernel ABI this back end uses (LLVM AMDGPUUsage, code object v5):
//! where the kernel arguments and the hidden arguments sit in the kernarg
//! segment, and which SGPRs/VGPRs the hardware initialises at dispatch.

use arch::code_object::{AddressSpace, KernelArg, ValueKind};

use crate::ir::{AddrSpace, Function, ParamKind, Type};

/// Byte offsets of the kernarg segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernargLayout {
    /// Offset of each explicit parameter.
    pub params: Vec<u32>,
    /// Offset of the hidden arguments (8-aligned, after the explicit ones):
    /// `hidden_block_count_{x,y,z}` (u32) at +0/+4/+8, `hidden_group_size_{x,y,z}`
    /// (u16) at +12/+14/+16, `hidden_remainder_{x,y,z}` (u16) at +18/+20/+22 —
    /// the v5 implicit-argument layout.
    pub hidden: u32,
    /// Total bytes.
    pub size: u32,
    /// The segment holds `hidden_global_offset_{x,y,z}` and
    /// `hidden_grid_dims` (the kernel reads the offset or the dimension
    /// count). A launcher that sees them in the metadata may pass a
    /// non-zero offset, so `get_global_id` adds it in such a kernel.
    pub offsets: bool,
    /// The segment's alignment (`.kernarg_segment_align`): 8, or the
    /// largest parameter alignment when greater (a `float4` makes it 16).
    pub align: u32,
}

/// Offset of `hidden_printf_buffer` in the v5 implicit arguments (clang's
/// layout; ockl reads it as `implicitarg_ptr[9]`).
pub const PRINTF_BUFFER_OFFSET: u32 = 72;

/// Offset of `hidden_global_offset_x` in the v5 implicit arguments (`_y`
/// and `_z` follow, 8 bytes each).
pub const HIDDEN_GLOBAL_OFFSET: u32 = 40;
/// Offset of `hidden_grid_dims` (u16) in the v5 implicit arguments.
pub const HIDDEN_GRID_DIMS: u32 = 64;

/// True when `f` reads the global offset or the dimension count: only
/// then does its segment hold those hidden arguments (the segment of a
/// kernel that does not stays as it was).
fn uses_offsets_or_dims(f: &Function) -> bool {
    f.blocks().iter().any(|&b| {
        f.block(b).insts.iter().any(|&i| {
            matches!(
                f.inst(i).kind,
                crate::ir::InstKind::WorkItem {
                    query: crate::ir::WorkItemQuery::GlobalOffset
                        | crate::ir::WorkItemQuery::WorkDim,
                    ..
                }
            )
        })
    })
}

/// Bytes a parameter of type `ty` takes in the kernarg segment.
pub fn param_size(ty: Type) -> u32 {
    match ty {
        Type::Ptr(AddrSpace::Global | AddrSpace::Constant) => 8,
        t => t.bytes().max(1),
    }
}

/// Bytes and alignment of parameter `p` in the kernarg segment.
fn param_layout(p: &crate::ir::Param) -> (u32, u32) {
    match p.kind {
        ParamKind::Aggregate { size, align } => (size, align),
        _ => (param_size(p.ty), param_size(p.ty)),
    }
}

impl KernargLayout {
    /// Lays out `f`'s parameters at their natural alignment; with
    /// `global_offsets` the segment holds the hidden offsets whether or not
    /// `f` reads them.
    pub fn of(f: &Function, global_offsets: bool) -> KernargLayout {
        let mut at = 0u32;
        let mut params = Vec::new();
        let mut max_align = 8;
        for p in &f.params {
            if p.kind == ParamKind::PrintfBuffer {
                // Placed with the hidden arguments below.
                params.push(0);
                continue;
            }
            let (size, align) = param_layout(p);
            at = at.next_multiple_of(align);
            params.push(at);
            at += size;
            max_align = max_align.max(align);
        }
        let hidden = at.next_multiple_of(8);
        let mut size = hidden + 24;
        let offsets = global_offsets || uses_offsets_or_dims(f);
        if offsets {
            size = hidden + HIDDEN_GRID_DIMS + 2;
        }
        for (p, offset) in f.params.iter().zip(params.iter_mut()) {
            if p.kind == ParamKind::PrintfBuffer {
                *offset = hidden + PRINTF_BUFFER_OFFSET;
                size = hidden + PRINTF_BUFFER_OFFSET + 8;
            }
        }
        KernargLayout {
            params,
            hidden,
            size,
            offsets,
            align: max_align,
        }
    }

    /// The metadata argument list: explicit then hidden arguments.
    pub fn metadata_args(&self, f: &Function) -> Vec<KernelArg> {
        let mut out = Vec::new();
        let mut printf = None;
        for (p, &offset) in f.params.iter().zip(&self.params) {
            let (value_kind, address_space) = match p.kind {
                ParamKind::PrintfBuffer => {
                    printf = Some(offset);
                    continue;
                }
                ParamKind::ByValue | ParamKind::Aggregate { .. } => (ValueKind::ByValue, None),
                ParamKind::GlobalBuffer => (
                    ValueKind::GlobalBuffer,
                    Some(if p.ty == Type::Ptr(AddrSpace::Constant) {
                        AddressSpace::Constant
                    } else {
                        AddressSpace::Global
                    }),
                ),
                ParamKind::LocalBuffer => {
                    (ValueKind::DynamicSharedPointer, Some(AddressSpace::Local))
                }
            };
            let mut a = kernel_arg(offset, param_layout(p).0, value_kind);
            a.name = Some(p.name.clone());
            a.type_name = Some(p.type_name.clone());
            a.address_space = address_space;
            a.is_const = p.qualifiers.is_const;
            a.is_volatile = p.qualifiers.is_volatile;
            a.is_restrict = p.qualifiers.is_restrict;
            a.pointee_align = (p.kind == ParamKind::LocalBuffer).then_some(match p.pointee_align {
                0 => 4,
                known => known,
            });
            out.push(a);
        }
        let hidden = [
            (ValueKind::HiddenBlockCountX, 0, 4),
            (ValueKind::HiddenBlockCountY, 4, 4),
            (ValueKind::HiddenBlockCountZ, 8, 4),
            (ValueKind::HiddenGroupSizeX, 12, 2),
            (ValueKind::HiddenGroupSizeY, 14, 2),
            (ValueKind::HiddenGroupSizeZ, 16, 2),
            (ValueKind::HiddenRemainderX, 18, 2),
            (ValueKind::HiddenRemainderY, 20, 2),
            (ValueKind::HiddenRemainderZ, 22, 2),
        ];
        for (value_kind, at, size) in hidden {
            out.push(kernel_arg(self.hidden + at, size, value_kind));
        }
        if self.offsets {
            for (value_kind, at, size) in [
                (ValueKind::HiddenGlobalOffsetX, HIDDEN_GLOBAL_OFFSET, 8),
                (ValueKind::HiddenGlobalOffsetY, HIDDEN_GLOBAL_OFFSET + 8, 8),
                (ValueKind::HiddenGlobalOffsetZ, HIDDEN_GLOBAL_OFFSET + 16, 8),
                (ValueKind::HiddenGridDims, HIDDEN_GRID_DIMS, 2),
            ] {
                out.push(kernel_arg(self.hidden + at, size, value_kind));
            }
        }
        if let Some(offset) = printf {
            out.push(kernel_arg(offset, 8, ValueKind::HiddenPrintfBuffer));
        }
        out
    }
}

/// An argument entry with only its place and kind set.
fn kernel_arg(offset: u32, size: u32, value_kind: ValueKind) -> KernelArg {
    KernelArg {
        name: None,
        type_name: None,
        offset,
        size,
        value_kind,
        address_space: None,
        access: None,
        actual_access: None,
        pointee_align: None,
        is_const: false,
        is_restrict: false,
        is_volatile: false,
        is_pipe: false,
    }
}

/// SGPRs initialised at dispatch: the kernarg segment pointer in `s[0:1]`
/// (the only user SGPR enabled), then the enabled workgroup ids.
pub const KERNARG_PTR_SGPR: u16 = 0;
/// User SGPRs (`COMPUTE_PGM_RSRC2.USER_SGPR_COUNT`).
pub const USER_SGPRS: u16 = 2;
