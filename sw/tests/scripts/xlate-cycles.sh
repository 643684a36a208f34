#!/usr/bin/env bash
# Cycles of each gfx803 corpus workload translated to gfx1030 wave64 (the
# default for a gfx803 workload) against the same kernel compiled natively
# for gfx1030 wave64 (workloads/corpus/gfx1030-w64), both on the clocked
# model (--model cycle, default configuration). Prints a Markdown table and
# the geometric mean of translated/native (issue 9 target: <= 1.25).
#   cargo build --release -p cosim --bin gpusim
#   bash sw/tests/scripts/xlate-cycles.sh [GPUSIM]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"
GPUSIM=${1:-target/release/gpusim}
cycles() { # workload -> "cycles instructions-total" (exit status of the run is checked)
  "$GPUSIM" run "$1" --model cycle --stats json | grep "^{" | tail -1 |
    python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["cycles"], sum(s["instructions"].values()))'
}
echo "| workload | translated cycles | native w64 cycles | ratio | translated wave instr. | native wave instr. |"
echo "|---|---:|---:|---:|---:|---:|"
logsum=0
n=0
for w in workloads/corpus/gfx803/*.yaml; do
  name=$(basename "$w" .yaml)
  native="workloads/corpus/gfx1030-w64/$name.yaml"
  [ -f "$native" ] || continue
  read -r tc ti < <(cycles "$w")
  read -r nc ni < <(cycles "$native")
  ratio=$(python3 -c "print(f'{$tc/$nc:.3f}')")
  echo "| $name | $tc | $nc | $ratio | $ti | $ni |"
  logsum=$(python3 -c "import math; print($logsum + math.log($tc/$nc))")
  n=$((n + 1))
done
python3 -c "import math; print(f'\ngeometric mean translated/native over $n workloads: {math.exp($logsum/$n):.3f}')"
