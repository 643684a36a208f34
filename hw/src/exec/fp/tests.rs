//! Directed tests.
