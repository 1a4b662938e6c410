#!/bin/bash
# diagnose --prom output checked by Prometheus' own promtool (Debian
# package prometheus); exit 77 (skipped) where promtool is not installed.
#   diagnose-promtool.sh GPUPLAN   (run from the source root)
set -eu
command -v promtool >/dev/null || { echo "promtool not installed" >&2; exit 77; }
scratch=$(mktemp -d /tmp/gpuplan-prom.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
for log in two-gpus thermal-throttling heartbeat; do
	"$1" diagnose tests/cli/data/diagnose/$log.csv --prom "$scratch/$log.prom" >/dev/null
	promtool check metrics <"$scratch/$log.prom"
done
