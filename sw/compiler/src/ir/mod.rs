//! The SSA IR, its verifier, printer, analyses and optimisation passes.
//!
//! Design (cranelift's habits, see `docs/compiler-backend.md`):
//! * entities ([`Value`], [`Block`], [`Inst`], [`LocalVar`]) are `u32`
//!   newtypes indexing arenas in a [`Function`];
//! * blocks take parameters instead of phi nodes;
//! * every instruction is a per-lane scalar operation — OpenCL vectors are
//!   scalarised by the lowering; the wave is the machine's vector;
//! * `?:` is kept as [`InstKind::Select`] down to instruction selection
//!   (seed 004);
//! * control flow is a CFG; the back end requires it to be structured
//!   (if/else diamonds, see [`cfg`](mod@cfg)) and uses post-dominators as join points.
//!
//! Analyses: [`cfg`](mod@cfg) (dominators, loops), [`uniformity`], [`counted_loop`]
//! (the loop shape every loop pass shares). Passes: [`opt`], one file per
//! pass, `opt/mod.rs` the ordered `-O` pipeline.

mod builder;
pub mod cfg;
pub mod counted_loop;
mod entities;
mod function;
pub mod half;
mod instructions;
pub mod opt;
mod print;
mod types;
pub mod uniformity;
mod verify;

pub use builder::Builder;
pub use entities::{Block, Inst, LocalVar, Value};
pub use function::{
    ArgQualifiers, BlockData, DataObject, Function, InstData, LocalVarData, Param, ParamKind,
    ValueData, ValueDef,
};
pub use instructions::*;
pub use print::{print, write_function, write_inst};
pub use types::{AddrSpace, Type};
pub use uniformity::Uniformity;
pub use verify::{verify, VerifyError};
