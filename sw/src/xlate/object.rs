//! Ahead-of-time use of the translator: a whole gfx803 code object to a
//! gfx1030 code object v5 (what `gpusim translate LEGACY.hsaco -o NEW.hsaco`
//! writes). Every kernel is translated as the driver would at dispatch, with
//! no dynamic private memory; the legacy image is not carried over, so
//! kernels that use `s_getpc_b64` (PC-relative data) cannot be translated
//! this way.

use arch::code_object::{CodeObject, CodeObjectWriter, NewKernel};
use arch::isa::Isa;
use thiserror::Error;

use super::{translate, Binding, XlateError};

/// Why a code object could not be translated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ObjectError {
    /// The input is not a readable code object.
    #[error("code object: {0}")]
    Read(String),
    /// The input is not gfx803.
    #[error("code object is for {0}, not gfx803")]
    NotLegacy(String),
    /// A kernel could not be translated.
    #[error("kernel `{kernel}`: {error}")]
    Kernel {
        /// Kernel name.
        kernel: String,
        /// The translator's error.
        error: XlateError,
    },
    /// The output could not be written.
    #[error("writing the gfx1030 code object: {0}")]
    Write(String),
}

/// Translates every kernel of a gfx803 code object (v2 or v3+) into a
/// gfx1030 wave64 code object v5.
pub fn translate_object(elf: &[u8]) -> Result<Vec<u8>, ObjectError> {
    let co = CodeObject::parse(elf).map_err(|e| ObjectError::Read(e.to_string()))?;
    if co.isa() != Some(Isa::Gfx803) {
        return Err(ObjectError::NotLegacy(co.processor().to_string()));
    }
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    for k in co.kernels() {
        let t = translate(k, &Binding::of(k, 0)).map_err(|error| ObjectError::Kernel {
            kernel: k.name.clone(),
            error,
        })?;
        let mut metadata = k.metadata.clone();
        metadata.wavefront_size = 64;
        metadata.vgpr_count = metadata.vgpr_count.max(u32::from(t.counts.vgprs));
        w.add_kernel(NewKernel {
            name: k.name.clone(),
            code: t.code.clone(),
            descriptor: t.descriptor,
            metadata,
        });
    }
    w.write().map_err(|e| ObjectError::Write(e.to_string()))
}
