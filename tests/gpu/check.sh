#!/bin/bash
# The prepared check for a machine with an NVIDIA GPU (not part of ctest or CI).
# Builds gpuplan with the CUDA plugin for the local GPU, runs the plugin tests
# (which then load the real plugin and run its self-test), and lists the
# devices with the triad check.  Results go to $OUT when set (the device tool),
# else to ./gpu-check.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/nvidia-smi.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$out/cmake.log" 2>&1 &&
	cmake --build build-gpu -j >>"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
ctest --test-dir build-gpu -R 'unit.plugin_loader' --output-on-failure 2>&1 | tee "$out/ctest.log"
build-gpu/gpuplan devices --check --format table | tee "$out/devices.txt"
build-gpu/gpuplan devices --check --format json >"$out/devices.json"
