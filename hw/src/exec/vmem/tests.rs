//! Directed tests of the vmem datapath.
