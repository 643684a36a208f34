//! SoftFloat cross-check.
