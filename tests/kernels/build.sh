#!/usr/bin/env bash
# Rebuild the kernel corpus with LLVM 19 and regenerate the oracle files.
#
#   bash tests/kernels/build.sh           rebuild prebuilt/ and expected/ in place
#   bash tests/kernels/build.sh --check   rebuild into a temporary directory and
#                                         exit 1 listing every file that differs
#                                         from the committed one (or is missing/extra)
#
# For every tests/kernels/K.cl and every target T in gfx803, gfx1030,
# gfx1030-w64 it writes
#   prebuilt/T/K.hsaco    the linked code object
#   expected/T/K.dis      llvm-objdump-19 -d K.hsaco   (run inside prebuilt/T;
#                         gfx1030-w64 adds --mattr=+wavefrontsize64)
#   expected/T/K.notes    llvm-readelf-19 --notes K.hsaco (same directory)
#
# Work-creation kernels (seed 001): every tests/kernels/work/K.cl is built the
# same way with the device library (-I sw/devlib) into
#   work/prebuilt/T/K.hsaco
# (no oracle files: they are not part of the disassembly corpus).
# The script always runs from the repository root with relative paths so that
# nothing machine-specific ends up in the objects (see docs/corpus.md). The
# intermediate K.o files live in a temporary directory and are not committed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

CLANG=clang-19
LLD=ld.lld-19
OBJDUMP=llvm-objdump-19
READELF=llvm-readelf-19
TARGETS=(gfx803 gfx1030 gfx1030-w64)

check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

for tool in "$CLANG" "$LLD" "$OBJDUMP" "$READELF"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found on PATH" >&2; exit 2; }
done

# llvm-objdump cannot see the wave size in a gfx10 ELF header (it lives in each
# kernel descriptor), so it is told: without it, wave64 code prints with wave32
# register names (vcc_lo for a 64-bit lane mask).
objdump_flags() {
  case "$1" in
    gfx1030-w64) echo "--mattr=+wavefrontsize64" ;;
    *) echo "" ;;
  esac
}

# Exact clang flags per target directory.
target_flags() {
  case "$1" in
    gfx803) echo "-mcpu=gfx803" ;;
    gfx1030) echo "-mcpu=gfx1030" ;;
    gfx1030-w64) echo "-mcpu=gfx1030 -mwavefrontsize64" ;;
  esac
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$check" = 1 ]; then out="$work/out"; else out="tests/kernels"; fi

kernels=()
for src in tests/kernels/*.cl; do
  kernels+=("$(basename "$src" .cl)")
done

for t in "${TARGETS[@]}"; do
  mkdir -p "$out/prebuilt/$t" "$out/expected/$t" "$work/obj/$t"
  # In-place rebuild: drop outputs of kernels that no longer exist.
  rm -f "$out/prebuilt/$t"/*.hsaco "$out/expected/$t"/*.dis "$out/expected/$t"/*.notes
  for k in "${kernels[@]}"; do
    # shellcheck disable=SC2046 # target_flags is deliberately word-split
    "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa $(target_flags "$t") -O3 -nogpulib \
      -I tests/kernels/include -c "tests/kernels/$k.cl" -o "$work/obj/$t/$k.o"
    "$LLD" -shared "$work/obj/$t/$k.o" -o "$out/prebuilt/$t/$k.hsaco"
    # shellcheck disable=SC2046 # objdump_flags is deliberately word-split
    (cd "$out/prebuilt/$t" && "$OBJDUMP" -d $(objdump_flags "$t") "$k.hsaco") >"$out/expected/$t/$k.dis"
    (cd "$out/prebuilt/$t" && "$READELF" --notes "$k.hsaco") >"$out/expected/$t/$k.notes"
  done
done

work_kernels=()
for src in tests/kernels/work/*.cl; do
  [ -e "$src" ] || continue
  work_kernels+=("$(basename "$src" .cl)")
done
for t in "${TARGETS[@]}"; do
  mkdir -p "$out/work/prebuilt/$t" "$work/wobj/$t"
  rm -f "$out/work/prebuilt/$t"/*.hsaco
  for k in "${work_kernels[@]}"; do
    # shellcheck disable=SC2046 # target_flags is deliberately word-split
    "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa $(target_flags "$t") -O3 -nogpulib \
      -I tests/kernels/include -I sw/devlib -c "tests/kernels/work/$k.cl" -o "$work/wobj/$t/$k.o"
    "$LLD" -shared "$work/wobj/$t/$k.o" -o "$out/work/prebuilt/$t/$k.hsaco"
  done
done

# Extra test kernels that are not corpus kernels (no reference, no oracle
# files): tests/kernels/extra/K.cl -> extra/prebuilt/T/K.hsaco, with argument
# names in the metadata (-cl-kernel-arg-info) as user-built objects have.
extra_kernels=()
for src in tests/kernels/extra/*.cl; do
  [ -e "$src" ] || continue
  extra_kernels+=("$(basename "$src" .cl)")
done
for t in "${TARGETS[@]}"; do
  mkdir -p "$out/extra/prebuilt/$t" "$work/xobj/$t"
  rm -f "$out/extra/prebuilt/$t"/*.hsaco
  for k in "${extra_kernels[@]}"; do
    # shellcheck disable=SC2046 # target_flags is deliberately word-split
    "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa $(target_flags "$t") -O3 -nogpulib \
      -cl-kernel-arg-info -I tests/kernels/include -c "tests/kernels/extra/$k.cl" -o "$work/xobj/$t/$k.o"
    "$LLD" -shared "$work/xobj/$t/$k.o" -o "$out/extra/prebuilt/$t/$k.hsaco"
  done
done

if [ "$check" = 0 ]; then
  echo "built ${#extra_kernels[@]} extra test kernels x ${#TARGETS[@]} targets into tests/kernels/extra/prebuilt"
  echo "built ${#work_kernels[@]} work-creation kernels x ${#TARGETS[@]} targets into tests/kernels/work/prebuilt"
  echo "built ${#kernels[@]} kernels x ${#TARGETS[@]} targets into tests/kernels/{prebuilt,expected}"
  exit 0
fi

# Compare both ways so missing and extra files are reported too.
for t in "${TARGETS[@]}"; do
  for sub in prebuilt expected work/prebuilt extra/prebuilt; do
    committed="tests/kernels/$sub/$t"
    fresh="$out/$sub/$t"
    for f in "$fresh"/* "$committed"/*; do
      [ -e "$f" ] || continue
      name="$(basename "$f")"
      if [ ! -e "$committed/$name" ]; then
        echo "missing: $committed/$name"
      elif [ ! -e "$fresh/$name" ]; then
        echo "stale (no source): $committed/$name"
      elif ! cmp -s "$committed/$name" "$fresh/$name"; then
        echo "differs: $committed/$name"
      fi
    done | sort -u
  done
done | tee "$work/report"
if [ -s "$work/report" ]; then
  echo "build.sh --check: the committed corpus is out of date; run: bash tests/kernels/build.sh" >&2
  exit 1
fi
echo "build.sh --check: ${#kernels[@]} kernels x ${#TARGETS[@]} targets match the committed files"
