// Seed 000 (issue 20): a register-blocked matrix product. Each work-item
// computes an 8 x 8 block of C = A * B (row-major, n x n, n a multiple of 8)
// in 64 accumulators (eight float8 rows); each step of k loads 8 values of
// A and a float8 of B. The k loop needs more than 64 VGPRs for a wave64
// (the default threshold), the code around it few.
#define STORE8(v, p) { __global float *q = (p); q[0] = v.s0; q[1] = v.s1; q[2] = v.s2; q[3] = v.s3; q[4] = v.s4; q[5] = v.s5; q[6] = v.s6; q[7] = v.s7; }
__kernel void matmul_blocked(__global float *c, __global const float *a,
                             __global const float *b, uint n) {
    uint bx = (uint)get_global_id(0);
    uint cols = n / 8;
    uint row0 = (bx / cols) * 8;
    uint col0 = (bx % cols) * 8;
    float8 c0 = (float8)(0.0f), c1 = (float8)(0.0f), c2 = (float8)(0.0f), c3 = (float8)(0.0f);
    float8 c4 = (float8)(0.0f), c5 = (float8)(0.0f), c6 = (float8)(0.0f), c7 = (float8)(0.0f);
    for (uint k = 0; k < n; k++) {
        __global const float *br = b + k * n + col0;
        float8 bv = (float8)(br[0], br[1], br[2], br[3], br[4], br[5], br[6], br[7]);
        c0 += a[(row0 + 0) * n + k] * bv;
        c1 += a[(row0 + 1) * n + k] * bv;
        c2 += a[(row0 + 2) * n + k] * bv;
        c3 += a[(row0 + 3) * n + k] * bv;
        c4 += a[(row0 + 4) * n + k] * bv;
        c5 += a[(row0 + 5) * n + k] * bv;
        c6 += a[(row0 + 6) * n + k] * bv;
        c7 += a[(row0 + 7) * n + k] * bv;
    }
    STORE8(c0, c + (row0 + 0) * n + col0);
    STORE8(c1, c + (row0 + 1) * n + col0);
    STORE8(c2, c + (row0 + 2) * n + col0);
    STORE8(c3, c + (row0 + 3) * n + col0);
    STORE8(c4, c + (row0 + 4) * n + col0);
    STORE8(c5, c + (row0 + 5) * n + col0);
    STORE8(c6, c + (row0 + 6) * n + col0);
    STORE8(c7, c + (row0 + 7) * n + col0);
}
