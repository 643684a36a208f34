//! Structs kept in registers: a local struct (no arrays or unions inside)
//! gets a range of the private segment like any private variable, so `&s`
//! and `p->field` compute addresses as usual, but every scalar member is an
//! SSA variable keyed by its byte offset. A load or store whose address is
//! statically a promoted member reads or writes the variable instead of
//! memory, so loops and joins carry the members like other variables — what
//! clang's SROA does for the work header's `gw_block b`. A pointer to a
//! promoted struct that goes anywhere but into address arithmetic (a block
//! argument, memory, a comparison) is refused, so the registers can never
//! disagree with memory.

use std::collections::BTreeMap;

use super::{unsupported, Lowerer, Promotion, VarKey, R};
use crate::front::diag::Loc;
use crate::front::types as ft;
use crate::ir::{self, InstKind, Type, Value};

/// The first half of a promoted member's environment key (no frame has
/// this id); the second half is the member's byte offset.
const PROMOTED: u32 = u32::MAX - 1;

fn member_key(offset: u32) -> VarKey {
    (PROMOTED, offset)
}

/// The promoted members: byte offset in the private segment → IR type.
pub(super) type Members = BTreeMap<u32, Type>;

impl Lowerer<'_> {
    /// The scalar members of `ty` at `base` (vectors by component,
    /// pointers as themselves); `None` when it holds an array or a union.
    fn leaves(&self, ty: &ft::Type, base: u32, loc: Loc, out: &mut Vec<(u32, Type)>) -> R<bool> {
        match ty {
            ft::Type::Record(r) => {
                let rec = self.tu.records.get(*r);
                if rec.is_union {
                    return Ok(false);
                }
                for f in &rec.fields {
                    if !self.leaves(&f.ty, base + f.offset, loc, out)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ft::Type::Array(..) | ft::Type::Atomic(_) | ft::Type::Void => Ok(false),
            ft::Type::Vector(_, n) => {
                let t = self.ir_type(ty, loc)?;
                for i in 0..u32::from(*n) {
                    out.push((base + i * t.bytes(), t));
                }
                Ok(true)
            }
            t => {
                out.push((base, self.ir_type(t, loc)?));
                Ok(true)
            }
        }
    }

    /// Promotes the struct of type `ty` at private `offset` if it can be;
    /// its members start (again) at zero.
    pub(super) fn promote_struct(&mut self, ty: &ft::Type, offset: u32, loc: Loc) -> R<bool> {
        if matches!(self.promotion, Promotion::Off) {
            return Ok(false);
        }
        let mut leaves = Vec::new();
        if !self.leaves(ty, offset, loc, &mut leaves)? {
            return Ok(false);
        }
        let size = self.tu.records.size_of(ty);
        self.promoted_ranges.push((offset, offset + size));
        for (o, t) in leaves {
            self.promoted.insert(o, t);
            let z = self.constant(t, 0);
            self.env.insert(member_key(o), vec![z]);
        }
        Ok(true)
    }

    /// A promotion that cannot be kept: an error that makes
    /// [`super::lower_kernel`] lower the kernel again without promotions.
    fn promotion_refused<T>(&self, loc: Loc, what: &str) -> R<T> {
        if let Promotion::Try(refused) = self.promotion {
            refused.set(true);
        }
        unsupported(loc, what)
    }

    /// The private byte offset `addr` statically points to.
    fn static_private(&self, addr: Value) -> Option<u32> {
        match self.func.def_inst(addr)? {
            InstKind::PrivateAddr { offset } => Some(*offset),
            InstKind::PtrAdd { base, offset } => {
                let c = self.func.iconst_value(*offset)?;
                u32::try_from(i64::from(self.static_private(*base)?) + c).ok()
            }
            _ => None,
        }
    }

    /// True when private byte `o` lies in a promoted struct.
    fn in_promoted(&self, o: u32) -> bool {
        self.promoted_ranges
            .iter()
            .any(|&(s, e)| (s..e).contains(&o))
    }

    /// The member variable a `t` access at `addr` is, if promoted.
    pub(super) fn promoted_member(&self, addr: Value, t: Type, loc: Loc) -> R<Option<VarKey>> {
        if self.promoted.is_empty() {
            return Ok(None);
        }
        let Some(o) = self.static_private(addr) else {
            return Ok(None);
        };
        match self.promoted.get(&o) {
            Some(&mt) if mt == t => Ok(Some(member_key(o))),
            Some(_) => {
                self.promotion_refused(loc, "a struct member read or written as another type")
            }
            None if self.in_promoted(o) => {
                self.promotion_refused(loc, "an access into a struct kept in registers")
            }
            None => Ok(None),
        }
    }

    /// After lowering: a pointer into a promoted struct must only have
    /// been used for constant address arithmetic (its accesses went to
    /// registers, so the arithmetic is dead); a kernel with no private
    /// memory left needs no scratch.
    pub(super) fn check_promoted(&mut self, loc: Loc) -> R<()> {
        ir::opt::dce(&mut self.func);
        let mut any_private = false;
        let mut escapes = false;
        for &b in self.func.blocks() {
            for &i in &self.func.block(b).insts {
                let k = &self.func.inst(i).kind;
                any_private |= matches!(k, InstKind::PrivateAddr { .. });
                match k {
                    InstKind::PtrAdd { base, offset } => {
                        let into = self
                            .static_private(*base)
                            .is_some_and(|o| self.in_promoted(o));
                        escapes |= into && self.func.iconst_value(*offset).is_none();
                    }
                    k => k.for_each_operand(|v| {
                        escapes |= self.static_private(v).is_some_and(|o| self.in_promoted(o));
                    }),
                }
            }
        }
        if escapes {
            return self.promotion_refused(
                loc,
                "a pointer to a local struct used other than to reach its members",
            );
        }
        if !any_private {
            self.func.private_size = 0;
        }
        Ok(())
    }
}
