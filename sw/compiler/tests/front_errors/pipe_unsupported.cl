// EXPECT: 2:15: 'pipe' is not supported by this compiler: pipes need a host runtime that gpusim's driver does not have
kernel void k(pipe int p) {
}
