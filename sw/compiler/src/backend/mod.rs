//! The gfx1030 back end: instruction selection, EXEC-masked control flow, register allocation, waitcnt insertion, code object emission.
