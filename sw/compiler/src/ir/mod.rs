//! The SSA IR, its verifier, printer, analyses and optimisation passes.
