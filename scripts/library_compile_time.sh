#!/usr/bin/env bash
# Compile time of kernels that call the device library (issue 26): whole
# `gpusim compile` process against whole clang-19 processes, paired run by run.
#
#   bash scripts/library_compile_time.sh [RUNS] [GPUSIM]
#
# For every kernel sw/compiler/tests/library_kernels/K.cl it runs RUNS
# triples (default 7) after one warm-up triple, alternating
#   A: gpusim compile K.cl -o A.hsaco
#   B: clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030
#      -O3 -nogpulib -c K.cl -o B.o
#      (compile only, the library calls left undefined: clang's lower bound,
#      it does not even compile the math functions)
#   C: the same with ROCm's device libraries linked (--rocm-device-lib-path,
#      compile and ld.lld link: a loadable object, what a clang user gets)
# and prints a Markdown table of median wall times and the medians of the
# per-run ratios B/A and C/A, with their geometric means. Each run is a fresh
# process, so every gpusim run pays for the library parts it needs.
# Needs clang-19 and ROCm's bitcode (ROCM_BC, default the Debian path);
# exits 2 without them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${1:-7}"
GPUSIM="${2:-target/release/gpusim}"
ROCM_BC="${ROCM_BC:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}"
for tool in clang-19 ld.lld-19 "$GPUSIM"; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "$tool" ] || { echo "error: $tool not found" >&2; exit 2; }
done
[ -f "$ROCM_BC/ocml.bc" ] || { echo "error: no ocml.bc in $ROCM_BC (set ROCM_BC)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Wall time of one command in microseconds (its output discarded).
wall_us() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "error: failed: $*" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000 ))
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ms() { awk -v x="$1" 'BEGIN { printf "%.1f", x / 1000 }'; }

echo "| kernel | gpusim (ms) | clang -nogpulib -c (ms) | clang + ROCm libs (ms) | ratio -nogpulib | ratio ROCm |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
lb=0
lc=0
count=0
for src in sw/compiler/tests/library_kernels/*.cl; do
  k="$(basename "$src" .cl)"
  a_cmd=("$GPUSIM" compile "$src" -o "$work/a.hsaco")
  clang=(clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -O3)
  b_cmd=("${clang[@]}" -nogpulib -c "$src" -o "$work/b.o")
  c_cmd=("${clang[@]}" --rocm-device-lib-path="$ROCM_BC" "$src" -o "$work/c.hsaco")
  wall_us "${a_cmd[@]}" >/dev/null
  wall_us "${b_cmd[@]}" >/dev/null
  wall_us "${c_cmd[@]}" >/dev/null
  : >"$work/a"; : >"$work/b"; : >"$work/c"; : >"$work/rb"; : >"$work/rc"
  for _ in $(seq "$RUNS"); do
    a=$(wall_us "${a_cmd[@]}")
    b=$(wall_us "${b_cmd[@]}")
    c=$(wall_us "${c_cmd[@]}")
    echo "$a" >>"$work/a"; echo "$b" >>"$work/b"; echo "$c" >>"$work/c"
    awk -v a="$a" -v b="$b" 'BEGIN { print b / a }' >>"$work/rb"
    awk -v a="$a" -v c="$c" 'BEGIN { print c / a }' >>"$work/rc"
  done
  rb=$(median <"$work/rb")
  rc=$(median <"$work/rc")
  printf '| %s | %s | %s | %s | %.1f× | %.1f× |\n' "$k" "$(ms "$(median <"$work/a")")" \
    "$(ms "$(median <"$work/b")")" "$(ms "$(median <"$work/c")")" "$rb" "$rc"
  lb=$(awk -v s="$lb" -v r="$rb" 'BEGIN { print s + log(r) }')
  lc=$(awk -v s="$lc" -v r="$rc" 'BEGIN { print s + log(r) }')
  count=$((count + 1))
done
awk -v b="$lb" -v c="$lc" -v n="$count" \
  'BEGIN { printf "| **geometric mean** (%d kernels) | | | | **%.1f×** | **%.1f×** |\n", n, exp(b / n), exp(c / n) }'
