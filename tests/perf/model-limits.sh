#!/bin/bash
# Time and peak memory of `gpuplan model show` on descriptions that expand:
# a 158-byte model of 990,000 ops (with and without --ops), a chain of 9
# files each including the next 10 times (10^9 ops from 11 small files),
# the largest --ops listing (200,000 ops) as JSON and as a table, and
# 10x steps of a repeat (10^4 .. 10^6 ops) to show how time and memory
# grow with the ops built.  Prints wall time and peak RSS (/usr/bin/time);
# with BASE=/path/to/an/older/gpuplan also that binary's figures, so a
# change can be quoted as before -> after.  No run is asserted on: these
# are figures, not tests.
#
#   tests/perf/model-limits.sh [BUILD_DIR]        (from the source root)
#   BASE=/tmp/gpuplan-old tests/perf/model-limits.sh build
#   SCALE=10 tests/perf/model-limits.sh build
# SCALE (1, 10 or 100; default 1) divides the size of every model that is
# built: the totals of 990,000 ops, the listing and the growth steps
# (tests/perf/run-small.sh runs SCALE=10).  The refusals (the 990,000-op
# --ops listings, the chain) stay full size: they are cheap, and the limit
# they meet is the point.
set -u
build=${1:-build}
gpuplan=$build/gpuplan
base=${BASE:-}
scale=${SCALE:-1}
limit_s=${LIMIT_S:-120}	# a run past this is stopped and shown as such
work=$(mktemp -d /tmp/gpuplan-perf.XXXXXX)
trap 'rm -rf "$work"' EXIT

hdr='schema: gpuplan/model/v1'
graph() {	# graph FILE: a graph model header on an image of one pixel
	printf '%s\nname: x\nkind: graph\ninput: {channels: 1, height: 1, width: 1}\n' "$hdr" >"$1"
}

graph "$work/990k.yaml"
cat >>"$work/990k.yaml" <<'EOF'
ops:
  - repeat: 10000
    ops:
      - repeat: 99
        ops: [relu]
EOF

for i in $(seq 1 9); do
	{
		printf '%s\nname: chain-%d\nkind: block\nops:\n' "$hdr" "$i"
		for _ in $(seq 1 10); do echo "  - include: chain-$((i + 1)).yaml"; done
	} >"$work/chain-$i.yaml"
done
printf '%s\nname: chain-10\nkind: block\nops: [relu]\n' "$hdr" >"$work/chain-10.yaml"
graph "$work/chain.yaml"
printf 'ops:\n  - include: chain-1.yaml\n' >>"$work/chain.yaml"

# the models built, SCALE times smaller: "990k", "200k" at SCALE=1
kops() { awk -v n="$1" 'BEGIN { printf "%gk", n / 1000 }'; }
totals=$(kops $((990000 / scale)))
graph "$work/totals.yaml"
printf 'ops:\n  - repeat: %d\n    ops:\n      - repeat: 99\n        ops: [relu]\n' $((10000 / scale)) >>"$work/totals.yaml"
listing=$(kops $((200000 / scale)))
graph "$work/200k.yaml"
printf 'ops:\n  - repeat: %d\n    ops:\n      - repeat: 100\n        ops: [relu]\n' $((2000 / scale)) >>"$work/200k.yaml"
growth="$((10000 / scale)) $((100000 / scale)) $((1000000 / scale))"
for n in $growth; do
	graph "$work/grow-$n.yaml"
	printf 'ops:\n  - repeat: %d\n    ops:\n      - repeat: 100\n        ops: [relu]\n' $((n / 100)) >>"$work/grow-$n.yaml"
done

# run BIN ARGS...: "wall-s peak-MiB exit" of one run, or "stopped" past
# limit_s; its stderr is left in $work/err
run() {
	local bin=$1
	shift
	/usr/bin/time -f '%e %M' -o "$work/time" timeout "$limit_s" "$bin" "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	if [ $rc = 124 ]; then
		printf 'stopped after %ss' "$limit_s"
		return
	fi
	# the last line: time puts "Command exited with non-zero status" first
	read -r wall kb < <(tail -n 1 "$work/time")
	printf '%6.2f s %8.1f MiB  exit %d  out %s' "$wall" "$(echo "$kb / 1024" | bc -l)" \
		"$rc" "$(numfmt --to=iec "$(stat -c %s "$work/out")")"
}

show() {	# show LABEL ARGS...
	local label=$1
	shift
	printf '%-44s %s\n' "$label" "$(run "$gpuplan" "$@")"
	sed -n '1p' "$work/err" | cut -c1-200 | sed 's/^/    stderr: /'
	[ -n "$base" ] && printf '%-44s %s\n' "  before ($base)" "$(run "$base" "$@")"
	return 0
}

printf 'model files: 990k.yaml %s bytes; chain: 11 files of %s bytes in all\n' \
	"$(stat -c %s "$work/990k.yaml")" "$(cat "$work"/chain*.yaml | wc -c)"
show "990k ops, --ops --format json" model show "$work/990k.yaml" --ops --format json
show "990k ops, --ops --format table" model show "$work/990k.yaml" --ops --format table
show "$totals ops, totals only" model show "$work/totals.yaml" --format json
show "chain of includes, 10^9 ops" model show "$work/chain.yaml"
show "$listing ops, --ops --format json" model show "$work/200k.yaml" --ops --format json
show "$listing ops, --ops --format table" model show "$work/200k.yaml" --ops --format table
echo "growth (totals only, ops built = the size of the description's expansion):"
for n in $growth; do
	show "  $n ops" model show "$work/grow-$n.yaml" --format json
done
