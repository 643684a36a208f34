#!/usr/bin/env bash
# Regenerates docs/images/gtkwave-reduce_sum.png: runs reduce_sum on the 1-CU
# clocked GPU into /tmp/reduce.vcd and photographs GTKWave showing
# docs/images/reduce_sum.gtkw under a virtual X server.
# Needs: apt-get install -y gtkwave xvfb imagemagick
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo run --release -q -p cosim --bin gpusim -- run workloads/corpus/gfx1030/reduce_sum.yaml \
  --model cycle --config hw/configs/1cu.yaml --vcd /tmp/reduce.vcd --to 3000 >/dev/null
Xvfb :99 -screen 0 1400x640x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 2
DISPLAY=:99 gtkwave docs/images/reduce_sum.gtkw >/dev/null 2>&1 &
sleep 8
DISPLAY=:99 import -window root docs/images/gtkwave-reduce_sum.png
kill %2 2>/dev/null || true
