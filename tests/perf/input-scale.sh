#!/bin/bash
# How time and memory grow with input size: each loader and command fed
# its normal input, then 10x and 100x that, generated here (deterministic,
# no randomness).  Prints, per case and size, the input's bytes, seconds
# and peak resident memory, and the growth against 1x: a loader that is
# linear shows ~10x and ~100x time; anything quadratic shows ~100x and
# ~10,000x.  Bad input at scale is included (an error flood, 160,000
# unknown keys): work and output must stay bounded there too.
#
#   tests/perf/input-scale.sh [BUILD_DIR]
# Needs /usr/bin/time (Debian package `time`) and jq.  MULTIPLES lists the
# sizes, in multiples of the normal input (default "1 10 100"; the first is
# what the growth is against): tests/perf/run-small.sh runs "1 10".
set -eu
build=${1:-build}
multiples=${MULTIPLES:-1 10 100}
root=$(cd "$(dirname "$0")/../.." && pwd)
gpuplan=$(cd "$build" && pwd)/gpuplan
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 1; }
work=$(mktemp -d /tmp/gpuplan-scale.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# ---- generators: gen_KIND N FILE ----------------------------------------

# N instances cycling through the shipped ones, renamed.
gen_catalog() {
	"$root/tests/perf/gen-catalog.sh" "$gpuplan" "$1" >"$2"
}

# N workloads: the shipped defaults renamed, with absolute model paths.
gen_workloads() {
	{
		echo "schema: gpuplan/workload/v1"
		echo "workloads:"
		for i in $(seq 0 $(( ($1 + 4) / 5 - 1))); do
			sed -n '/^workloads:/,$p' "$root/profiles/workloads/default.yaml" |
				tail -n +2 | grep -v '^\s*#' |
				sed "s|name: \(.*\)|name: \1-$i|; s|model: \.\./models/|model: $root/profiles/models/|"
		done
	} | awk -v max="$1" '/^  - name:/{c++} c<=max{print}' >"$2"
}

# A graph of N ops written out one by one (conv, batchnorm, relu, add
# blocks, each add naming the conv it skips from).
gen_model() {
	{
		echo "schema: gpuplan/model/v1"
		echo "name: scale-$1"
		echo "kind: graph"
		echo "input: {channels: 16, height: 16, width: 16}"
		echo "ops:"
		for i in $(seq 1 $(( $1 / 4 ))); do
			echo "  - {conv: {out: 16, kernel: 3, padding: 1}, name: c$i}"
			echo "  - batchnorm"
			echo "  - relu"
			echo "  - add: {with: c$i}"
		done
	} >"$2"
}

# A catalog whose only instance has N unknown keys: 160,000 keys took
# 150 s when duplicate keys were looked for pairwise.
gen_keys() {
	{
		echo "schema: gpuplan/catalog/v1"
		echo "instances:"
		echo "  - name: keys"
		for i in $(seq 1 "$1"); do echo "    key$i: 1"; done
	} >"$2"
}

# N empty instances: an error flood, kept to the first problems.
gen_flood() {
	{
		echo "schema: gpuplan/catalog/v1"
		echo "instances:"
		for _ in $(seq 1 "$1"); do echo "  - {}"; done
	} >"$2"
}

# ---- measuring ------------------------------------------------------------

printf '%-26s %6s %12s %9s %11s %8s %8s\n' case size "input bytes" seconds "peak MiB" "time x" "mem x"

# measure NAME SIZE INPUT CMD...: one run; prints a row; growth against
# the first size of the same case.
declare -A base_t base_m
measure() {
	local name=$1 size=$2 input=$3
	shift 3
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || true
	# (time prefixes "Command exited with non-zero status N" on bad input)
	read -r secs kib < <(tail -1 "$work/time")
	local mib
	mib=$(awk -v k="$kib" 'BEGIN{printf "%.1f", k/1024}')
	if [ -z "${base_t[$name]:-}" ]; then
		base_t[$name]=$secs
		base_m[$name]=$mib
	fi
	printf '%-26s %6s %12s %9s %11s %8s %8s\n' "$name" "$size" "$(stat -c %s "$input")" "$secs" "$mib" \
		"$(awk -v a="$secs" -v b="${base_t[$name]}" 'BEGIN{ if (b < 0.01) b = 0.01; printf "%.1f", a/b }')" \
		"$(awk -v a="$mib" -v b="${base_m[$name]}" 'BEGIN{printf "%.1f", a/b}')"
}

n_inst=$("$gpuplan" catalog list --format json | jq '.instances | length')
for mult in $multiples; do
	gen_catalog $((n_inst * mult)) "$work/cat-$mult.yaml"
	gen_workloads $((5 * mult)) "$work/work-$mult.yaml"
	gen_model $((200 * mult)) "$work/model-$mult.yaml"
	gen_keys $((1600 * mult)) "$work/keys-$mult.yaml"
	gen_flood $((9900 * mult)) "$work/flood-$mult.yaml"
done

for mult in $multiples; do
	measure "catalog validate" ${mult}x "$work/cat-$mult.yaml" \
		"$gpuplan" catalog validate "$work/cat-$mult.yaml"
done
for mult in $multiples; do
	measure "catalog list" ${mult}x "$work/cat-$mult.yaml" \
		"$gpuplan" catalog list --catalog "$work/cat-$mult.yaml" --format json
done
for mult in $multiples; do
	measure "plan (instances)" ${mult}x "$work/cat-$mult.yaml" \
		"$gpuplan" plan --catalog "$work/cat-$mult.yaml" --format json -o "$work/plan-$mult.json"
done
for mult in $multiples; do
	measure "workload validate" ${mult}x "$work/work-$mult.yaml" \
		"$gpuplan" workload validate "$work/work-$mult.yaml"
done
for mult in $multiples; do
	measure "plan (workloads)" ${mult}x "$work/work-$mult.yaml" \
		"$gpuplan" plan --workload "$work/work-$mult.yaml" --format json -o "$work/plan-w-$mult.json"
done
for mult in $multiples; do
	measure "model show" ${mult}x "$work/model-$mult.yaml" \
		"$gpuplan" model show "$work/model-$mult.yaml" --format json
done
for mult in $multiples; do
	measure "model show --ops" ${mult}x "$work/model-$mult.yaml" \
		"$gpuplan" model show "$work/model-$mult.yaml" --ops --format json
done
for mult in $multiples; do
	[ -s "$work/plan-$mult.json" ] || continue
	measure "report (plan of N inst.)" ${mult}x "$work/plan-$mult.json" \
		"$gpuplan" report "$work/plan-$mult.json" -o "$work/report-$mult.pdf"
done
for mult in $multiples; do
	measure "unknown keys (bad)" ${mult}x "$work/keys-$mult.yaml" \
		"$gpuplan" catalog validate "$work/keys-$mult.yaml"
done
for mult in $multiples; do
	measure "empty instances (bad)" ${mult}x "$work/flood-$mult.yaml" \
		"$gpuplan" catalog validate "$work/flood-$mult.yaml"
	echo "    stderr lines: $(wc -l <"$work/err")"
done
