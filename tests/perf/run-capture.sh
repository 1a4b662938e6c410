#!/bin/bash
# Time and peak memory of `gpuplan run`'s metric capture against the size
# of the command's output (issue 28: each match rescanned the rest of the
# output, so a 10 MB training log took over a minute per run).  Not a
# test: it prints figures to quote, and fails only when the metrics read
# are wrong.
#
# The command prints SIZE MB of "step 7 loss: 0.25 throughput: 1234.5
# samples/s" lines, then "loss: 0.125"; two metrics are read (each line
# matches both), and the record must hold the last loss, 0.125, and the
# throughput 1234.5.  With a second binary (the one before a change), both
# side by side; a run past 300 s is stopped and shown as such.
#
#   [SIZES="10 20"] tests/perf/run-capture.sh [BUILD_DIR] [OTHER_GPUPLAN]
# (tests/perf/run-small.sh runs SIZES=2.)
set -u
build=${1:-build}
gpuplan=$build/gpuplan
other=${2:-}
sizes=${SIZES:-10 20}
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 1; }
dir=$(mktemp -d /tmp/gpuplan-run-capture.XXXXXX)
trap 'rm -rf "$dir"' EXIT
bad=0

# measure TAG BINARY MB -> "WALL_S s RSS_MB MB" (or "stopped at 300 s")
measure() {
	local tag=$1 g=$2 mb=$3
	local bytes=$((mb * 1000000))
	if ! /usr/bin/time -f "%e %M" -o "$dir/time-$tag" timeout 300 "$g" run -n 1 --warmup 0 \
		-o "$dir/r-$tag.yaml" \
		--metric 'throughput=throughput: ([0-9.]+)' --metric 'loss=loss: ([0-9.]+)' \
		-- sh -c "yes 'step 7 loss: 0.25 throughput: 1234.5 samples/s' | head -c $bytes; echo 'loss: 0.125'" \
		>/dev/null 2>"$dir/err-$tag"; then
		echo "stopped at 300 s or failed"
		return
	fi
	if ! grep -q '"loss": 0.125' "$dir/r-$tag.yaml" ||
	   ! grep -q '"throughput": 1234.5' "$dir/r-$tag.yaml"; then
		echo "run-capture: $g at $mb MB: wrong metrics in the record" >&2
		bad=1
	fi
	awk '{printf "%7.2f s %6.0f MB", $1, $2 / 1024}' "$dir/time-$tag"
}
printf '%-8s  %-18s %s\n' output gpuplan "${other:+other}"
for mb in $sizes; do
	line=$(printf '%5s MB  %s' "$mb" "$(measure a "$gpuplan" "$mb")")
	[ -n "$other" ] && line="$line  $(measure b "$other" "$mb")"
	echo "$line"
done
exit $bad
