#!/bin/bash
# Issue 27's training suites on a real GPU (a lent H100), under five minutes:
#   1. builds gpuplan and the CUDA plugin for the local GPU's architecture;
#   2. `gpuplan bench --quick --suite gemm`: the square GEMM suite, now on
#      random data (compare its bf16 rate with the reference baselines it
#      is judged against at the end of the run);
#   3. the training suites on llama-2-7b at micro-batch 1 x 4096 tokens,
#      each figure sustained 4 s (2 s settling, 2 s measured): train-gemm
#      (its 4 largest products in the forward, dgrad and wgrad roles),
#      overlap (beside NCCL's all-reduce on a host of several GPUs, a
#      device-to-device copy on one), spread (several GPUs only) and layer;
#      the clocks of each figure's steady part are printed;
#   4. `gpuplan fit` of that profile (the training terms) and `gpuplan plan
#      --profile` with it: the compute ceiling, overlap_slowdown and
#      straggler_cv the plan then assumes, and where each came from.
# Everything goes to $OUT when set (the device tool), else ./issue27-out.
# GPUPLAN_DEVICE_SUSTAIN (default 4s) and GPUPLAN_DEVICE_MODEL (default
# llama-2-7b) change the run; GPUPLAN_CHECK_ACCELERATOR names the catalog
# accelerator (default: guessed from nvidia-smi's name, as tests/gpu/check.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-issue27-out}
mkdir -p "$out"
start=$(date +%s)
sustain=${GPUPLAN_DEVICE_SUSTAIN:-4s}
model=${GPUPLAN_DEVICE_MODEL:-llama-2-7b}
nvidia-smi --query-gpu=index,name,driver_version,memory.total,power.limit,clocks.max.sm \
	--format=csv | tee "$out/nvidia-smi.txt"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
case "$name" in
*H200*NVL*) acc=H200-NVL ;; *H200*) acc=H200-SXM ;; *H100*NVL*) acc=H100-NVL ;;
*H100*PCIe*) acc=H100-PCIe ;; *H100*) acc=H100-SXM ;; *A100*80GB*) acc=A100-SXM-80GB ;;
*A100*) acc=A100-SXM-40GB ;; *) acc=unknown ;;
esac
acc=${GPUPLAN_CHECK_ACCELERATOR:-$acc}
echo "GPU '$name' (sm_$arch), catalog accelerator $acc"

step() { echo; echo "== $* ($(( $(date +%s) - start )) s in)"; }

step "build for sm_$arch"
cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
	>"$out/cmake.log" 2>&1 &&
	cmake --build build-dev -j"$(nproc)" --target gpuplan gpuplan-cuda >>"$out/cmake.log" 2>&1 ||
	{ tail -30 "$out/cmake.log"; exit 1; }
gp=build-dev/gpuplan
$gp devices --check --format table | tee "$out/devices.txt"

step "square GEMMs on random data (gemm --quick)"
timeout 120 $gp bench --quick --suite gemm -o "$out/gemm.yaml" 2>&1 | grep -v '^bench \[' | tee "$out/gemm.log"

step "training suites: $model, micro-batch 1, sustain $sustain"
timeout 200 $gp bench --suite train-gemm,overlap,spread,layer --model "$model" \
	--micro-batch 1 --sustain "$sustain" -o "$out/train.yaml" 2>&1 |
	grep -v '^bench \[' | tee "$out/train.log"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || { echo "bench exit $rc"; exit 1; }

step "fit: the training terms"
$gp fit "$out/train.yaml" -o "$out/train-fit.yaml" 2>&1 | tee "$out/fit.log"
$gp fit "$out/train.yaml" 2>&1 | grep '^training:' | tee "$out/terms.txt"

step "plan --profile: what the training model now assumes"
profile_acc=()
[ "$acc" != unknown ] && profile_acc=(--profile-accelerator "$acc")
$gp plan --profile "$out/train-fit.yaml" "${profile_acc[@]}" --format json \
	-o "$out/plan.json" 2>"$out/plan.err" || { cat "$out/plan.err"; exit 1; }
python3 - "$out/plan.json" <<'PY' | tee "$out/assumptions.txt"
import json, sys
p = json.load(open(sys.argv[1]))
a = p["assumptions"]
for k in ("compute_efficiency", "overlap_slowdown", "straggler_cv"):
    v = a.get(k)
    print("%-20s %s" % (k, "absent" if v is None else "%.4g  from: %s" % (v["value"], v["from"])))
print("calibration note: " + p["calibration"]["note"])
PY
echo "done in $(( $(date +%s) - start )) s"
