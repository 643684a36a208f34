// EXPECT: 2:25: parameter may not be qualified with an address space ('__local')
kernel void k(local int x) {
}
