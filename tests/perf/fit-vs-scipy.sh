#!/bin/bash
# gpuplan's fits held against an independent fitter: SciPy's curve_fit
# (Debian's python3-scipy) on the same points, with the same relative
# weighting (sigma = y, the scale estimated from the residuals).  For each
# curve and parameter it prints both estimates and their standard errors
# and the relative differences; expected below 1e-6 for the estimates.
#   1. `gpuplan fit --format json` on tests/cli/data/fit/cpu-tiny-cnn.yaml
#      (a measured CPU profile: step time and memory against batch) and
#      tests/cli/data/fit/cpu-full-tiny-cnn.yaml (every CPU suite: GEMM
#      rates, the memory's lines, where latencies are held at 0);
#   2. the fitted file tests/fuzz/seeds/fitted/synthetic.yaml (a synthetic
#      GPU profile fitted: transfer, step time and memory, GEMM and memory
#      rates, lines and saturating curves).
# A parameter gpuplan held at 0 (fit/lsq.h) is compared twice: SciPy's
# free fit against the free estimate gpuplan reports, and SciPy's fit with
# that parameter fixed at 0 against gpuplan's other parameter.
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
json=$("$build/gpuplan" fit tests/cli/data/fit/cpu-tiny-cnn.yaml \
	tests/cli/data/fit/cpu-full-tiny-cnn.yaml --format json)
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
         "gemm": saturating, "membw": saturating, "scaling": inverse,
         "membw_memory": line}

def curves_from_json(text):
    for c in json.loads(text)["curves"]:
        names = list(c["parameters"])
        held = [c["parameters"][n].get("held_at_zero", {}).get("free_value")
                for n in names]
        yield (c["name"], c["kind"], names,
               [c["parameters"][n]["value"] for n in names],
               [c["parameters"][n]["se"] for n in names], c["points"], held)

def curves_from_fitted(path):
    text = open(path).read()
    for block in text.split("\n  - name: ")[1:]:
        if "kind:" not in block:
            continue
        name = block.split("\n")[0].strip('"')
        kind = re.search(r"kind: (\w+)", block).group(1)
        params = re.findall(r"\n      (\w+): \{value: ([^,]+), se: ([^,]+),(.*)", block)
        pts = json.loads(re.search(r"points: (\[.*\])", block).group(1))
        held = [float(m.group(1)) if (m := re.search(r"free_value: ([^,]+),", p[3])) else None
                for p in params]
        yield (name, kind, [p[0] for p in params], [float(p[1]) for p in params],
               [float(p[2]) for p in params], pts, held)

def fit(f, x, y, start):
    return curve_fit(f, x, y, p0=start, sigma=y, absolute_sigma=False,
                     method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15,
                     maxfev=100000)

worst = 0.0
print("%-34s %-18s %14s %14s %9s %12s %12s %9s" % ("curve", "parameter", "gpuplan", "scipy",
      "rel diff", "se gpuplan", "se scipy", "rel diff"))
for source in (curves_from_json(sys.argv[1]), curves_from_fitted(sys.argv[2])):
    for name, kind, names, ours, ours_se, pts, held in source:
        x = np.array([p[0] for p in pts], dtype=float)
        y = np.array([p[1] for p in pts], dtype=float)
        f = FORMS[kind]
        rows = []
        if any(h is not None for h in held):
            k = 0 if held[0] is not None else 1   # the held parameter
            free = [ours[0], ours[1]]
            free[k] = held[k]
            popt, _ = fit(f, x, y, [v * 1.1 + 1e-300 if v > 0 else v * 0.9 for v in free])
            rows.append((names[k] + " free", held[k], popt[k], None, None))
            g = (lambda x, b: f(x, 0, b)) if k == 0 else (lambda x, a: f(x, a, 0))
            popt, pcov = fit(g, x, y, [ours[1 - k] * 0.9 + 1e-300])
            rows.append((names[1 - k], ours[1 - k], popt[0], ours_se[1 - k],
                         float(np.sqrt(pcov[0][0]))))
        else:
            popt, pcov = fit(f, x, y, [ours[0] * 1.1 + 1e-300, ours[1] * 0.9 + 1e-300])
            se = np.sqrt(np.diag(pcov))
            for i in range(2):
                rows.append((names[i], ours[i], popt[i], ours_se[i], se[i]))
        for pname, a, b, sa, sb in rows:
            d = abs(b / a - 1) if a else abs(b)
            worst = max(worst, d)
            if sa is None:
                print("%-34s %-18s %14.8g %14.8g %9.2e" % (name[:34], pname, a, b, d))
                continue
            dse = abs(sb / sa - 1) if sa else abs(sb)
            print("%-34s %-18s %14.8g %14.8g %9.2e %12.6g %12.6g %9.2e" % (name[:34], pname,
                  a, b, d, sa, sb, dse))
print("largest relative difference of an estimate: %.2e (%s)" % (worst,
      "agree within 1e-6" if worst < 1e-6 else "DIFFER"))
sys.exit(0 if worst < 1e-6 else 1)
EOF
