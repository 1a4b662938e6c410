#!/bin/bash
# Speed of `gpuplan report` (issue: a 1,000-option report in under 1 s; a
# 10,000-point scatter at least 5x faster than matplotlib).  Not a test:
# it prints figures and ratios to quote.
#
# Builds synthetic plans from the shipped one: the first workload's options
# repeated with their time and cost spread deterministically (no
# randomness) up to N options.  Then, in one run:
#   1. gpuplan report on 1,000 options: PDF + every chart as PNG + SVG;
#   2. gpuplan report on 10,000 options: the same, whole process timed
#      (reading 14 MB of JSON, drawing, writing; tests/perf/report-memory.sh
#      has the reader's memory and time alone);
#   3. the 10,000-point time-cost scatter as a 1600 x 1000 PNG, drawn by
#      gpuplan's own code (build/tests/bench_scatter calls what
#      `report --png` calls) and by matplotlib (Debian's
#      python3-matplotlib) with the same content: log axes, colour per
#      accelerator, greyed infeasible points, legend, Pareto front,
#      deadline and budget lines.  Both timed from the data in memory to
#      the PNG on disk, best of three; neither counts parsing the JSON.
#
#   tests/perf/report-speed.sh [BUILD_DIR] [REPORT_OPTIONS] [SCATTER_POINTS]
# REPORT_OPTIONS (default 1,000) sizes the first report and SCATTER_POINTS
# (default 10,000) the second report and the scatter: tests/perf/run-small.sh
# runs 200 and 1,000.  Without matplotlib it says so, times gpuplan's side
# alone and exits 0: the ratio is then not made.
set -eu
build=${1:-build}
n_report=${2:-1000}
n_scatter=${3:-10000}
gpuplan=$build/gpuplan
py=/usr/bin/python3
work=$(mktemp -d /tmp/gpuplan-report-speed.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
echo "work folder: $work" >&2
# 10000 -> 10,000: the figures' labels
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }

"$gpuplan" plan --format json -o "$work/plan.json"

# synth N OUT: one workload of N options made from the first workload's.
synth() {
	$py - "$work/plan.json" "$1" "$2" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
n, out = int(sys.argv[2]), sys.argv[3]
w = plan["workloads"][0]
base = w["options"]
opts = []
for i in range(n):
    o = dict(base[i % len(base)])
    # spread 0.5x..2x in time and cost, deterministic
    ft = 0.5 + 1.5 * ((i * 37) % 101) / 100
    fc = 0.5 + 1.5 * ((i * 53) % 103) / 102
    o["time_s"] = o["time_s"] * ft
    o["cost"] = o["cost"] * fc
    if o.get("cost_spot") is not None:
        o["cost_spot"] = o["cost_spot"] * fc
    o["pareto"] = o["pareto"] and i < len(base)
    opts.append(o)
w["options"] = opts
plan["workloads"] = [w]
json.dump(plan, open(out, "w"))
PY
}

ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
now() { date +%s.%N; }

# run_report N: best of three, whole process, PDF + PNG + SVG.
run_report() {
	local best=
	for _ in 1 2 3; do
		rm -rf "$work/out-$1"
		local t0 t1
		t0=$(now)
		"$gpuplan" report "$work/plan-$1.json" -o "$work/out-$1/plan.pdf" \
			--png "$work/out-$1/png" --svg "$work/out-$1/svg" 2>/dev/null
		t1=$(now)
		local t
		t=$(ms "$t0" "$t1")
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	echo "$best"
}

synth "$n_report" "$work/plan-$n_report.json"
synth "$n_scatter" "$work/plan-$n_scatter.json"
r1k=$(run_report "$n_report")
echo "gpuplan report, $(commas "$n_report") options (PDF + $(ls "$work/out-$n_report/png" | wc -l) PNG + $(ls "$work/out-$n_report/svg" | wc -l) SVG): $r1k ms$([ "$n_report" != 1000 ] || echo " (target < 1000 ms)")"
r10k=$(run_report "$n_scatter")
echo "gpuplan report, $(commas "$n_scatter") options (PDF + PNG + SVG, whole process): $r10k ms"

ours=$("$build/tests/bench_scatter" "$work/plan-$n_scatter.json" "$work")
if ! $py -c 'import matplotlib' 2>/dev/null; then
	echo "$(commas "$n_scatter")-point scatter, 1600 x 1000 PNG: gpuplan $ours ms; matplotlib is not installed, so the ratio is not made (apt-get install -y python3-matplotlib)"
	exit 0
fi
mpl=$($py - "$work/plan-$n_scatter.json" "$work/mpl.png" <<'PY'
import json, sys, time
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
plan = json.load(open(sys.argv[1]))
w = plan["workloads"][0]
best = None
for _ in range(3):
    t0 = time.perf_counter()
    fig, ax = plt.subplots(figsize=(16, 10), dpi=100)
    by = {}
    for o in w["options"]:
        s = by.setdefault(o["accelerator"], ([], [], [], [], []))
        k = 0 if o["feasible"] else 2
        s[k].append(o["time_s"] / 3600); s[k + 1].append(o["cost"])
    for name, (x, y, gx, gy, _) in sorted(by.items()):
        ax.scatter(gx, gy, s=12, color="#bbbbbb")
        ax.scatter(x, y, s=12, label=name)
    front = sorted((o["time_s"] / 3600, o["cost"]) for o in w["options"] if o["pareto"])
    if front:
        ax.plot([p[0] for p in front], [p[1] for p in front], color="#333333")
    if w.get("deadline_s"):
        ax.axvline(w["deadline_s"] / 3600, ls="--", color="#555555")
    if w.get("budget"):
        ax.axhline(w["budget"], ls="--", color="#555555")
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xlabel("time (h)"); ax.set_ylabel("cost (USD)")
    ax.set_title("Time against cost"); ax.legend(loc="best")
    fig.savefig(sys.argv[2])
    plt.close(fig)
    t = time.perf_counter() - t0
    best = t if best is None else min(best, t)
print(round(best * 1000))
PY
)
echo "$(commas "$n_scatter")-point scatter, 1600 x 1000 PNG: gpuplan $ours ms, matplotlib $($py -c 'import matplotlib; print(matplotlib.__version__)') $mpl ms"
awk -v a="$mpl" -v b="$ours" -v target="$([ "$n_scatter" != 10000 ] || echo " (target >= 5x)")" 'BEGIN { printf "ratio matplotlib / gpuplan: %.1fx%s\n", a / (b > 0 ? b : 1), target }'
