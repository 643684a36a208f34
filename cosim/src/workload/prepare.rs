//! [`Workload::prepare`]: reading code objects, checking the arguments
//! against their metadata, building the initial buffers and the steps.

use std::path::PathBuf;

use arch::code_object::{CodeObject, KernelArg};
use sw::driver::LaunchDims;

use super::alias::SourceBuild;
use super::steps::PreparedStep;
use super::{
    read, Arg, ArgKind, HostBuffer, Init, KernelRef, Prepared, PreparedArg, PreparedSemaphore,
    Workload, WorkloadError,
};

/// A kernel found in its code object.
struct OpenedKernel {
    path: PathBuf,
    /// Its build when it came from `source:`.
    source: Option<SourceBuild>,
    bytes: Vec<u8>,
    name: String,
    /// Explicit (not hidden) arguments from the metadata.
    params: Vec<KernelArg>,
}

impl Workload {
    /// Reads the code object(s) and builds the initial buffers and arguments.
    pub fn prepare(&self) -> Result<Prepared, WorkloadError> {
        let main = self.open_kernel(&self.kernel)?;
        let mut buffers = Vec::new();
        for b in &self.buffers {
            let bytes = match &b.init {
                Init::File(p) => {
                    // Name the buffer and the field: a bare "No such file"
                    // does not say which of a workload's files is missing.
                    let bytes = std::fs::read(p).map_err(|e| {
                        self.invalid(format!(
                            "buffer `{}`: `init: {{ file: }}` {}: {e}",
                            b.name,
                            p.display()
                        ))
                    })?;
                    if bytes.len() != b.length * b.elem.size() {
                        return Err(self.invalid(format!(
                            "buffer `{}`: {} holds {} bytes, {} elements of {} need {}",
                            b.name,
                            p.display(),
                            bytes.len(),
                            b.length,
                            b.elem,
                            b.length * b.elem.size()
                        )));
                    }
                    bytes
                }
                init => init
                    .generate(b.elem, b.length)
                    .map_err(|e| self.invalid(format!("buffer `{}`: {e}", b.name)))?,
            };
            buffers.push(HostBuffer {
                name: b.name.clone(),
                elem: b.elem,
                bytes,
            });
        }
        // With steps, the top-level `args` are only the steps' default and
        // need not fit the top-level kernel.
        let args = if self.steps.is_empty() {
            self.prepare_args("args", &self.args, &main)?
        } else {
            Vec::new()
        };
        let mut objects: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        let mut object_sources: Vec<Option<SourceBuild>> = Vec::new();
        let mut steps = Vec::new();
        for (i, s) in self.steps.iter().enumerate() {
            let item = format!("steps[{i}] (`{}`)", s.name);
            let k = self.open_kernel(&s.kernel)?;
            let args = self.prepare_args(&format!("{item}: args"), &s.args, &k)?;
            // One object per file and build (a source compiled with other
            // options is another object).
            let object = match objects
                .iter()
                .zip(&object_sources)
                .position(|((p, _), b)| *p == k.path && *b == k.source)
            {
                Some(o) => o,
                None => {
                    objects.push((k.path.clone(), k.bytes.clone()));
                    object_sources.push(k.source.clone());
                    objects.len() - 1
                }
            };
            let element = |buffer: &str, index: usize, value: super::Number| {
                let b = self.buffer_index(buffer)?;
                let elem = self.buffers[b].elem;
                let bytes = value
                    .encode(elem)
                    .map_err(|e| self.invalid(format!("{item}: {e}")))?;
                Ok::<_, WorkloadError>((b, (index * elem.size()) as u64, bytes))
            };
            steps.push(PreparedStep {
                name: s.name.clone(),
                object,
                kernel_name: k.name.clone(),
                dims: LaunchDims {
                    grid: s.grid,
                    workgroup: s.workgroup,
                },
                args,
                repeat: s.repeat,
                until: match &s.until {
                    None => None,
                    Some(u) => {
                        let (b, offset, bytes) = element(&u.buffer, u.index, u.value)?;
                        Some((b, offset, bytes, u.equal))
                    }
                },
                swap: match &s.swap {
                    None => None,
                    Some([a, b]) => Some((self.buffer_index(a)?, self.buffer_index(b)?)),
                },
                writes: s
                    .write
                    .iter()
                    .map(|w| element(&w.buffer, w.index, w.value))
                    .collect::<Result<_, _>>()?,
            });
        }
        let word = |buffer: &str, index: usize, payload, compare| {
            Ok(PreparedSemaphore {
                buffer: self.buffer_index(buffer)?,
                offset: index as u64 * 4,
                payload,
                compare,
            })
        };
        let waits = self
            .wait
            .iter()
            .map(|w| word(&w.buffer, w.index, w.payload, Some(w.compare)))
            .collect::<Result<_, WorkloadError>>()?;
        let signals = self
            .signal
            .iter()
            .map(|s| word(&s.buffer, s.index, s.value, None))
            .collect::<Result<_, WorkloadError>>()?;
        Ok(Prepared {
            code_object: main.bytes,
            code_object_path: main.path,
            source: main.source,
            kernel_name: main.name,
            dims: self.dims(),
            buffers,
            args,
            waits,
            signals,
            work_queue: self.work_queue.clone(),
            subvector_hint: self.subvector_hint,
            shared_vgprs: self.shared_vgprs,
            objects,
            object_sources,
            steps,
        })
    }

