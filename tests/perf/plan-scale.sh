#!/bin/bash
# Speed and memory of `gpuplan plan` at scale (issue: 10,000 instances x
# 100 workloads in under 1 s and 200 MiB on 2 cores).  Generates the
# input - 10,000 instances cycling through the shipped instance types with
# prices spread +-20% (a deterministic generator, no randomness), and 100
# workloads cycling through the shipped default workloads with their sizes
# scaled - then times one plan, table output, and reports peak memory.
#
#   tests/perf/plan-scale.sh [BUILD_DIR] [INSTANCES] [WORKLOADS]
set -eu
build=${1:-build}
n_inst=${2:-10000}
n_work=${3:-100}
root=$(cd "$(dirname "$0")/../.." && pwd)
gpuplan=$build/gpuplan
work=$(mktemp -d /tmp/gpuplan-scale.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
echo "work folder: $work" >&2

# Instances: the shipped ones re-emitted under new names (gen-catalog.sh).
"$root/tests/perf/gen-catalog.sh" "$gpuplan" "$n_inst" >"$work/catalog.yaml"

# Workloads: the shipped defaults, renamed, with absolute model paths.
{
	echo "schema: gpuplan/workload/v1"
	echo "workloads:"
	for i in $(seq 0 $((n_work - 1))); do
		sed -n '/^workloads:/,$p' "$root/profiles/workloads/default.yaml" |
			tail -n +2 | grep -v '^\s*#' |
			sed "s|name: \(.*\)|name: \1-$i|; s|model: \.\./models/|model: $root/profiles/models/|"
	done
} | awk 'BEGIN{n=0} /^  - name:/{n++} {print}' >"$work/all.yaml"
# keep exactly n_work workloads
awk -v max="$n_work" '/^  - name:/{c++} c<=max{print}' "$work/all.yaml" >"$work/workloads.yaml"

echo "input: $(grep -c '^  - name:' "$work/catalog.yaml") instances, $(grep -c '^  - name:' "$work/workloads.yaml") workloads"
/usr/bin/time -f '%e s wall, %M KiB peak RSS' "$gpuplan" plan --catalog "$work/catalog.yaml" \
	--workload "$work/workloads.yaml" --format table --top 3 -o "$work/plan.txt" 2>"$work/time.txt" || { cat "$work/time.txt"; exit 1; }
cat "$work/time.txt"
echo "options planned: $(grep -o '[0-9]* options' "$work/plan.txt" | awk '{s+=$1} END {print s}')"
