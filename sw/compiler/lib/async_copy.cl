/*
 * gpusim device library: async_work_group_copy and
 * async_work_group_strided_copy (OpenCL 1.2 §6.12.10), done at once by the
 * work-group's work-items together (each copies every local-count-th word)
 * and complete when they return; wait_group_events is a barrier, so every
 * work-item sees the whole copy after it. Sema casts the pointers to words
 * (uchar, ushort, uint or ulong: a gentype of 8 bytes or more is `words`
 * ulongs) and the count and stride to uint; the event returned is 0.
 * Suffixes: _lg (global to local), _gl (local to global), then the word.
 */

#define GS_ASYNC(W, S)                                                              \
    uint __gpusim_async_copy_lg_##S(__local W *dst, const __global W *src, uint n,  \
                                    uint stride, uint words) {                      \
        uint count = __gpusim_sg_local_count();                                     \
        uint total = n * words;                                                     \
        for (uint k = __gpusim_sg_linear_id(); k < total; k += count) {             \
            uint item = words == 1u ? k : k / words;                                \
            uint w = k - item * words;                                              \
            dst[k] = src[item * stride * words + w];                                \
        }                                                                           \
        return 0u;                                                                  \
    }                                                                               \
    uint __gpusim_async_copy_gl_##S(__global W *dst, const __local W *src, uint n,  \
                                    uint stride, uint words) {                      \
        uint count = __gpusim_sg_local_count();                                     \
        uint total = n * words;                                                     \
        for (uint k = __gpusim_sg_linear_id(); k < total; k += count) {             \
            uint item = words == 1u ? k : k / words;                                \
            uint w = k - item * words;                                              \
            dst[item * stride * words + w] = src[k];                                \
        }                                                                           \
        return 0u;                                                                  \
    }

GS_ASYNC(uchar, u8)
GS_ASYNC(ushort, u16)
GS_ASYNC(uint, u32)
GS_ASYNC(ulong, u64)

/* prefetch: a hint; gpusim's caches fill on use. */
void __gpusim_prefetch_u8(const __global uchar *p, uint n) {}
