#!/usr/bin/env bash
# Regenerates the sweep images of docs/sweeps.md and the timeline pictures of
# docs/timeline.md from a release build (needs rsvg-convert: librsvg2-bin):
#   docs/images/make-sweep-images.sh
# Runs workloads/sweeps/l2-cus-scheduler.yaml (36 jobs), collects it, and
# copies the CSV and the plots the documents show.
set -euo pipefail
cd "$(dirname "$0")/../.."
gpusim=target/release/gpusim
[ -x "$gpusim" ] || cargo build --release -p cosim --bin gpusim
out=$(mktemp -d)
"$gpusim" sweep workloads/sweeps/l2-cus-scheduler.yaml -j 2 --out "$out/sweep"
"$gpusim" collect "$out/sweep"
mkdir -p docs/images/sweep
cp "$out/sweep/results.csv" docs/images/sweep/results.csv
rm -f docs/images/sweep/*.svg docs/images/sweep/*.png
for p in speedup-vs-cus cycles-vs-cus summary.l2_hit_rate-vs-memory.l2.size_bytes cycles-vs-cu.scheduler stalls-w2; do
  cp "$out/sweep/plots/$p.svg" "docs/images/sweep/$p.svg"
  rsvg-convert -o "docs/images/sweep/$p.png" "docs/images/sweep/$p.svg"
done
# The timeline pictures: saxpy on the 1-CU GPU, and a 115 K-cycle run on
# the default GPU (the size bound at work).
"$gpusim" run workloads/corpus/gfx1030/saxpy.yaml --model cycle \
  --config hw/configs/1cu.yaml --timeline docs/images/timeline-saxpy.svg
rsvg-convert -o docs/images/timeline-saxpy.png docs/images/timeline-saxpy.svg
"$gpusim" run workloads/sweeps/tile/matvec_tile.yaml --model cycle \
  --timeline docs/images/timeline-matvec.svg
rsvg-convert -o docs/images/timeline-matvec.png docs/images/timeline-matvec.svg
rm -rf "$out"
