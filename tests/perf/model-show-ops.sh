#!/bin/bash
# Speed of `gpuplan model show --ops` on a 1,000-op graph (issue: under
# 10 ms).  Generates the graph (250 conv + batchnorm + relu + add blocks,
# written out op by op, no repeats), then times whole runs of the command,
# process start included, and prints the median and the spread.
#
#   tests/perf/model-show-ops.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-50}
gpuplan=$build/gpuplan
work=$(mktemp -d /tmp/gpuplan-perf.XXXXXX)
trap 'rm -rf "$work"' EXIT

graph=$work/graph-1000.yaml
{
	echo "schema: gpuplan/model/v1"
	echo "name: perf-1000"
	echo "kind: graph"
	echo "input: {channels: 64, height: 56, width: 56}"
	echo "ops:"
	for i in $(seq 1 250); do
		echo "  - {conv: {out: 64, kernel: 3, padding: 1}, name: c$i}"
		echo "  - batchnorm"
		echo "  - relu"
		echo "  - add: {with: c$i}"
	done
} >"$graph"

ops=$("$gpuplan" model show "$graph" --ops --format json | jq '.ops | length')
times=()
for _ in $(seq 1 "$runs"); do
	t0=$(date +%s%N)
	"$gpuplan" model show "$graph" --ops --format json >/dev/null
	t1=$(date +%s%N)
	times+=($(( (t1 - t0) / 1000 )))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
lo=$(echo "$sorted" | head -1)
hi=$(echo "$sorted" | tail -1)
table=$( { t0=$(date +%s%N); "$gpuplan" model show "$graph" --ops --format table >/dev/null; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 )); } )
printf 'graph: %s ops\n' "$ops"
printf 'model show --ops --format json, %d runs: median %.2f ms (min %.2f, max %.2f), whole process\n' \
	"$runs" "$(echo "$median / 1000" | bc -l)" "$(echo "$lo / 1000" | bc -l)" "$(echo "$hi / 1000" | bc -l)"
printf 'model show --ops --format table, one run: %.2f ms\n' "$(echo "$table / 1000" | bc -l)"
printf 'target: under 10 ms -> %s\n' "$([ "$median" -lt 10000 ] && echo met || echo MISSED)"
