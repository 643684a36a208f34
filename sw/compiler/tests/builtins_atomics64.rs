//! 64-bit atomics (`cl_khr_int64_base_atomics`/`_extended_atomics`: `atom_*`
//! on `long`/`ulong`), OpenCL 2.0 `atomic_*` (with `_explicit` orders and
//! scopes) on `atomic_long`/`atomic_ulong`, and the float exchange, load,
//! store and compare-exchange, on `__global` and `__local` memory, with
//! every work-item of several work-groups on the same few words: the final
//! words and the values returned (distinct `inc` tickets, exchange
//! permutations, compare-exchange loops) against a CPU reference, wave32
//! and wave64, and where clang-19 and ROCm's device libraries are
//! installed, clang's object gives the same final words
//! (`GPUSIM_REQUIRE_ROCM=1` makes a missing clang a failure).
//!
//! `cargo test --release -p compiler --test builtins_atomics64`

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, TestArg};
use compiler::backend::code_object;
use sw::driver::LaunchDims;

const SOURCE: &str = "
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void k(__global long *g, __global ulong *u, __global long *olds,
                __global atomic_long *a, __global atomic_ulong *au,
                __global atomic_float *af, __global float *fo) {
  size_t i = get_global_id(0), l = get_local_id(0), grp = get_group_id(0);
  __local long ls[4];
  __local ulong lu[2];
  if (l == 0) {
    ls[0] = 0xfffffff0L; ls[1] = 0; ls[2] = 0x7fffffffffffffffL; ls[3] = -0x7fffffffffffffffL - 1;
    lu[0] = 0; lu[1] = ~0UL;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  long v = ((long)i * 0x9E3779B97F4A7C15L) ^ ((long)i << 40);
  olds[i * 5 + 0] = atom_inc(&g[0]);
  atom_add(&g[1], v);
  atom_sub(&g[2], v);
  atom_min(&g[3], v);
  atom_max(&g[4], v);
  atom_min(&u[0], (ulong)v);
  atom_max(&u[1], (ulong)v);
  atom_and(&u[2], ~(1UL << (i % 64)));
  atom_or(&u[3], 1UL << ((i * 7) % 64));
  atom_xor(&u[4], (ulong)v);
  olds[i * 5 + 1] = atom_xchg(&g[5], (long)i);
  long old = g[6], seen;
  while ((seen = atom_cmpxchg(&g[6], old, old + (long)i * 0x100000003L)) != old)
    old = seen;
  atom_dec(&g[7]);
  olds[i * 5 + 2] = atom_add(&ls[0], 1L);
  atom_add(&ls[1], v);
  atom_min(&ls[2], v);
  atom_max(&ls[3], v);
  atom_xor(&lu[0], (ulong)v);
  atom_and(&lu[1], ~(1UL << (l % 64)));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    __global long *r = g + 16 + grp * 6;
    r[0] = ls[0]; r[1] = ls[1]; r[2] = ls[2]; r[3] = ls[3]; r[4] = (long)lu[0]; r[5] = (long)lu[1];
  }
  atomic_fetch_add_explicit(&a[0], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min_explicit(&a[1], v, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_max_explicit(&a[2], v, memory_order_seq_cst);
  long e = atomic_load(&a[3]);
  while (!atomic_compare_exchange_weak(&a[3], &e, e ^ v))
    ;
  atomic_store_explicit(&a[4], 5L, memory_order_release);
  olds[i * 5 + 3] = atomic_exchange(&a[5], (long)i);
  olds[i * 5 + 4] = (long)atomic_fetch_sub_explicit(&au[0], 3UL, memory_order_acquire, memory_scope_device);
  atomic_fetch_or(&au[1], 1UL << (i % 61));
  atomic_fetch_xor_explicit(&au[2], (ulong)v, memory_order_relaxed);
  atomic_fetch_and(&au[3], ~(1UL << (i % 63)));
  atomic_fetch_min(&au[4], (ulong)v);
  atomic_fetch_max(&au[5], (ulong)v);
  if (i == 0)
    atomic_store(&af[0], 2.5f);
  fo[i] = atomic_exchange(&af[1], (float)i);
  float f = atomic_load_explicit(&af[2], memory_order_acquire);
  while (!atomic_compare_exchange_strong(&af[2], &f, f + 1.0f))
    ;
}
";

fn longs(v: &[u64]) -> Vec<u32> {
    v.iter()
        .flat_map(|&x| [x as u32, (x >> 32) as u32])
        .collect()
}

fn unlongs(w: &[u32]) -> Vec<u64> {
    w.chunks(2)
        .map(|c| c[0] as u64 | (c[1] as u64) << 32)
        .collect()
}

#[test]
fn sixty_four_bit_and_float_atomics_match_a_reference_and_clang() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let (grid, wg) = (256u32, 64u32);
    let n = grid as u64;
    let groups = (grid / wg) as usize;
    let g0: Vec<u64> = {
        let mut g = vec![0u64; 16 + groups * 6];
        g[0] = 0xffff_fff0;
        g[1] = 7;
        g[2] = 0x1234_5678_9abc_def0;
        g[3] = i64::MAX as u64;
        g[4] = i64::MIN as u64;
        g[5] = u64::MAX; // -1
        g[6] = 0xffff_ffff;
        g[7] = 0x1_0000_0080;
        g
    };
    let u0 = vec![u64::MAX, 0, u64::MAX, 0, 0x0f0f_0f0f_0f0f_0f0f];
    let a0 = vec![
        0x8000_0000u64,
        i64::MAX as u64,
        i64::MIN as u64,
        0x5555,
        0,
        -7i64 as u64,
    ];
    let au0 = vec![0x1_0000_0100u64, 0, 0xffff, u64::MAX, u64::MAX, 0];
    let af0 = [0.0f32, -1.0, 10.0];
    let v = |i: u64| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ (i << 40);
    // The final words every order gives.
    let mut g = g0.clone();
    let mut u = u0.clone();
    let mut a = a0.clone();
    let mut au = au0.clone();
    g[0] += n;
    for i in 0..n {
        let x = v(i);
        g[1] = g[1].wrapping_add(x);
        g[2] = g[2].wrapping_sub(x);
        g[3] = (g[3] as i64).min(x as i64) as u64;
        g[4] = (g[4] as i64).max(x as i64) as u64;
        u[0] = u[0].min(x);
        u[1] = u[1].max(x);
        u[2] &= !(1u64 << (i % 64));
        u[3] |= 1u64 << ((i * 7) % 64);
        u[4] ^= x;
        g[6] = g[6].wrapping_add(i.wrapping_mul(0x1_0000_0003));
        g[7] = g[7].wrapping_sub(1);
        a[0] = a[0].wrapping_add(x);
        a[1] = (a[1] as i64).min(x as i64) as u64;
        a[2] = (a[2] as i64).max(x as i64) as u64;
        a[3] ^= x;
        au[0] = au[0].wrapping_sub(3);
        au[1] |= 1u64 << (i % 61);
        au[2] ^= x;
        au[3] &= !(1u64 << (i % 63));
        au[4] = au[4].min(x);
        au[5] = au[5].max(x);
    }
    a[4] = 5;
    for grp in 0..groups {
        let r = &mut g[16 + grp * 6..][..6];
        let members = (grp as u64 * wg as u64)..((grp as u64 + 1) * wg as u64);
        r[0] = 0xffff_fff0 + wg as u64;
        r[1] = members.clone().fold(0u64, |s, i| s.wrapping_add(v(i)));
        r[2] = members.clone().map(|i| v(i) as i64).min().unwrap() as u64;
        r[3] = members.clone().map(|i| v(i) as i64).max().unwrap() as u64;
        r[4] = members.clone().fold(0, |s, i| s ^ v(i));
        r[5] = members.fold(u64::MAX, |s, i| s & !(1u64 << ((i % wg as u64) % 64)));
    }
    for wave64 in [false, true] {
        let k = build_kernel(SOURCE, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let args = [
            TestArg::Buf(longs(&g0)),
            TestArg::Buf(longs(&u0)),
            TestArg::Buf(vec![0; grid as usize * 10]),
            TestArg::Buf(longs(&a0)),
            TestArg::Buf(longs(&au0)),
            TestArg::Buf(af0.iter().map(|f| f.to_bits()).collect()),
            TestArg::Buf(vec![0; grid as usize]),
        ];
        let dims = LaunchDims::linear(grid, wg);
        let what = format!("wave64={wave64}");
        let out = run_elf_dims(&ours, "k", dims, &args).unwrap_or_else(|e| panic!("{what}: {e}"));
        let check = |who: &str, out: &[Vec<u32>]| {
            let (gg, uu, olds) = (unlongs(&out[0]), unlongs(&out[1]), unlongs(&out[2]));
            let (aa, aau) = (unlongs(&out[3]), unlongs(&out[4]));
            let xchg_g5 = gg[5];
            let mut gl = g.clone();
            gl[5] = xchg_g5;
            assert_eq!(gg, gl, "{who}: the __global long words (g[0..8], then per group: local add, sum, min, max, xor, and)");
            assert_eq!(uu, u, "{who}: the __global ulong words");
            let mut aal = a.clone();
            aal[5] = aa[5];
            assert_eq!(aa, aal, "{who}: the atomic_long words");
            assert_eq!(aau, au, "{who}: the atomic_ulong words");
            // atom_inc tickets: each value from the start once.
            let mut t: Vec<u64> = (0..n as usize).map(|i| olds[i * 5]).collect();
            t.sort_unstable();
            assert_eq!(
                t,
                (0..n).map(|k| 0xffff_fff0 + k).collect::<Vec<_>>(),
                "{who}: atom_inc tickets"
            );
            // Exchanges: the olds and the final word are the start and every i.
            for (col, start, fin) in [(1usize, g0[5], xchg_g5), (3, a0[5], aa[5])] {
                let mut s: Vec<u64> = (0..n as usize).map(|i| olds[i * 5 + col]).collect();
                s.push(fin);
                s.sort_unstable();
                let mut want: Vec<u64> = (0..n).collect();
                want.push(start);
                want.sort_unstable();
                assert_eq!(s, want, "{who}: exchange column {col}");
            }
            // __local add tickets per group.
            for grp in 0..groups {
                let mut t: Vec<u64> = (0..wg as usize)
                    .map(|l| olds[(grp * wg as usize + l) * 5 + 2])
                    .collect();
                t.sort_unstable();
                assert_eq!(
                    t,
                    (0..wg as u64).map(|k| 0xffff_fff0 + k).collect::<Vec<_>>(),
                    "{who}: local tickets of group {grp}"
                );
            }
            // fetch_sub tickets: the start minus 3k.
            let mut t: Vec<u64> = (0..n as usize).map(|i| olds[i * 5 + 4]).collect();
            t.sort_unstable();
            let mut want: Vec<u64> = (0..n).map(|k| au0[0] - 3 * k).collect();
            want.sort_unstable();
            assert_eq!(t, want, "{who}: atomic_fetch_sub tickets");
            // Floats: the store, the exchange permutation, n compare-exchange adds.
            let af: Vec<f32> = out[5].iter().map(|&b| f32::from_bits(b)).collect();
            assert_eq!(af[0], 2.5, "{who}: atomic_store of a float");
            assert_eq!(af[2], 10.0 + n as f32, "{who}: float compare-exchange loop");
            let mut s: Vec<f32> = out[6].iter().map(|&b| f32::from_bits(b)).collect();
            s.push(af[1]);
            s.sort_by(f32::total_cmp);
            let mut want: Vec<f32> = (0..n).map(|i| i as f32).collect();
            want.push(-1.0);
            want.sort_by(f32::total_cmp);
            assert_eq!(s, want, "{who}: float exchanges");
        };
        check(&format!("gpusim {what}"), &out);
        match clang_rocm_object(SOURCE, wave64, &format!("atom64{wave64}")) {
            Ok(elf) => {
                let theirs = run_elf_dims(&elf, "k", dims, &args)
                    .unwrap_or_else(|e| panic!("{what}, clang's object: {e}"));
                check(&format!("clang {what}"), &theirs);
            }
            Err(e) => {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
        }
    }
}

/// `atomic_flag_test_and_set`/`atomic_flag_clear` (and `_explicit`): a
/// spin lock around a non-atomic read-modify-write of a global counter by
/// 256 work-items in wave32 and wave64 (one work-item per wave at a time,
/// the others retry); the count must be exact, also with clang-19's object.
#[test]
fn atomic_flag_spin_lock_counts_exactly() {
    let src = "
__kernel void k(__global atomic_flag *lock, volatile __global int *count, __global int *seen,
                __global atomic_flag *other) {
  size_t i = get_global_id(0);
  int done = 0;
  /* One lane of a wave at a time takes the lock; the loop runs until
     every lane has had its turn (no lane spins while holding it). */
  for (int tries = 0; tries < 100000 && !done; ++tries) {
    if (!atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device)) {
      int c = *count;
      *count = c + 1;
      seen[i] = c;
      atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
      done = 1;
    }
  }
  if (i == 0) {
    int a = atomic_flag_test_and_set(other);
    int b = atomic_flag_test_and_set(other);
    atomic_flag_clear(other);
    seen[256] = a + 2 * b + 4 * atomic_flag_test_and_set(other);
    seen[257] = ATOMIC_FLAG_INIT;
  }
}";
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    for wave64 in [false, true] {
        let args = [
            TestArg::Buf(vec![0]),
            TestArg::Buf(vec![0]),
            TestArg::Buf(vec![u32::MAX; 258]),
            TestArg::Buf(vec![0]),
        ];
        let check = |who: &str, out: &[Vec<u32>]| {
            assert_eq!(out[0][0], 0, "{who}: the lock is left clear");
            assert_eq!(out[3][0], 1, "{who}: the other flag is left set");
            assert_eq!(out[1][0], 256, "{who}: the count");
            let mut s: Vec<u32> = out[2][..256].to_vec();
            s.sort_unstable();
            assert_eq!(
                s,
                (0..256).collect::<Vec<u32>>(),
                "{who}: each count seen once"
            );
            assert_eq!(
                out[2][256..],
                [2, 0],
                "{who}: test_and_set, set, clear, test_and_set; ATOMIC_FLAG_INIT"
            );
        };
        let k = build_kernel(src, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let dims = LaunchDims::linear(256, 64);
        let out = run_elf_dims(&ours, "k", dims, &args).expect("runs");
        check(&format!("gpusim wave64={wave64}"), &out);
        match clang_rocm_object(src, wave64, &format!("flag{wave64}")) {
            Ok(elf) => {
                let theirs = run_elf_dims(&elf, "k", dims, &args).expect("clang's object runs");
                check(&format!("clang wave64={wave64}"), &theirs);
            }
            Err(e) => {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
        }
    }
}

/// Float atomic add (cl_ext_float_atomics; `lib/atomics.cl`'s
/// compare-and-swap loops): 1024 work-items add to 4 global words (each
/// old value must come back exactly once: 0, 1, ..., 255 per word), to 2
/// more with `seq_cst` and quarter values, and to 2 `__local` words per
/// group; every sum is exact (representable values). clang-19 declares no
/// float `atomic_fetch_add`, so the kernel uses clang's
/// `__opencl_atomic_fetch_add`, which both compilers take, and clang's
/// object must give the same words.
#[test]
fn float_atomic_add_is_exact_under_contention() {
    let src = "
__kernel void k(__global atomic_float *bins, __global float *olds, __global float *lsum) {
  size_t i = get_global_id(0), l = get_local_id(0);
  __local atomic_float lb[2];
  if (l < 2)
    __opencl_atomic_store(&lb[l], 0.0f, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  olds[i] = __opencl_atomic_fetch_add(&bins[i % 4], 1.0f, memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_add(&bins[4 + i % 2], (float)(i % 7) * 0.25f, memory_order_seq_cst,
                            memory_scope_device);
  __opencl_atomic_fetch_add(&lb[i % 2], 0.5f, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 2)
    lsum[get_group_id(0) * 2 + l] =
        __opencl_atomic_load(&lb[l], memory_order_relaxed, memory_scope_work_group);
}";
    let n = 1024usize;
    let wg = 128usize;
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let check = |who: &str, out: &[Vec<u32>]| {
        let f = |w: u32| f32::from_bits(w);
        for b in 0..4 {
            assert_eq!(f(out[0][b]), (n / 4) as f32, "{who}: bin {b}");
            let mut olds: Vec<u32> = (b..n).step_by(4).map(|i| f(out[1][i]) as u32).collect();
            olds.sort_unstable();
            assert_eq!(
                olds,
                (0..(n / 4) as u32).collect::<Vec<_>>(),
                "{who}: bin {b}'s old values"
            );
        }
        for b in 0..2 {
            let want: f32 = (b..n).step_by(2).map(|i| (i % 7) as f32 * 0.25).sum();
            assert_eq!(f(out[0][4 + b]), want, "{who}: seq_cst bin {b}");
        }
        for g in 0..n / wg {
            for b in 0..2 {
                assert_eq!(
                    f(out[2][g * 2 + b]),
                    (wg / 4) as f32,
                    "{who}: group {g} local {b}"
                );
            }
        }
    };
    for wave64 in [false, true] {
        let args = [
            TestArg::Buf(vec![0; 6]),
            TestArg::Buf(vec![0; n]),
            TestArg::Buf(vec![0; 2 * n / wg]),
        ];
        let k = build_kernel(src, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let dims = LaunchDims::linear(n as u32, wg as u32);
        let out = run_elf_dims(&ours, "k", dims, &args).expect("runs");
        check(&format!("gpusim wave64={wave64}"), &out);
        match clang_rocm_object(src, wave64, &format!("fadd{wave64}")) {
            Ok(elf) => {
                let theirs = run_elf_dims(&elf, "k", dims, &args).expect("clang's object runs");
                check(&format!("clang wave64={wave64}"), &theirs);
            }
            Err(e) => {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
        }
    }
}

/// The OpenCL names of cl_ext_float_atomics on `atomic_float`:
/// `atomic_fetch_add[_explicit]`, `atomic_fetch_sub`, `atomic_fetch_min`,
/// `atomic_fetch_max`, through global and generic pointers, 512
/// work-items on one word each (gpusim only: clang-19 declares none).
#[test]
fn float_atomic_fetch_sub_min_max_and_generic_pointers() {
    let src = "
__kernel void k(__global atomic_float *f) {
  size_t i = get_global_id(0);
  atomic_fetch_add_explicit(&f[0], 2.0f, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub(&f[1], 1.0f);
  atomic_fetch_min(&f[2], (float)i - 100.0f);
  atomic_fetch_max_explicit(&f[3], (float)i * 0.5f, memory_order_release);
  volatile atomic_float *gp = &f[4];
  atomic_fetch_add_explicit(gp, 0.25f, memory_order_acq_rel);
}";
    for wave64 in [false, true] {
        let init = [0.0f32, 1000.0, 5.0, -1.0, 0.0];
        let args = [TestArg::Buf(init.iter().map(|v| v.to_bits()).collect())];
        let k = build_kernel(src, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let out = run_elf_dims(&ours, "k", LaunchDims::linear(512, 64), &args).expect("runs");
        let got: Vec<f32> = out[0].iter().map(|&w| f32::from_bits(w)).collect();
        assert_eq!(
            got,
            [1024.0, 488.0, -100.0, 255.5, 128.0],
            "wave64={wave64}: add, sub, min, max, generic add"
        );
    }
}
