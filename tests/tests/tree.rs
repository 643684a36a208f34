//! The tree's own structure: (1) the module graphs of the golden model and
//! of the ISA layer have no circles; (2) every path the mechanism map in
//! `docs/README.md` names exists.

#[path = "tree/docs_map.rs"]
mod docs_map;
#[path = "tree/modules.rs"]
mod modules;
