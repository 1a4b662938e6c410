#!/bin/bash
# gpuplan's fits held against an independent fitter: SciPy's curve_fit
# (Debian's python3-scipy) on the same points, with the same relative
# weighting (sigma = y, the scale estimated from the residuals).  For each
# curve and parameter it prints both estimates and their standard errors
# and the relative differences; expected below 1e-6 for the estimates.
#   1. `gpuplan fit --format json` on tests/cli/data/fit/cpu-tiny-cnn.yaml
#      (a measured CPU profile: step time and memory against batch);
#   2. the fitted file tests/fuzz/seeds/fitted/synthetic.yaml (a synthetic
#      GPU profile fitted: transfer, step time and memory, GEMM and memory
#      rates, lines and saturating curves).
# Without SciPy it says so and exits 0: the comparison is then not made.
#
#   tests/perf/fit-vs-scipy.sh [BUILD_DIR]
set -eu
build=${1:-build}
py=/usr/bin/python3
if ! "$py" -c 'import scipy' 2>/dev/null; then
	echo "fit-vs-scipy: SciPy is not installed, so the comparison is not made (apt-get install python3-scipy)"
	exit 0
fi
json=$("$build/gpuplan" fit tests/cli/data/fit/cpu-tiny-cnn.yaml --format json)
"$py" - "$json" tests/fuzz/seeds/fitted/synthetic.yaml <<'EOF'
import json, re, sys
import numpy as np
from scipy.optimize import curve_fit

def line(x, a, b):
    return a + b * x

def saturating(x, a, b):
    return a * x / (x + b)

def inverse(x, a, b):
    return a + b / x

FORMS = {"transfer": line, "step_time": line, "step_memory": line,
         "gemm": saturating, "membw": saturating, "scaling": inverse}

def curves_from_json(text):
    for c in json.loads(text)["curves"]:
        names = list(c["parameters"])
        yield (c["name"], c["kind"], names,
               [c["parameters"][n]["value"] for n in names],
               [c["parameters"][n]["se"] for n in names], c["points"])

def curves_from_fitted(path):
    text = open(path).read()
    for block in text.split("\n  - name: ")[1:]:
        if "kind:" not in block:
            continue
        name = block.split("\n")[0].strip('"')
        kind = re.search(r"kind: (\w+)", block).group(1)
        params = re.findall(r"\n      (\w+): \{value: ([^,]+), se: ([^,]+),", block)
        pts = json.loads(re.search(r"points: (\[.*\])", block).group(1))
        yield (name, kind, [p[0] for p in params], [float(p[1]) for p in params],
               [float(p[2]) for p in params], pts)

worst = 0.0
print("%-34s %-18s %14s %14s %9s %12s %12s %9s" % ("curve", "parameter", "gpuplan", "scipy",
      "rel diff", "se gpuplan", "se scipy", "rel diff"))
for source in (curves_from_json(sys.argv[1]), curves_from_fitted(sys.argv[2])):
    for name, kind, names, ours, ours_se, pts in source:
        x = np.array([p[0] for p in pts], dtype=float)
        y = np.array([p[1] for p in pts], dtype=float)
        f = FORMS[kind]
        start = [ours[0] * 1.1 + 1e-300, ours[1] * 0.9 + 1e-300]
        popt, pcov = curve_fit(f, x, y, p0=start, sigma=y, absolute_sigma=False,
                               method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15,
                               maxfev=100000)
        se = np.sqrt(np.diag(pcov))
        for i in range(2):
            d = abs(popt[i] / ours[i] - 1) if ours[i] else abs(popt[i])
            dse = abs(se[i] / ours_se[i] - 1) if ours_se[i] else abs(se[i])
            worst = max(worst, d)
            print("%-34s %-18s %14.8g %14.8g %9.2e %12.6g %12.6g %9.2e" % (name[:34], names[i],
                  ours[i], popt[i], d, ours_se[i], se[i], dse))
print("largest relative difference of an estimate: %.2e (%s)" % (worst,
      "agree within 1e-6" if worst < 1e-6 else "DIFFER"))
sys.exit(0 if worst < 1e-6 else 1)
EOF
