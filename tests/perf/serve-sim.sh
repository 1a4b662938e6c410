#!/bin/bash
# Speed of the continuous-batching simulation (issue: one service with
# 100,000 requests in under 0.2 s): Llama-2-7B on one H100, at a light,
# a busy and a saturating load; and the default plan's wall time
# (target: under 1 s).  Prints figures; asserts nothing.
#
#   tests/perf/serve-sim.sh [BUILD_DIR] [REQUESTS]
# REQUESTS defaults to 100,000 (tests/perf/run-small.sh runs 10,000).
set -eu
build=${1:-build}
requests=${2:-100000}
for rate in 2 10 20; do
	"$build/tests/bench_serve_sim" "$requests" "$rate"
done
/usr/bin/time -f 'default plan: %e s wall, %M KiB peak RSS' \
	"$build/gpuplan" plan --format table -o /dev/null
