//! Entity references: `u32` newtypes indexing the arenas of a [`Function`](super::Function)
//! (the cranelift habit — no pointers, cheap to copy, printable).

use std::fmt;

macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The arena index.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(
    /// An SSA value: the result of an instruction or a block parameter.
    Value,
    "v"
);
entity!(
    /// A basic block.
    Block,
    "block"
);
entity!(
    /// An instruction.
    Inst,
    "inst"
);
entity!(
    /// A statically allocated `__local` (LDS) variable.
    LocalVar,
    "lds"
);
