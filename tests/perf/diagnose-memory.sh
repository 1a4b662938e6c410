#!/bin/bash
# Peak memory and time of `gpuplan diagnose` against the log's size (issue
# 28: "diagnose keeps about 200 bytes per sample: a 15 MB log takes 1 GB,
# 60 MB aborts").  Not a test: it prints figures to quote.
#
# Logs, made with python3:
#   - tiny: utilisation alone, noheader, 3 bytes a line ("95\n"; read with
#     --query utilization.gpu --interval 1s): the most samples per byte;
#   - full: the README's whole query, 8 GPUs interleaved, ~125 bytes a line;
# each at 15 MB and 60 MB (SIZES="1 2" for other sizes in MB: CI runs
# it small, tests/perf/run-small.sh).  For each: the peak resident memory (GNU time's
# %M) and the wall time; with a second binary (the one before a change),
# both side by side, and whether their outputs are the same bytes.
#
#   [SIZES="15 60"] tests/perf/diagnose-memory.sh [BUILD_DIR] [OTHER_GPUPLAN]
set -u
build=${1:-build}
gpuplan=$build/gpuplan
other=${2:-}
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 1; }
dir=$(mktemp -d /tmp/gpuplan-diag-perf.XXXXXX)
trap 'rm -rf "$dir"' EXIT
sizes=${SIZES:-15 60}
python3 - "$dir" $sizes <<'PY'
import sys
d = sys.argv[1]
for mb in map(int, sys.argv[2:]):
    n = mb * 1000000 // 3
    with open(f"{d}/tiny{mb}.csv", "w") as f:
        f.write("".join("%d\n" % (95 if i % 10 else 10) for i in range(n)))
    with open(f"{d}/full{mb}.csv", "w") as f:
        f.write("timestamp, index, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB], temperature.gpu, power.draw [W], power.limit [W], clocks.current.sm [MHz], clocks.max.sm [MHz], clocks_event_reasons.active\n")
        size, i = 0, 0
        while size < mb * 1000000:
            stamp = "2026/11/%02d %02d:%02d:%02d.213" % (1 + i // 86400, i // 3600 % 24, i // 60 % 60, i % 60)
            for g in range(8):
                u = 95 if i % 10 else 10
                line = "%s, %d, %d %%, %d %%, 72000 MiB, 81559 MiB, %d, %.2f W, 700.00 W, 1980 MHz, 1980 MHz, 0x0000000000000000\n" % (
                    stamp, g, u, u * 0.4, 60 + (i * 7) % 9, 600 + (i * 13) % 50 + 0.37)
                f.write(line)
                size += len(line)
            i += 1
PY
measure() {	# measure TAG BINARY LOG ARGS... -> "RSS_MB WALL_S"
	local tag=$1 g=$2 log=$3
	shift 3
	/usr/bin/time -f "%M %e" -o "$dir/time" "$g" diagnose "$log" "$@" \
		--format json -o "$dir/out-$tag" 2>/dev/null
	awk '{printf "%7.0f MB %6.2f s", $1 / 1024, $2}' "$dir/time"
}
printf '%-10s %8s  %-20s %s\n' log size gpuplan "${other:+other}"
names=()
for kind in tiny full; do
	for mb in $sizes; do names+=("$kind$mb"); done
done
for name in "${names[@]}"; do
	args=()
	case $name in tiny*) args=(--query utilization.gpu --interval 1s) ;; esac
	log=$dir/$name.csv
	size=$(du -m "$log" | cut -f1)
	line=$(printf '%-10s %5s MB  %s' "$name" "$size" "$(measure a "$gpuplan" "$log" "${args[@]}")")
	if [ -n "$other" ]; then
		line="$line  $(measure b "$other" "$log" "${args[@]}")"
		cmp -s "$dir/out-a" "$dir/out-b" &&
			line="$line  same output" || line="$line  OUTPUT DIFFERS"
	fi
	echo "$line"
done