    fn buffer_index(&self, name: &str) -> Result<usize, WorkloadError> {
        self.buffers
            .iter()
            .position(|b| b.name == name)
            .ok_or_else(|| self.invalid(format!("unknown buffer `{name}`")))
    }

    /// Reads a kernel's code object and finds the kernel in it.
    fn open_kernel(&self, kernel: &KernelRef) -> Result<OpenedKernel, WorkloadError> {
        let (path, name) = match kernel {
            KernelRef::Corpus { name, target } => {
                let k = corpus::find(name)
                    .ok_or_else(|| self.invalid(format!("unknown corpus kernel `{name}`")))?;
                (k.prebuilt_path(*target), Some(name.clone()))
            }
            KernelRef::Work { name, target } => {
                let k = corpus::work::find(name).ok_or_else(|| {
                    self.invalid(format!("unknown work-creation kernel `{name}`"))
                })?;
                (k.prebuilt_path(*target), Some(name.clone()))
            }
            KernelRef::CodeObject { path, name } | KernelRef::Source { path, name, .. } => {
                (path.clone(), name.clone())
            }
        };
        let source = match kernel {
            KernelRef::Source { build, .. } => Some(build.clone()),
            _ => None,
        };
        let bytes = match &source {
            Some(build) => super::alias::compiled_source(&path, build)?
                .compiled
                .code_object
                .clone(),
            None if matches!(kernel, KernelRef::CodeObject { .. }) => std::fs::read(&path).map_err(|e| {
                // The workload, the field and the place looked at, not a bare
                // "No such file or directory" (docs/workloads.md).
                let note = if e.kind() == std::io::ErrorKind::NotFound {
                    format!(
                        "not found (looked at: {}; no search path: add directories with --path DIR or {})",
                        path.display(),
                        super::search::SEARCH_PATH_VAR
                    )
                } else {
                    e.to_string()
                };
                self.invalid(format!("`code_object: {}`: {note}", path.display()))
            })?,
            None => read(&path)?,
        };
        let co_err = |message: String| WorkloadError::CodeObject {
            path: path.clone(),
            message,
        };
        let co = CodeObject::parse(&bytes).map_err(|e| co_err(e.to_string()))?;
        let names: Vec<&str> = co.kernels().iter().map(|k| k.name.as_str()).collect();
        let name = match name {
            Some(n) if names.contains(&n.as_str()) => n,
            Some(n) => {
                return Err(co_err(format!(
                    "no kernel `{n}` (it has: {})",
                    names.join(", ")
                )))
            }
            None if names.len() == 1 => names[0].to_string(),
            None => {
                return Err(co_err(format!(
                    "{} kernels ({}); say which with `name:`",
                    names.len(),
                    names.join(", ")
                )))
            }
        };
        let mut params: Vec<KernelArg> = co
            .kernel(&name)
            .map(|k| {
                k.metadata
                    .args
                    .iter()
                    .filter(|a| !sw::driver::kernarg::is_hidden(&a.value_kind))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        // Compiled without -cl-kernel-arg-info, a code object has no argument
        // names; a corpus kernel's registry has them (checked against the
        // source by the corpus tests).
        if params.iter().all(|p| p.name.is_none()) {
            if let Some(k) = super::corpus_kernel_of(kernel) {
                if k.launch.args.len() == params.len() {
                    for (p, spec) in params.iter_mut().zip(k.launch.args) {
                        p.name = Some(spec.name().to_string());
                    }
                }
            }
        }
        Ok(OpenedKernel {
            path,
            source,
            bytes,
            name,
            params,
        })
    }

    /// Resolves `args` for `kernel`, checking every written `name:` against
    /// the metadata's argument names (and a buffer passed where a parameter of
    /// its own name sits elsewhere: two swapped buffers).
    fn prepare_args(
        &self,
        item: &str,
        args: &[Arg],
        kernel: &OpenedKernel,
    ) -> Result<Vec<PreparedArg>, WorkloadError> {
        let param_name = |i: usize| kernel.params.get(i).and_then(|p| p.name.as_deref());
        let position = |n: &str| {
            kernel
                .params
                .iter()
                .position(|p| p.name.as_deref() == Some(n))
        };
        let list = || {
            kernel
                .params
                .iter()
                .map(|p| p.name.as_deref().unwrap_or("?"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (i, a) in args.iter().enumerate() {
            let Some(want) = param_name(i) else { continue };
            if let Some(n) = &a.name {
                if n != want {
                    let hint = match position(n) {
                        Some(j) if args.get(j).and_then(|b| b.name.as_deref()) == Some(want) => {
                            format!(
                                "; `{n}` and `{want}` are swapped (the kernel takes `{want}` at {i} and `{n}` at {j})"
                            )
                        }
                        Some(j) => format!("; `{n}` is argument {j}"),
                        None => String::new(),
                    };
                    return Err(self.invalid(format!(
                        "{item}[{i}]: named `{n}`, but `{}` argument {i} is `{want}` (arguments: {}){hint}",
                        kernel.name,
                        list()
                    )));
                }
            } else if let ArgKind::Buffer(b) = &a.kind {
                // Buffers named like the kernel's parameters, passed crosswise.
                if b != want {
                    if let Some(j) = position(b) {
                        if let Some(ArgKind::Buffer(other)) = args.get(j).map(|x| &x.kind) {
                            if other == want && args[j].name.is_none() {
                                return Err(self.invalid(format!(
                                    "{item}[{i}] and {item}[{j}]: buffers `{b}` and `{want}` are swapped: `{}` takes `{want}` at {i} and `{b}` at {j} (write `name:` on both to pass them crosswise on purpose)",
                                    kernel.name
                                )));
                            }
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, a) in args.iter().enumerate() {
            out.push(match &a.kind {
                ArgKind::Buffer(name) if a.offset > 0 => {
                    let buffer = self.buffer_index(name)?;
                    let b = &self.buffers[buffer];
                    let bytes = b.length as u64 * b.elem.size() as u64;
                    if a.offset >= bytes {
                        return Err(self.invalid(format!(
                            "{item}[{i}]: offset {} is past the end of `{name}` ({bytes} bytes)",
                            a.offset
                        )));
                    }
                    PreparedArg::BufferAt {
                        buffer,
                        offset: a.offset,
                    }
                }
                ArgKind::Buffer(name) => PreparedArg::Buffer(self.buffer_index(name)?),
                ArgKind::Scalar { elem, value } => {
                    if let Some(p) = kernel.params.get(i) {
                        self.check_scalar_type(item, i, &kernel.name, p, *elem, &[*value], 1)?;
                    }
                    PreparedArg::Value(
                        value
                            .encode(*elem)
                            .map_err(|e| self.invalid(format!("{item}[{i}]: {e}")))?,
                    )
                }
                ArgKind::Vector { elem, values } => {
                    if let Some(p) = kernel.params.get(i) {
                        let width = values.len();
                        self.check_scalar_type(item, i, &kernel.name, p, *elem, values, width)?;
                    }
                    PreparedArg::Value(
                        a.kind
                            .value_bytes()
                            .unwrap_or_else(|| Ok(Vec::new()))
                            .map_err(|e| self.invalid(format!("{item}[{i}]: {e}")))?,
                    )
                }
                ArgKind::Local(n) => PreparedArg::Local(*n),
            });
        }
        Ok(out)
    }

    /// A by-value argument's written type against the metadata's
    /// `.type_name` (`uint`, `float4`, …): only the size was checked before,
    /// so `{ f32: 200.0 }` for a `uint` ran with the float's bits. Integers of
    /// another signedness or width are accepted when the value fits the
    /// declared type (the bytes are the same); a float for an integer, an
    /// integer for a float, or a value out of the type's range is refused.
    /// Unknown type names (typedefs, structs) are not checked.
    #[allow(clippy::too_many_arguments)]
    fn check_scalar_type(
        &self,
        item: &str,
        i: usize,
        kernel: &str,
        param: &KernelArg,
        written: super::data::ElemType,
        values: &[super::data::Number],
        width: usize,
    ) -> Result<(), WorkloadError> {
        let Some(type_name) = param.type_name.as_deref() else {
            return Ok(());
        };
        let Some((declared, declared_width)) = opencl_scalar_type(type_name) else {
            return Ok(());
        };
        let is_float = |t: super::data::ElemType| {
            matches!(t, super::data::ElemType::F32 | super::data::ElemType::F64)
        };
        let wrong = if is_float(declared) || is_float(written) {
            declared != written
        } else {
            values.iter().any(|v| v.encode(declared).is_err())
        };
        // A 3-vector is written with 4 elements (OpenCL's layout).
        let width_wrong = declared_width != width && !(declared_width == 3 && width == 4);
        if wrong || width_wrong {
            let name = param
                .name
                .as_deref()
                .map(|n| format!(" `{n}`"))
                .unwrap_or_default();
            let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let suggestion = if width_wrong {
                String::new()
            } else {
                format!(" (write `{{ {}: … }}`)", declared.name())
            };
            return Err(self.invalid(format!(
                "{item}[{i}]: written as {written} {}, but `{kernel}` argument {i}{name} is `{type_name}`{suggestion}",
                shown.join(", "),
            )));
        }
        Ok(())
    }
}

/// The element type and vector width of an OpenCL scalar or vector type name
/// as the metadata's `.type_name` spells it (`uint`, `unsigned int`,
/// `float4`); `None` for anything else.
fn opencl_scalar_type(name: &str) -> Option<(super::data::ElemType, usize)> {
    use super::data::ElemType as E;
    let name = name.trim();
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, width) = if digits > 0 {
        let (b, w) = name.split_at(name.len() - digits);
        let w: usize = w.parse().ok()?;
        if ![2, 3, 4, 8, 16].contains(&w) {
            return None;
        }
        (b, w)
    } else {
        (name, 1)
    };
    let t = match base {
        "char" | "signed char" => E::I8,
        "uchar" | "unsigned char" => E::U8,
        "short" => E::I16,
        "ushort" | "unsigned short" => E::U16,
        "int" => E::I32,
        "uint" | "unsigned int" | "unsigned" => E::U32,
        "long" => E::I64,
        "ulong" | "unsigned long" | "size_t" => E::U64,
        "float" => E::F32,
        "double" => E::F64,
        _ => return None,
    };
    // Only the OpenCL vector spellings carry a width (`uint4`, not `unsigned int4`).
    if width > 1 && base.contains(' ') {
        return None;
    }
    Some((t, width))
}

#[cfg(test)]
mod tests {
    use super::super::data::ElemType;
    use super::opencl_scalar_type;

    #[test]
    fn opencl_type_names_parse() {
        assert_eq!(opencl_scalar_type("uint"), Some((ElemType::U32, 1)));
        assert_eq!(opencl_scalar_type("unsigned int"), Some((ElemType::U32, 1)));
        assert_eq!(opencl_scalar_type("float4"), Some((ElemType::F32, 4)));
        assert_eq!(opencl_scalar_type("int3"), Some((ElemType::I32, 3)));
        assert_eq!(opencl_scalar_type("my_t"), None);
        assert_eq!(opencl_scalar_type("float*"), None);
        assert_eq!(opencl_scalar_type("int5"), None);
    }
}
