#!/usr/bin/env bash
# Compile time of gpusim's compiler against clang-19 (issue 15), whole process
# against whole process, paired run by run.
#
#   bash scripts/compiler_compile_time.sh [RUNS] [GPUSIM]
#
# For every corpus kernel tests/kernels/K.cl that `gpusim compile` accepts, it
# runs RUNS pairs (default 7) after one warm-up pair, alternating
#   A: gpusim compile K.cl -I tests/kernels/include -o A.hsaco
#   B: clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030
#      -O3 -nogpulib -I tests/kernels/include K.cl -o B.hsaco
#      (compile and link: clang's driver runs ld.lld, as tests/kernels/build.sh
#      does in two steps, so both sides end with a loadable code object)
# and prints a Markdown table: the median wall time of each, the median of the
# per-pair ratios clang/gpusim (how many times faster gpusim is), and the
# geometric mean of those medians. GPUSIM defaults to target/release/gpusim.
# Needs clang-19 and ld.lld-19; exits 2 without them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${1:-7}"
GPUSIM="${2:-target/release/gpusim}"
for tool in clang-19 ld.lld-19 "$GPUSIM"; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "$tool" ] || { echo "error: $tool not found" >&2; exit 2; }
done

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

echo "| kernel | gpusim compile (ms, median) | clang-19 -O3 + lld (ms, median) | clang / gpusim (median of pairs) |"
echo "| --- | ---: | ---: | ---: |"
logsum=0
count=0
for src in tests/kernels/*.cl; do
  k="$(basename "$src" .cl)"
  gpusim_cmd=("$GPUSIM" compile "$src" -I tests/kernels/include -o "$work/a.hsaco")
  clang_cmd=(clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -O3 -nogpulib
    -I tests/kernels/include "$src" -o "$work/b.hsaco")
  "${gpusim_cmd[@]}" >/dev/null 2>&1 || continue  # not compiled by gpusim yet
  wall_us "${clang_cmd[@]}" >/dev/null
  : >"$work/a" ; : >"$work/b" ; : >"$work/r"
  for _ in $(seq "$RUNS"); do
    a=$(wall_us "${gpusim_cmd[@]}")
    b=$(wall_us "${clang_cmd[@]}")
    echo "$a" >>"$work/a"
    echo "$b" >>"$work/b"
    awk -v a="$a" -v b="$b" 'BEGIN { print b / a }' >>"$work/r"
  done
  ma=$(median <"$work/a")
  mb=$(median <"$work/b")
  mr=$(median <"$work/r")
  printf '| %s | %.1f | %.1f | %.1f× |\n' "$k" "$(awk -v x="$ma" 'BEGIN { print x / 1000 }')" \
    "$(awk -v x="$mb" 'BEGIN { print x / 1000 }')" "$mr"
  logsum=$(awk -v s="$logsum" -v r="$mr" 'BEGIN { print s + log(r) }')
  count=$((count + 1))
done
awk -v s="$logsum" -v n="$count" 'BEGIN { printf "| **geometric mean** (%d kernels) | | | **%.1f×** |\n", n, exp(s / n) }'
