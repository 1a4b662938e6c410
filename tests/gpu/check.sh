#!/bin/bash
# The prepared check for a machine with an NVIDIA GPU (not part of ctest or
# CI, which have none).  In one go, under 5 minutes on one GPU:
#   1. builds gpuplan with the CUDA plugin for the local GPU's architecture;
#   2. runs the plugin loader test (which then loads the real plugin and
#      runs its triad self-test) and `gpuplan devices --check`;
#   3. `gpuplan bench --quick` (every suite the GPU has) and one model
#      (resnet-50) swept until memory runs out, each timed;
#   4. holds the quick profile against the datasheet (tests/gpu/
#      datasheet_check.c): HBM copy >= 85% of the memory bandwidth, bf16
#      GEMM >= 70% of the dense peak on H100/H200, pinned host-to-device
#      >= 80% of the PCIe link's one-way rate;
#   5. `gpuplan diagnose` live during the model sweep, and on an
#      nvidia-smi log of it.
# Results go to $OUT when set (the device tool), else ./gpu-check.  The
# catalog accelerator is guessed from nvidia-smi's name; set
# GPUPLAN_CHECK_ACCELERATOR (e.g. H100-PCIe) to choose it.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-check}
mkdir -p "$out"
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max,clocks.max.sm \
	--format=csv | tee "$out/nvidia-smi.txt"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)

guess_accelerator() {
	case "$1" in
	*H200*NVL*) echo H200-NVL ;; *H200*) echo H200-SXM ;;
	*H100*NVL*) echo H100-NVL ;; *H100*PCIe*) echo H100-PCIe ;; *H100*) echo H100-SXM ;;
	*A100*PCIE*80GB*|*A100*PCIe*80GB*) echo A100-PCIe-80GB ;; *A100*PCIE*|*A100*PCIe*) echo A100-PCIe-40GB ;;
	*A100*80GB*) echo A100-SXM-80GB ;; *A100*) echo A100-SXM-40GB ;;
	*L40S*) echo L40S ;; *L4*) echo L4 ;; *A10G*) echo A10G ;; *A10*) echo A10 ;;
	*T4*) echo T4 ;; *V100*) echo V100-SXM2-32GB ;; *) echo unknown ;;
	esac
}
accelerator=${GPUPLAN_CHECK_ACCELERATOR:-$(guess_accelerator "$name")}
echo "GPU '$name' (sm_$arch) checked against catalog accelerator $accelerator"

cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$out/cmake.log" 2>&1 &&
	cmake --build build-gpu -j >>"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
ctest --test-dir build-gpu -R 'unit.plugin_loader' --output-on-failure 2>&1 | tee "$out/ctest.log"
build-gpu/gpuplan devices --check --format table | tee "$out/devices.txt"

t0=$(date +%s.%N)
build-gpu/gpuplan bench --quick -o "$out/quick.yaml" --prom "$out/quick.prom" 2>&1 | tee "$out/quick.log"
t1=$(date +%s.%N)
# diagnose on a busy GPU: NVML live for 10 s, and an nvidia-smi log of the
# whole sweep diagnosed afterwards (a last line cut by the kill is
# reported as such: exit 2 with what the rest shows)
build-gpu/gpuplan diagnose --live --duration 10s --format json -o "$out/diagnose-live.json" \
	--prom "$out/diagnose-live.prom" 2>"$out/diagnose-live.err" &
diag=$!
nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total,temperature.gpu,power.draw,power.limit,clocks.sm,clocks.max.sm,clocks_event_reasons.active \
	--format=csv -lms 200 >"$out/smi.csv" 2>/dev/null &
smi=$!
build-gpu/gpuplan bench --quick --suite model --model resnet-50 -o "$out/model.yaml" 2>&1 | tee "$out/model.log"
t2=$(date +%s.%N)
wait "$diag"; echo "diagnose --live: exit $?" | tee -a "$out/diagnose-live.err"
kill -INT "$smi"; wait "$smi"
build-gpu/gpuplan diagnose "$out/smi.csv" -o "$out/diagnose-log.txt" --report "$out/diagnose-log.png" 2>&1 |
	tee "$out/diagnose-log.err"
awk -v a="$t0" -v b="$t1" -v c="$t2" \
	'BEGIN { printf "bench --quick: %.1f s; resnet-50 model sweep: %.1f s\n", b - a, c - b }' |
	tee "$out/times.txt"

if [ "$accelerator" = unknown ]; then
	echo "no catalog accelerator for '$name': set GPUPLAN_CHECK_ACCELERATOR" | tee "$out/datasheet.txt"
	exit 1
fi
build-gpu/tests/datasheet_check "$out/quick.yaml" "$accelerator" | tee "$out/datasheet.txt"
rc=${PIPESTATUS[0]}
echo "check took $(( $(date +%s) - start )) s in all"
exit "$rc"
