//! Kernel metadata: the `NT_AMDGPU_METADATA` MessagePack map of code object
//! v3+ (`amdhsa.version`, `amdhsa.target`, `amdhsa.kernels`) and the
//! `NT_AMD_HSA_METADATA` YAML document (`Version`, `Kernels`) of later v2
//! producers, both read into the same [`CodeObjectMetadata`].

use rmpv::Value;

use super::error::CodeObjectError;

macro_rules! named_enum {
    ($(#[$m:meta])* $ty:ident { $($(#[$vm:meta])* $v:ident => $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $ty {
            $($(#[$vm])* $v,)*
            /// A name this reader does not know, kept as written.
            Other(String),
        }

        impl $ty {
            /// The name used in v3+ metadata (`.value_kind: global_buffer`).
            pub fn name(&self) -> &str {
                match self {
                    $($ty::$v => $s,)*
                    $ty::Other(s) => s,
                }
            }

            /// Parses [`Self::name`]; unknown names become `Other`.
            pub fn from_name(s: &str) -> Self {
                match s {
                    $($s => $ty::$v,)*
                    _ => $ty::Other(s.to_string()),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// What a kernel argument is, and so how the dispatcher fills it.
    ValueKind {
        /// Copied by value into the kernarg segment.
        ByValue => "by_value",
        /// A pointer to global memory.
        GlobalBuffer => "global_buffer",
        /// A `__local` pointer: the dispatcher allocates LDS and passes its offset.
        DynamicSharedPointer => "dynamic_shared_pointer",
        /// An image sampler handle.
        Sampler => "sampler",
        /// An image handle.
        Image => "image",
        /// A pipe.
        Pipe => "pipe",
        /// A device-enqueue queue.
        Queue => "queue",
        /// Hidden: global offset X (OpenCL `get_global_offset(0)`).
        HiddenGlobalOffsetX => "hidden_global_offset_x",
        /// Hidden: global offset Y.
        HiddenGlobalOffsetY => "hidden_global_offset_y",
        /// Hidden: global offset Z.
        HiddenGlobalOffsetZ => "hidden_global_offset_z",
        /// Hidden: padding the kernel does not read.
        HiddenNone => "hidden_none",
        /// Hidden: printf buffer pointer.
        HiddenPrintfBuffer => "hidden_printf_buffer",
        /// Hidden: hostcall buffer pointer.
        HiddenHostcallBuffer => "hidden_hostcall_buffer",
        /// Hidden: default device queue.
        HiddenDefaultQueue => "hidden_default_queue",
        /// Hidden: completion action.
        HiddenCompletionAction => "hidden_completion_action",
        /// Hidden: multi-grid synchronisation argument.
        HiddenMultigridSyncArg => "hidden_multigrid_sync_arg",
        /// Hidden (v5): workgroups in X.
        HiddenBlockCountX => "hidden_block_count_x",
        /// Hidden (v5): workgroups in Y.
        HiddenBlockCountY => "hidden_block_count_y",
        /// Hidden (v5): workgroups in Z.
        HiddenBlockCountZ => "hidden_block_count_z",
        /// Hidden (v5): workgroup size X.
        HiddenGroupSizeX => "hidden_group_size_x",
        /// Hidden (v5): workgroup size Y.
        HiddenGroupSizeY => "hidden_group_size_y",
        /// Hidden (v5): workgroup size Z.
        HiddenGroupSizeZ => "hidden_group_size_z",
        /// Hidden (v5): size of the partial last workgroup in X.
        HiddenRemainderX => "hidden_remainder_x",
        /// Hidden (v5): remainder in Y.
        HiddenRemainderY => "hidden_remainder_y",
        /// Hidden (v5): remainder in Z.
        HiddenRemainderZ => "hidden_remainder_z",
        /// Hidden (v5): grid dimensions (1..3).
        HiddenGridDims => "hidden_grid_dims",
        /// Hidden (v5): heap pointer.
        HiddenHeapV1 => "hidden_heap_v1",
        /// Hidden (v5): dynamic LDS size.
        HiddenDynamicLdsSize => "hidden_dynamic_lds_size",
        /// Hidden (v5): private aperture base.
        HiddenPrivateBase => "hidden_private_base",
        /// Hidden (v5): shared aperture base.
        HiddenSharedBase => "hidden_shared_base",
        /// Hidden (v5): queue pointer.
        HiddenQueuePtr => "hidden_queue_ptr",
    }
}

named_enum! {
    /// The address space a pointer argument points into.
    AddressSpace {
        /// Scratch.
        Private => "private",
        /// Global memory.
        Global => "global",
        /// Constant (read-only global) memory.
        Constant => "constant",
        /// LDS.
        Local => "local",
        /// Flat.
        Generic => "generic",
        /// GDS.
        Region => "region",
    }
}

named_enum! {
    /// How a kernel accesses an argument.
    Access {
        /// Read only.
        ReadOnly => "read_only",
        /// Write only.
        WriteOnly => "write_only",
        /// Read and write.
        ReadWrite => "read_write",
    }
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    /// Source name (`.name`).
    pub name: Option<String>,
    /// Source type (`.type_name`, e.g. `float*`).
    pub type_name: Option<String>,
    /// Byte offset in the kernarg segment.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// What the argument is.
    pub value_kind: ValueKind,
    /// Pointee address space, for pointers.
    pub address_space: Option<AddressSpace>,
    /// Declared access qualifier.
    pub access: Option<Access>,
    /// Access the compiler proved.
    pub actual_access: Option<Access>,
    /// Alignment of the pointee, for `__local` pointers.
    pub pointee_align: Option<u32>,
    /// `const` pointee.
    pub is_const: bool,
    /// `restrict` pointer.
    pub is_restrict: bool,
    /// `volatile` pointee.
    pub is_volatile: bool,
    /// Pipe argument.
    pub is_pipe: bool,
}

/// The metadata of one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelMetadata {
    /// Source name of the kernel.
    pub name: String,
    /// Descriptor symbol (`NAME.kd`; v2: the kernel symbol `NAME@kd` as written).
    pub symbol: String,
    /// Source language (`OpenCL C`).
    pub language: Option<String>,
    /// Language version, e.g. `[2, 0]`.
    pub language_version: Option<[u32; 2]>,
    /// Arguments in kernarg order.
    pub args: Vec<KernelArg>,
    /// Bytes of static LDS.
    pub group_segment_fixed_size: u32,
    /// Bytes of static scratch per work-item.
    pub private_segment_fixed_size: u32,
    /// Bytes of kernarg segment (including hidden arguments).
    pub kernarg_segment_size: u32,
    /// Kernarg segment alignment in bytes.
    pub kernarg_segment_align: u32,
    /// 32 or 64.
    pub wavefront_size: u32,
    /// SGPRs used (including VCC, flat scratch, XNACK).
    pub sgpr_count: u32,
    /// VGPRs used.
    pub vgpr_count: u32,
    /// AGPRs used (gfx90a+).
    pub agpr_count: Option<u32>,
    /// SGPRs spilled.
    pub sgpr_spill_count: Option<u32>,
    /// VGPRs spilled.
    pub vgpr_spill_count: Option<u32>,
    /// Largest workgroup the kernel supports.
    pub max_flat_workgroup_size: u32,
    /// `reqd_work_group_size` attribute.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `work_group_size_hint` attribute.
    pub workgroup_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint` attribute: the type as OpenCL C spells it (`uchar2`).
    pub vec_type_hint: Option<String>,
    /// The kernel uses a dynamically sized stack.
    pub uses_dynamic_stack: Option<bool>,
    /// gfx10+: compiled for WGP mode.
    pub workgroup_processor_mode: Option<bool>,
    /// `.kind` (`normal`, `init`, `fini`).
    pub kind: Option<String>,
}

/// The metadata of a code object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeObjectMetadata {
    /// `amdhsa.version` (v2: `Version`): 1.0 = v3, 1.1 = v4, 1.2 = v5.
    pub version: [u32; 2],
    /// `amdhsa.target`, e.g. `amdgcn-amd-amdhsa--gfx1030` (v4+).
    pub target: Option<String>,
    /// `amdhsa.printf` format strings.
    pub printf: Vec<String>,
    /// One entry per kernel.
    pub kernels: Vec<KernelMetadata>,
}

/// Reads metadata fields, naming the path to a bad one in errors.
struct Reader {
    format: &'static str,
    offset: u64,
}

type Map = [(Value, Value)];

impl Reader {
    /// Kernel names and symbols must be unique (a loader could not tell the
    /// kernels apart, and each kernel's code is copied out once).
    fn unique(&self, kernels: &[KernelMetadata]) -> Result<(), CodeObjectError> {
        let mut seen = std::collections::HashSet::new();
        for k in kernels {
            if !seen.insert(("name", k.name.as_str()))
                || !seen.insert(("symbol", k.symbol.as_str()))
            {
                return Err(self.err(format!(
                    "two kernels are called `{}` or use symbol `{}`",
                    k.name, k.symbol
                )));
            }
        }
        Ok(())
    }

    fn err(&self, reason: String) -> CodeObjectError {
        CodeObjectError::BadMetadata {
            format: self.format,
            offset: self.offset,
            reason,
        }
    }

    fn map<'v>(&self, v: &'v Value, what: &str) -> Result<&'v Map, CodeObjectError> {
        v.as_map()
            .map(Vec::as_slice)
            .ok_or_else(|| self.err(format!("{what} is not a map")))
    }

    fn get<'v>(&self, m: &'v Map, key: &str) -> Option<&'v Value> {
        m.iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    fn req<'v>(&self, m: &'v Map, key: &str, ctx: &str) -> Result<&'v Value, CodeObjectError> {
        self.get(m, key)
            .ok_or_else(|| self.err(format!("{ctx}: missing `{key}`")))
    }

    fn u32_of(&self, v: &Value, key: &str, ctx: &str) -> Result<u32, CodeObjectError> {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                self.err(format!(
                    "{ctx}: `{key}` is {v}, not a 32-bit unsigned integer"
                ))
            })
    }

    fn req_u32(&self, m: &Map, key: &str, ctx: &str) -> Result<u32, CodeObjectError> {
        self.u32_of(self.req(m, key, ctx)?, key, ctx)
    }

    fn opt_u32(&self, m: &Map, key: &str, ctx: &str) -> Result<Option<u32>, CodeObjectError> {
        self.get(m, key)
            .map(|v| self.u32_of(v, key, ctx))
            .transpose()
    }

    fn opt_str(&self, m: &Map, key: &str, ctx: &str) -> Result<Option<String>, CodeObjectError> {
        match self.get(m, key) {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| self.err(format!("{ctx}: `{key}` is {v}, not a string"))),
        }
    }

    fn req_str(&self, m: &Map, key: &str, ctx: &str) -> Result<String, CodeObjectError> {
        self.opt_str(m, key, ctx)?
            .ok_or_else(|| self.err(format!("{ctx}: missing `{key}`")))
    }

    /// Booleans may be written as `true`/`false` or as integers.
    fn opt_bool(&self, m: &Map, key: &str, ctx: &str) -> Result<Option<bool>, CodeObjectError> {
        match self.get(m, key) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => match v.as_u64() {
                Some(n) => Ok(Some(n != 0)),
                None => Err(self.err(format!("{ctx}: `{key}` is {v}, not a boolean"))),
            },
        }
    }

    fn opt_array<const N: usize>(
        &self,
        m: &Map,
        key: &str,
        ctx: &str,
    ) -> Result<Option<[u32; N]>, CodeObjectError> {
        let Some(v) = self.get(m, key) else {
            return Ok(None);
        };
        let items = v.as_array().filter(|a| a.len() == N);
        let items = items.ok_or_else(|| {
            self.err(format!("{ctx}: `{key}` is {v}, not a list of {N} integers"))
        })?;
        let mut out = [0u32; N];
        for (o, item) in out.iter_mut().zip(items) {
            *o = self.u32_of(item, key, ctx)?;
        }
        Ok(Some(out))
    }

    fn list<'v>(&self, m: &'v Map, key: &str, ctx: &str) -> Result<&'v [Value], CodeObjectError> {
        match self.get(m, key) {
            None | Some(Value::Nil) => Ok(&[]),
            Some(v) => v
                .as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| self.err(format!("{ctx}: `{key}` is not a list"))),
        }
    }
}

/// Decodes the `NT_AMDGPU_METADATA` MessagePack map (code object v3+).
/// `offset` is the note descriptor's byte offset, for errors.
pub(crate) fn parse_msgpack(
    bytes: &[u8],
    offset: u64,
) -> Result<CodeObjectMetadata, CodeObjectError> {
    let r = Reader {
        format: "MessagePack",
        offset,
    };
    let mut rd = bytes;
    let root =
        rmpv::decode::read_value_with_max_depth(&mut rd, 64).map_err(|e| r.err(e.to_string()))?;
    let m = r.map(&root, "the document")?;
    let version = r
        .opt_array::<2>(m, "amdhsa.version", "top level")?
        .ok_or_else(|| r.err("missing `amdhsa.version`".into()))?;
    let target = r.opt_str(m, "amdhsa.target", "top level")?;
    let printf = r
        .list(m, "amdhsa.printf", "top level")?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| r.err("`amdhsa.printf` entry is not a string".into()))
        })
        .collect::<Result<_, _>>()?;
    let mut kernels = Vec::new();
    for (i, k) in r.list(m, "amdhsa.kernels", "top level")?.iter().enumerate() {
        let km = r.map(k, &format!("kernel {i}"))?;
        let name = r.req_str(km, ".name", &format!("kernel {i}"))?;
        let ctx = format!("kernel `{name}`");
        let mut args = Vec::new();
        for (j, a) in r.list(km, ".args", &ctx)?.iter().enumerate() {
            let actx = format!("{ctx} argument {j}");
            let am = r.map(a, &actx)?;
            let access = |key| {
                Ok::<_, CodeObjectError>(r.opt_str(am, key, &actx)?.map(|s| Access::from_name(&s)))
            };
            args.push(KernelArg {
                name: r.opt_str(am, ".name", &actx)?,
                type_name: r.opt_str(am, ".type_name", &actx)?,
                offset: r.req_u32(am, ".offset", &actx)?,
                size: r.req_u32(am, ".size", &actx)?,
                value_kind: ValueKind::from_name(&r.req_str(am, ".value_kind", &actx)?),
                address_space: r
                    .opt_str(am, ".address_space", &actx)?
                    .map(|s| AddressSpace::from_name(&s)),
                access: access(".access")?,
                actual_access: access(".actual_access")?,
                pointee_align: r.opt_u32(am, ".pointee_align", &actx)?,
                is_const: r.opt_bool(am, ".is_const", &actx)?.unwrap_or(false),
                is_restrict: r.opt_bool(am, ".is_restrict", &actx)?.unwrap_or(false),
                is_volatile: r.opt_bool(am, ".is_volatile", &actx)?.unwrap_or(false),
                is_pipe: r.opt_bool(am, ".is_pipe", &actx)?.unwrap_or(false),
            });
        }
        kernels.push(KernelMetadata {
            symbol: r.req_str(km, ".symbol", &ctx)?,
            language: r.opt_str(km, ".language", &ctx)?,
            language_version: r.opt_array::<2>(km, ".language_version", &ctx)?,
            args,
            group_segment_fixed_size: r.req_u32(km, ".group_segment_fixed_size", &ctx)?,
            private_segment_fixed_size: r.req_u32(km, ".private_segment_fixed_size", &ctx)?,
            kernarg_segment_size: r.req_u32(km, ".kernarg_segment_size", &ctx)?,
            kernarg_segment_align: r.req_u32(km, ".kernarg_segment_align", &ctx)?,
            wavefront_size: r.req_u32(km, ".wavefront_size", &ctx)?,
            sgpr_count: r.req_u32(km, ".sgpr_count", &ctx)?,
            vgpr_count: r.req_u32(km, ".vgpr_count", &ctx)?,
            agpr_count: r.opt_u32(km, ".agpr_count", &ctx)?,
            sgpr_spill_count: r.opt_u32(km, ".sgpr_spill_count", &ctx)?,
            vgpr_spill_count: r.opt_u32(km, ".vgpr_spill_count", &ctx)?,
            max_flat_workgroup_size: r.req_u32(km, ".max_flat_workgroup_size", &ctx)?,
            reqd_workgroup_size: r.opt_array::<3>(km, ".reqd_workgroup_size", &ctx)?,
            workgroup_size_hint: r.opt_array::<3>(km, ".workgroup_size_hint", &ctx)?,
            vec_type_hint: r.opt_str(km, ".vec_type_hint", &ctx)?,
            uses_dynamic_stack: r.opt_bool(km, ".uses_dynamic_stack", &ctx)?,
            workgroup_processor_mode: r.opt_bool(km, ".workgroup_processor_mode", &ctx)?,
            kind: r.opt_str(km, ".kind", &ctx)?,
            name,
        });
    }
    r.unique(&kernels)?;
    Ok(CodeObjectMetadata {
        version,
        target,
        printf,
        kernels,
    })
}

/// Turns a YAML value into the MessagePack value model so both formats share
/// the field readers above.
fn yaml_to_value(y: &serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match y {
        Y::Null => Value::Nil,
        Y::Bool(b) => Value::Boolean(*b),
        Y::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Value::from(u),
            (_, Some(i), _) => Value::from(i),
            (_, _, f) => Value::from(f.unwrap_or(f64::NAN)),
        },
        Y::String(s) => Value::from(s.as_str()),
        Y::Sequence(s) => Value::Array(s.iter().map(yaml_to_value).collect()),
        Y::Mapping(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (yaml_to_value(k), yaml_to_value(v)))
                .collect(),
        ),
        Y::Tagged(t) => yaml_to_value(&t.value),
    }
}

/// v2 spells enumerations in CamelCase (`GlobalBuffer`); v3 in snake_case.
fn snake_case(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    // The one v2 name whose words split differently from v3's.
    if out == "hidden_multi_grid_sync_arg" {
        return "hidden_multigrid_sync_arg".into();
    }
    out
}

/// Decodes the v2 `NT_AMD_HSA_METADATA` YAML document. v2 arguments carry no
/// offsets: they are laid out in order, each aligned to its `Align`.
pub(crate) fn parse_yaml(bytes: &[u8], offset: u64) -> Result<CodeObjectMetadata, CodeObjectError> {
    let r = Reader {
        format: "YAML",
        offset,
    };
    // The note string is NUL-terminated.
    let text = bytes.split(|&b| b == 0).next().unwrap_or(bytes);
    let text = std::str::from_utf8(text).map_err(|e| r.err(format!("not UTF-8: {e}")))?;
    let yaml: serde_norway::Value =
        serde_norway::from_str(text).map_err(|e| r.err(e.to_string()))?;
    let root = yaml_to_value(&yaml);
    let m = r.map(&root, "the document")?;
    let version = r
        .opt_array::<2>(m, "Version", "top level")?
        .unwrap_or([1, 0]);
    let printf = r
        .list(m, "Printf", "top level")?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| r.err("`Printf` entry is not a string".into()))
        })
        .collect::<Result<_, _>>()?;
    let mut kernels = Vec::new();
    for (i, k) in r.list(m, "Kernels", "top level")?.iter().enumerate() {
        let km = r.map(k, &format!("kernel {i}"))?;
        let name = r.req_str(km, "Name", &format!("kernel {i}"))?;
        let ctx = format!("kernel `{name}`");
        let mut args = Vec::new();
        let mut next = 0u32;
        for (j, a) in r.list(km, "Args", &ctx)?.iter().enumerate() {
            let actx = format!("{ctx} argument {j}");
            let am = r.map(a, &actx)?;
            let size = r.req_u32(am, "Size", &actx)?;
            let align = r.opt_u32(am, "Align", &actx)?.unwrap_or(1).max(1);
            let offset = next
                .checked_next_multiple_of(align)
                .ok_or_else(|| r.err(format!("{actx}: offset overflows")))?;
            next = offset
                .checked_add(size)
                .ok_or_else(|| r.err(format!("{actx}: offset overflows")))?;
            let enum_of =
                |key| Ok::<_, CodeObjectError>(r.opt_str(am, key, &actx)?.map(|s| snake_case(&s)));
            // v2's "Default" access qualifier means none was written.
            let access = |key| {
                Ok::<_, CodeObjectError>(
                    enum_of(key)?
                        .filter(|s| s != "default")
                        .map(|s| Access::from_name(&s)),
                )
            };
            args.push(KernelArg {
                name: r.opt_str(am, "Name", &actx)?,
                type_name: r.opt_str(am, "TypeName", &actx)?,
                offset,
                size,
                value_kind: ValueKind::from_name(&snake_case(&r.req_str(
                    am,
                    "ValueKind",
                    &actx,
                )?)),
                address_space: enum_of("AddrSpaceQual")?.map(|s| AddressSpace::from_name(&s)),
                access: access("AccQual")?,
                actual_access: access("ActualAccQual")?,
                pointee_align: r.opt_u32(am, "PointeeAlign", &actx)?,
                is_const: r.opt_bool(am, "IsConst", &actx)?.unwrap_or(false),
                is_restrict: r.opt_bool(am, "IsRestrict", &actx)?.unwrap_or(false),
                is_volatile: r.opt_bool(am, "IsVolatile", &actx)?.unwrap_or(false),
                is_pipe: r.opt_bool(am, "IsPipe", &actx)?.unwrap_or(false),
            });
        }
        let empty = Vec::new();
        let cp = match r.get(km, "CodeProps") {
            Some(v) => r.map(v, &format!("{ctx} CodeProps"))?,
            None => empty.as_slice(),
        };
        let attrs = match r.get(km, "Attrs") {
            Some(v) => r.map(v, &format!("{ctx} Attrs"))?,
            None => empty.as_slice(),
        };
        let cctx = format!("{ctx} CodeProps");
        kernels.push(KernelMetadata {
            symbol: r
                .opt_str(km, "SymbolName", &ctx)?
                .unwrap_or_else(|| name.clone()),
            language: r.opt_str(km, "Language", &ctx)?,
            language_version: r.opt_array::<2>(km, "LanguageVersion", &ctx)?,
            args,
            group_segment_fixed_size: r.opt_u32(cp, "GroupSegmentFixedSize", &cctx)?.unwrap_or(0),
            private_segment_fixed_size: r
                .opt_u32(cp, "PrivateSegmentFixedSize", &cctx)?
                .unwrap_or(0),
            kernarg_segment_size: r.opt_u32(cp, "KernargSegmentSize", &cctx)?.unwrap_or(next),
            kernarg_segment_align: r.opt_u32(cp, "KernargSegmentAlign", &cctx)?.unwrap_or(4),
            wavefront_size: r.opt_u32(cp, "WavefrontSize", &cctx)?.unwrap_or(64),
            sgpr_count: r.opt_u32(cp, "NumSGPRs", &cctx)?.unwrap_or(0),
            vgpr_count: r.opt_u32(cp, "NumVGPRs", &cctx)?.unwrap_or(0),
            agpr_count: None,
            sgpr_spill_count: r.opt_u32(cp, "NumSpilledSGPRs", &cctx)?,
            vgpr_spill_count: r.opt_u32(cp, "NumSpilledVGPRs", &cctx)?,
            max_flat_workgroup_size: r.opt_u32(cp, "MaxFlatWorkGroupSize", &cctx)?.unwrap_or(256),
            reqd_workgroup_size: r.opt_array::<3>(attrs, "ReqdWorkGroupSize", &ctx)?,
            workgroup_size_hint: r.opt_array::<3>(attrs, "WorkGroupSizeHint", &ctx)?,
            vec_type_hint: r.opt_str(attrs, "VecTypeHint", &ctx)?,
            uses_dynamic_stack: r.opt_bool(cp, "IsDynamicCallStack", &cctx)?,
            workgroup_processor_mode: None,
            kind: None,
            name,
        });
    }
    r.unique(&kernels)?;
    Ok(CodeObjectMetadata {
        version,
        target: None,
        printf,
        kernels,
    })
}

/// A MessagePack map with its keys in sorted order, as LLVM writes them.
fn sorted_map(mut entries: Vec<(&str, Value)>) -> Value {
    entries.sort_by(|a, b| a.0.cmp(b.0));
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Value::from(k), v))
            .collect(),
    )
}

fn array<const N: usize>(a: [u32; N]) -> Value {
    Value::Array(a.iter().map(|&x| Value::from(x)).collect())
}

/// Encodes v3+ metadata as the `NT_AMDGPU_METADATA` MessagePack map.
pub(crate) fn write_msgpack(md: &CodeObjectMetadata) -> Vec<u8> {
    let kernels = md.kernels.iter().map(kernel_value).collect();
    let mut top = vec![
        ("amdhsa.version", array(md.version)),
        ("amdhsa.kernels", Value::Array(kernels)),
    ];
    if let Some(t) = &md.target {
        top.push(("amdhsa.target", Value::from(t.as_str())));
    }
    if !md.printf.is_empty() {
        top.push((
            "amdhsa.printf",
            Value::Array(md.printf.iter().map(|s| Value::from(s.as_str())).collect()),
        ));
    }
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = rmpv::encode::write_value(&mut out, &sorted_map(top));
    out
}

fn kernel_value(k: &KernelMetadata) -> Value {
    let mut e = vec![
        (".name", Value::from(k.name.as_str())),
        (".symbol", Value::from(k.symbol.as_str())),
        (
            ".args",
            Value::Array(k.args.iter().map(arg_value).collect()),
        ),
        (
            ".group_segment_fixed_size",
            Value::from(k.group_segment_fixed_size),
        ),
        (
            ".private_segment_fixed_size",
            Value::from(k.private_segment_fixed_size),
        ),
        (".kernarg_segment_size", Value::from(k.kernarg_segment_size)),
        (
            ".kernarg_segment_align",
            Value::from(k.kernarg_segment_align),
        ),
        (".wavefront_size", Value::from(k.wavefront_size)),
        (".sgpr_count", Value::from(k.sgpr_count)),
        (".vgpr_count", Value::from(k.vgpr_count)),
        (
            ".max_flat_workgroup_size",
            Value::from(k.max_flat_workgroup_size),
        ),
    ];
    let opt_u32 = [
        (".agpr_count", k.agpr_count),
        (".sgpr_spill_count", k.sgpr_spill_count),
        (".vgpr_spill_count", k.vgpr_spill_count),
    ];
    e.extend(
        opt_u32
            .into_iter()
            .filter_map(|(key, v)| Some((key, Value::from(v?)))),
    );
    if let Some(s) = &k.language {
        e.push((".language", Value::from(s.as_str())));
    }
    if let Some(v) = k.language_version {
        e.push((".language_version", array(v)));
    }
    if let Some(v) = k.reqd_workgroup_size {
        e.push((".reqd_workgroup_size", array(v)));
    }
    if let Some(v) = k.workgroup_size_hint {
        e.push((".workgroup_size_hint", array(v)));
    }
    if let Some(s) = &k.vec_type_hint {
        e.push((".vec_type_hint", Value::from(s.as_str())));
    }
    if let Some(b) = k.uses_dynamic_stack {
        e.push((".uses_dynamic_stack", Value::from(b)));
    }
    if let Some(b) = k.workgroup_processor_mode {
        // LLVM writes this flag as an integer.
        e.push((".workgroup_processor_mode", Value::from(u32::from(b))));
    }
    if let Some(s) = &k.kind {
        e.push((".kind", Value::from(s.as_str())));
    }
    sorted_map(e)
}

fn arg_value(a: &KernelArg) -> Value {
    let mut e = vec![
        (".offset", Value::from(a.offset)),
        (".size", Value::from(a.size)),
        (".value_kind", Value::from(a.value_kind.name())),
    ];
    let strings = [
        (".name", a.name.as_deref()),
        (".type_name", a.type_name.as_deref()),
        (
            ".address_space",
            a.address_space.as_ref().map(AddressSpace::name),
        ),
        (".access", a.access.as_ref().map(Access::name)),
        (".actual_access", a.actual_access.as_ref().map(Access::name)),
    ];
    e.extend(
        strings
            .into_iter()
            .filter_map(|(key, v)| Some((key, Value::from(v?)))),
    );
    if let Some(p) = a.pointee_align {
        e.push((".pointee_align", Value::from(p)));
    }
    let flags = [
        (".is_const", a.is_const),
        (".is_restrict", a.is_restrict),
        (".is_volatile", a.is_volatile),
        (".is_pipe", a.is_pipe),
    ];
    e.extend(
        flags
            .into_iter()
            .filter(|f| f.1)
            .map(|(key, b)| (key, Value::from(b))),
    );
    sorted_map(e)
}
