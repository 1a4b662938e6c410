#!/bin/bash
# The calibrated planner against the CPU model sweep at batch sizes left
# out of the fit (issue 13's validation).
#
#   1. `gpuplan bench --device cpu` measures GEMMs, the membw suite (its
#      footprints in memory give the memory's rate) and MODEL's forward
#      step at doubling batches (1, 2, 4, ...);
#   2. every other batch (2, 8, 32, ...) is cut from the profile, and the
#      rest fitted (`gpuplan fit`);
#   3. for each batch left out, `gpuplan plan --profile` on a training
#      workload of that batch gives the sample device's forward pass two
#      ways: the model's own fitted step curve, and the planner's roofline
#      of the model's ops at the measured GEMM curve and memory rate;
#   4. each is printed against the measured step, with its error and
#      whether the measurement falls in its 95% range.
# Nothing here is asserted: the figures are for reading and quoting.  A
# busy host marks its figures disturbed and the fit leaves them out;
# measure on a quiet machine.
#
#   tests/perf/calibrated-sweep.sh [BUILD_DIR] [MODEL] [THREADS]
# MODEL defaults to tiny-cnn; THREADS to every online CPU (bench's own
# default).  QUICK=1 benches with `gpuplan bench --quick` (fewer sizes,
# shorter repetitions: seconds, not minutes) and fits the figures a busy
# host marked disturbed all the same (else a busy host fits nothing), and
# where the step-time curve still cannot be fitted it says why and exits
# 0; tests/perf/run-small.sh runs it so, on one thread, to see that every
# step runs.
set -eu
build=${1:-build}
model=${2:-tiny-cnn}
bench_options=()
[ -n "${3:-}" ] && bench_options+=(--threads "$3")
[ "${QUICK:-0}" = 1 ] && bench_options+=(--quick)
gp="$build/gpuplan"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gp" bench --device cpu "${bench_options[@]}" --suite gemm,membw,model --model "$model" \
	-o "$tmp/m.yaml" 2>"$tmp/bench.log" || { cat "$tmp/bench.log"; exit 1; }
grep -E "DISTURBED|note:" "$tmp/bench.log" || true
if [ "${QUICK:-0}" = 1 ] && grep -q '^    disturbed: ' "$tmp/m.yaml"; then
	# a first look: the busy host's figures are fitted too, unmarked
	echo "QUICK=1: figures marked disturbed are fitted all the same (a first look, not figures to quote)"
	sed -i '/^    disturbed: /d' "$tmp/m.yaml"
fi
# every batch measured, as the fit reads them (median per step)
"$gp" fit "$tmp/m.yaml" --format json >"$tmp/all.json"
step_curve='select(.name | test("^model .* step time$"))'
if [ "${QUICK:-0}" = 1 ] && ! jq -e ".curves[] | $step_curve" "$tmp/all.json" >/dev/null; then
	# a first look on a busy host: nothing to hold out, and that is no failure
	echo "QUICK=1: the step-time curve was left out ($(jq -r ".left_out[] | $step_curve | .why" "$tmp/all.json")), so no batch is held out and compared"
	exit 0
fi
# the profile without the held-out batches: a figure is the block from
# its "  - suite:" line to the next one (or the next top-level key)
awk -v model="$model" '
	function flush() { if (block != "" && !drop) printf "%s", block; block = ""; drop = 0 }
	/^  - suite:/ { flush(); infig = 1 }
	/^[a-z]/ { flush(); infig = 0 }
	{
		if (!infig) { print; next }
		block = block $0 "\n"
		if ($0 ~ "^    name: \"" model " batch [0-9]+\"$") {
			n = $0; sub(/.* batch /, "", n); sub(/".*/, "", n)
			k = 0; for (b = n + 0; b > 1; b /= 2) k++
			if (k % 2 == 1) drop = 1
		}
	}
	END { flush() }' "$tmp/m.yaml" >"$tmp/fit-part.yaml"
"$gp" fit "$tmp/fit-part.yaml" -o "$tmp/f.yaml"
/usr/bin/python3 - "$gp" "$model" "$tmp" <<'PY'
import json, os, subprocess, sys
gp, model, tmp = sys.argv[1:4]
allfit = json.load(open(os.path.join(tmp, "all.json")))
points = {}
for c in allfit.get("curves", []) + allfit.get("left_out", []):
    if c.get("name", "").startswith("model ") and c["name"].endswith("step time"):
        points = {int(x): y for x, y in c.get("points", [])}
if not points:
    sys.exit("calibrated-sweep: the sweep has no step-time points")
models = os.path.abspath(os.path.join(os.path.dirname(gp), "..", "profiles", "models"))
rows, errs_step, errs_kern = [], [], []
for b in sorted(points):
    k = b.bit_length() - 1
    if k % 2 == 0:
        continue                      # fitted, not held out
    wl = os.path.join(tmp, "w%d.yaml" % b)
    with open(wl, "w") as f:
        f.write("schema: gpuplan/workload/v1\nworkloads:\n"
                "  - name: held-out-%d\n    kind: training\n"
                "    model: %s/%s.yaml\n    precision: fp32\n"
                "    samples: %d\n    epochs: 1\n    global_batch: %d\n"
                % (b, models, model, b, b))
    out = subprocess.run([gp, "plan", "-w", wl, "--profile",
                          os.path.join(tmp, "f.yaml"), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    s = json.loads(out)["workloads"][0]["sample_device"]
    meas = points[b]
    f, kf = s["forward_s"], s.get("kernels_forward_s")
    e1 = f["median"] / meas - 1
    inside = f["low"] <= meas <= f["high"]
    errs_step.append(abs(e1))
    kt = "-"
    if kf:
        e2 = kf["median"] / meas - 1
        errs_kern.append(abs(e2))
        kt = "%9.3g s %+6.1f%%" % (kf["median"], 100 * e2)
    rows.append("%6d %11.4g s %11.4g s %+7.1f%%  [%.4g, %.4g] %-3s  %s"
                % (b, meas, f["median"], 100 * e1, f["low"], f["high"],
                   "in" if inside else "out", kt))
print("batch    measured    step curve   error   95% range (step curve)      kernels' roofline")
for r in rows:
    print(r)
mean = lambda v: sum(v) / len(v) if v else float("nan")
print("mean |error|: step curve %.1f%% over %d held-out batches; kernels' roofline %s"
      % (100 * mean(errs_step), len(errs_step),
         "%.1f%%" % (100 * mean(errs_kern)) if errs_kern else "not available"))
PY
