// EXPECT: 2:15: 'pipe' is not supported by this compiler
kernel void k(pipe int p) {
}
