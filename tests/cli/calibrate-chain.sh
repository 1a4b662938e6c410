#!/bin/bash
# Issue 13's chain on a CPU-only machine: bench a model, fit it with plots,
# plan with the fit as the calibration and write the report.  The plan's
# figures for the sample device must come from the measurement, with
# their ranges in order; or, when the host was busy and the fit left the
# sweep out, the plan must say why it has none, and when it left every
# figure out, the plan must refuse the profile (never a figure from
# disturbed measurements).
#
#   calibrate-chain.sh GPUPLAN        (run from the source root)
set -u
gp=$1
s=$(mktemp -d /tmp/gpuplan-chain.XXXXXX)
trap 'rm -rf "$s"' EXIT
fail() { echo "calibrate-chain: $*" >&2; exit 1; }
"$gp" bench --device cpu --quick --suite gemm,transfer,model --threads 1 \
	--model tiny-cnn -o "$s/m.yaml" 2>"$s/bench.err" ||
	{ cat "$s/bench.err" >&2; fail "bench failed"; }
if ! "$gp" fit "$s/m.yaml" -o "$s/f.yaml" --plot "$s/fits" 2>"$s/fit.err"; then
	# a host busy throughout: every figure disturbed, nothing fitted;
	# the plan must then refuse the profile rather than plan with it
	grep -q "measured on a busy host" "$s/fit.err" ||
		{ cat "$s/fit.err" >&2; fail "fit failed"; }
	"$gp" plan --profile "$s/m.yaml" --format json >"$s/out" 2>"$s/plan.err"
	rc=$?
	[ $rc = 2 ] || fail "plan --profile on a disturbed profile: exit $rc, want 2"
	grep -q "no fitted curve to calibrate with" "$s/plan.err" ||
		{ cat "$s/plan.err" >&2; fail "no reason given"; }
	[ -s "$s/out" ] && fail "a plan was written from a disturbed profile"
	echo "calibrate-chain: every figure disturbed (busy host): nothing fitted, the plan refused the profile"
	exit 0
fi
"$gp" plan --profile "$s/f.yaml" -w tests/cli/data/workloads.yaml \
	--format json -o "$s/plan.json" --report "$s/reports/plan.pdf" ||
	fail "plan failed"
head -c 5 "$s/reports/plan.pdf" | grep -q '%PDF-' || fail "no PDF"
# the same fit as JSON: which curves the calibration could use
"$gp" fit "$s/m.yaml" --format json >"$s/fit.json" || fail "fit --format json failed"
/usr/bin/python3 - "$s" <<'PY' || exit 1
import json, sys, glob
s = sys.argv[1]
plan = json.load(open(s + "/plan.json"))
cal = plan["calibration"]
assert cal["device"].startswith("cpu: "), cal
assert cal["carried_to_catalog"] is False, cal
w = plan["workloads"][0]
assert w["model"] == "tiny-cnn", w["model"]
sd = w["sample_device"]
fitted = json.load(open(s + "/fit.json"))
if "model tiny-cnn fp32 step time" in [c["name"] for c in fitted["curves"]]:
    f = sd["forward_s"]
    assert 0 < f["low"] <= f["median"] <= f["high"], f
    assert "step curve" in sd["forward_from"], sd
    st, run = sd["step_s"], sd["run_s"]
    assert abs(st["median"] / f["median"] - 3) < 1e-9, (st, f)
    assert run["median"] > st["median"], run
    pngs = glob.glob(s + "/fits/*.png")
    assert pngs, "no fit plots"
    print("calibrate-chain: forward %.3g s (%.3g to %.3g) on %s"
          % (f["median"], f["low"], f["high"], cal["device"]))
else:
    assert "why_not" in sd, sd
    print("calibrate-chain: the sweep was not fitted (busy host?): " + sd["why_not"])
PY
