#!/bin/bash
# Peak memory of `gpuplan report` against the plan file's size (issue 10:
# "a plan file is held at about 20 times its size").  Not a test: it
# prints figures and ratios to quote, and what sets PLAN_MAX_BYTES
# (src/report/report_data.h).
#
# Plans, made from the shipped plan with python3:
#   - realistic: the first workload's options repeated up to N (1,000,
#     10,000, 100,000), time and cost spread, indented as gpuplan writes
#     them (json_write: 2 spaces);
#   - the same compact (no whitespace: more values per byte);
#   - hostile shapes, each about 8 MB, that cost a reader the most per
#     byte: an unknown key holding 2.6 million empty objects (a tree
#     reader's worst case), and 40,000 options with nothing but their
#     required fields, each naming a different instance and accelerator
#     (the compact reader's worst case: a struct and three names per
#     option).
# For each: the file's size, the peak resident memory of a PDF-only report
# (GNU time's %M), the ratio, and the wall time.  With a second binary
# ("other": the one before a change), both are measured side by side.
#
#   tests/perf/report-memory.sh [BUILD_DIR] [OTHER_GPUPLAN]
# SIZES lists the realistic plans' option counts (default "1000 10000
# 100000"; tests/perf/run-small.sh runs "1000", and the hostile shapes).
set -eu
build=${1:-build}
gpuplan=$build/gpuplan
other=${2:-}
sizes=${SIZES:-1000 10000 100000}
py=/usr/bin/python3
work=$(mktemp -d /tmp/gpuplan-report-memory.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
echo "work folder: $work" >&2
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 1; }

"$gpuplan" plan --format json -o "$work/plan.json"

# synth N OUT INDENT: one workload of N options made from the first's.
synth() {
	$py - "$work/plan.json" "$1" "$2" "$3" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
n, out, indent = int(sys.argv[2]), sys.argv[3], sys.argv[4] == "indent"
w = plan["workloads"][0]
base = w["options"]
opts = []
for i in range(n):
    o = dict(base[i % len(base)])
    o["time_s"] = o["time_s"] * (0.5 + 1.5 * ((i * 37) % 101) / 100)
    o["cost"] = o["cost"] * (0.5 + 1.5 * ((i * 53) % 103) / 102)
    o["pareto"] = o["pareto"] and i < len(base)
    opts.append(o)
w["options"] = opts
plan["workloads"] = [w]
with open(out, "w") as f:
    if indent:
        json.dump(plan, f, indent=2)
    else:
        json.dump(plan, f, separators=(",", ":"))
PY
}

# hostile KIND OUT: the shapes above, valid plans of about 8 MB.
hostile() {
	$py - "$work/plan.json" "$1" "$2" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
kind, out = sys.argv[2], sys.argv[3]
w = plan["workloads"][0]
if kind == "empty-objects":
    w["options"] = w["options"][:20]
    w["recommended"] = 0
    for k in ("runner_up", "obvious_alternative"):
        w[k] = None
    text = json.dumps(plan, separators=(",", ":"))
    pad = '"padding":[' + ",".join(["{}"] * 2600000) + '],'
    text = text.replace('{"schema"', '{' + pad + '"schema"', 1)
else:
    opts = []
    for i in range(40000):
        opts.append({"instance": "i%d" % i, "provider": "p", "accelerator": "a%d" % i,
                     "gpus": 1, "nodes": 1, "cost": 1, "gpu_hours": 1,
                     "memory_per_gpu_bytes": 1, "memory_capacity_bytes": 2,
                     "time_s": 3, "reason_codes": [{"code": "c%d" % i}]})
    w["options"] = opts
    w["recommended"] = 0
    for k in ("runner_up", "obvious_alternative"):
        w[k] = None
    text = json.dumps(plan, separators=(",", ":"))
open(out, "w").write(text)
PY
}

# measure BIN PLAN: "peak_kib seconds" of a PDF-only report (or "refused").
measure() {
	local out
	if out=$( { /usr/bin/time -f "%M %e" "$1" report "$2" -o "$work/out.pdf" 2>&1 >/dev/null; } 2>&1 ); then
		echo "$out" | tail -1
	else
		echo "refused: $(echo "$out" | head -1)"
	fi
}

row() {
	local name=$1 file=$2 bytes
	bytes=$(stat -c %s "$file")
	for bin in "$gpuplan" ${other:+"$other"}; do
		local m which
		m=$(measure "$bin" "$file")
		which=$([ "$bin" = "$gpuplan" ] && echo this || echo other)
		case $m in
		refused*) awk -v n="$name" -v b="$bytes" -v w="$which" -v m="$m" \
			'BEGIN { printf "%-24s %8.1f MB  %-6s %s\n", n, b / 1e6, w, m }' ;;
		*) awk -v n="$name" -v b="$bytes" -v w="$which" -v k="${m% *}" -v s="${m#* }" \
			'BEGIN { printf "%-24s %8.1f MB  %-6s peak %8.1f MB  %6.1fx the file  %7.2f s\n",
				 n, b / 1e6, w, k * 1024 / 1e6, k * 1024 / b, s }' ;;
		esac
	done
}

echo "plan                         file      binary  peak memory       ratio              time"
for n in $sizes; do
	synth "$n" "$work/plan-$n.json" indent
	row "$n options, indented" "$work/plan-$n.json"
	synth "$n" "$work/compact-$n.json" compact
	row "$n options, compact" "$work/compact-$n.json"
	rm -f "$work/plan-$n.json" "$work/compact-$n.json"
done
hostile empty-objects "$work/h1.json"
row "2.6M empty objects" "$work/h1.json"
hostile distinct-names "$work/h2.json"
row "40k bare options" "$work/h2.json"
