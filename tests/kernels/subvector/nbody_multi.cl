// Seed 000 (issue 20): n-body accelerations with several bodies per
// work-item. Each work-item owns 8 bodies (positions and accelerations in
// registers: 48 values) and walks every body of the system once,
// accumulating the pull of each on its own: the walk needs more than 64
// VGPRs for a wave64. pos is x, y, z, mass per body. The pull is a
// short-range smoothing kernel (SPH's poly6 shape, m * max(h2 - r^2, 0)^3
// along the distance) rather than 1/r^2: the compiler refuses division and
// rsqrt so far, and the register pressure is the same.
#define BODY(i) float px##i = pos[4 * (b0 + i)], py##i = pos[4 * (b0 + i) + 1], pz##i = pos[4 * (b0 + i) + 2]; \
    float ax##i = 0.0f, ay##i = 0.0f, az##i = 0.0f;
#define PULL(i) { float dx = qx - px##i, dy = qy - py##i, dz = qz - pz##i; \
    float w = fmax(h2 - (dx * dx + dy * dy + dz * dz), 0.0f); \
    float s = qm * w * w * w; \
    ax##i += s * dx; ay##i += s * dy; az##i += s * dz; }
#define STORE(i) acc[4 * (b0 + i)] = ax##i; acc[4 * (b0 + i) + 1] = ay##i; \
    acc[4 * (b0 + i) + 2] = az##i; acc[4 * (b0 + i) + 3] = 0.0f;
__kernel void nbody_multi(__global float *acc, __global const float *pos,
                          uint n, float h2) {
    uint b0 = (uint)get_global_id(0) * 8u;
    BODY(0) BODY(1) BODY(2) BODY(3) BODY(4) BODY(5) BODY(6) BODY(7)
    for (uint j = 0; j < n; j++) {
        float qx = pos[4 * j], qy = pos[4 * j + 1], qz = pos[4 * j + 2], qm = pos[4 * j + 3];
        PULL(0) PULL(1) PULL(2) PULL(3) PULL(4) PULL(5) PULL(6) PULL(7)
    }
    STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6) STORE(7)
}
