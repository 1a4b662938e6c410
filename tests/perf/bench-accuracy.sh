#!/bin/bash
# Accuracy of the cpu bench backend (issue 6): in one run on one machine,
#   1. its copy and triad past the last-level cache (the first footprint
#      resident in memory, profile/stream_rule.h) against STREAM-style
#      reference loops built with the same flags
#      (tests/perf/bench_cpu_ref.c): within 10% expected;
#   2. its fp64 and fp32 GEMM against OpenBLAS called directly in a plain
#      loop, same size and threads: within 5% expected.
# Both sides report the median of their repetitions.  Not a test: it
# prints the figures and the ratios (backend / reference), and exits 1
# when a ratio is outside its bound so that a script can notice.
#
#   tests/perf/bench-accuracy.sh [BUILD_DIR] [THREADS] [GEMM_SIZE]
# BUILD_DIR defaults to build; THREADS to every online CPU; GEMM_SIZE to
# 1024 (past where a small machine's GEMM rate stops growing).
# QUICK=1 measures the backend's side with the quick suite's policy
# (`bench_cpu --quick`: fewer, shorter repetitions) and prints a ratio
# outside its bound without exiting 1: a quick figure is a first look, not
# what the bounds hold, and tests/perf/run-small.sh runs it so (with
# THREADS 1 and GEMM_SIZE 128) only to see that it runs.
set -eu
build=${1:-build}
threads=${2:-$(nproc)}
gemm_n=${3:-1024}
quick=()
[ "${QUICK:-0}" = 1 ] && quick=(--quick)
cpu=$build/tests/bench_cpu
ref=$build/tests/bench_cpu_ref
for b in "$cpu" "$ref"; do
	[ -x "$b" ] || { echo "missing $b: build first" >&2; exit 1; }
done

# rate LINE: the number before the first "GB/s" or "GFLOP/s" in LINE.
rate() {
	awk '{ for (i = 2; i <= NF; i++) if ($i == "GB/s" || $i == "GFLOP/s") { print $(i - 1); exit } }'
}

status=0
# compare WHAT OURS REF BOUND: prints the ratio and the verdict.
compare() {
	awk -v what="$1" -v a="$2" -v b="$3" -v bound="$4" 'BEGIN {
		r = a / b; ok = (r >= 1 - bound && r <= 1 + bound)
		printf "%-22s backend %8.2f  reference %8.2f  ratio %.3f  %s (within %d%%)\n",
			what, a, b, r, ok ? "ok" : "OUTSIDE", bound * 100
		exit !ok
	}' || status=1
}

echo "threads: $threads; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for k in copy triad; do
	line=$("$cpu" "${quick[@]}" --threads "$threads" --$k top)
	echo "$line"
	bytes=$(awk '/membw/ { v = $3; u = $4; print v * (u == "GiB" ? 2^30 : u == "MiB" ? 2^20 : 2^10) }' <<<"$line")
	ours=$(rate <<<"$line")
	refline=$("$ref" $k "$bytes" "$threads")
	echo "$refline"
	compare "$k GB/s" "$ours" "$(rate <<<"$refline")" 0.10
done

for p in fp64 fp32; do
	line=$("$cpu" "${quick[@]}" --threads "$threads" --gemm $p "$gemm_n")
	echo "$line"
	refline=$("$ref" gemm $p "$gemm_n" "$threads")
	echo "$refline"
	compare "$p gemm GFLOP/s" "$(rate <<<"$line")" "$(rate <<<"$refline")" 0.05
done
if [ $status != 0 ] && [ ${#quick[@]} != 0 ]; then
	echo "QUICK=1: a ratio outside its bound is not a failure at this size"
	status=0
fi
exit $status
