#!/usr/bin/env bash
# Rebuild the language conformance corpus with clang-19 (the oracle).
#
#   bash tests/kernels/conformance/build.sh          rebuild prebuilt/ in place
#   bash tests/kernels/conformance/build.sh --check  rebuild into a temporary
#                                                    directory; exit 1 listing
#                                                    every object that differs
#
# Every tests/kernels/conformance/K.cl becomes prebuilt/gfx1030/K.hsaco with
# the corpus's exact command (tests/kernels/build.sh): clang-19 -x cl
# -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -O3 -nogpulib
# -I tests/kernels/include, then ld.lld-19 -shared. A first line
# `// FLAGS: ...` adds clang flags (sw/compiler/tests/conformance.rs gives
# gpusim the same ones). The script runs from the repository root with
# relative paths so nothing machine-specific ends up in the objects.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
cd "$ROOT"

CLANG=clang-19
LLD=ld.lld-19
DIR=tests/kernels/conformance

check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
for tool in "$CLANG" "$LLD"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found on PATH" >&2; exit 2; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$check" = 1 ]; then out="$work/out"; else out="$DIR/prebuilt"; fi
mkdir -p "$out/gfx1030"
[ "$check" = 1 ] || rm -f "$out/gfx1030"/*.hsaco

n=0
for src in "$DIR"/*.cl; do
  k="$(basename "$src" .cl)"
  flags="$(sed -n '1s|^// FLAGS: ||p' "$src")"
  # shellcheck disable=SC2086 # the flags are deliberately word-split
  "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -O3 -nogpulib \
    -I tests/kernels/include $flags -c "$src" -o "$work/$k.o" 2>"$work/$k.log" || {
    cat "$work/$k.log" >&2; exit 1; }
  "$LLD" -shared "$work/$k.o" -o "$out/gfx1030/$k.hsaco"
  n=$((n + 1))
done

if [ "$check" = 0 ]; then
  echo "built $n conformance kernels into $DIR/prebuilt/gfx1030"
  exit 0
fi
diffs=""
for f in "$out/gfx1030"/* "$DIR/prebuilt/gfx1030"/*; do
  [ -e "$f" ] || continue
  name="$(basename "$f")"
  if [ ! -e "$DIR/prebuilt/gfx1030/$name" ]; then diffs+="missing: $DIR/prebuilt/gfx1030/$name"$'\n'
  elif [ ! -e "$out/gfx1030/$name" ]; then diffs+="extra: $DIR/prebuilt/gfx1030/$name"$'\n'
  elif ! cmp -s "$out/gfx1030/$name" "$DIR/prebuilt/gfx1030/$name"; then diffs+="differs: $DIR/prebuilt/gfx1030/$name"$'\n'
  fi
done
if [ -n "$diffs" ]; then
  printf '%s' "$diffs" | sort -u
  exit 1
fi
echo "the committed conformance objects match a fresh clang-19 build"
