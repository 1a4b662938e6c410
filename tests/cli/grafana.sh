#!/bin/bash
# The shipped Grafana dashboard (reports/grafana/gpuplan-dcgm.json): valid
# dashboard JSON (jq parses it; schemaVersion, a datasource variable, every
# panel placed by gridPos, every query an expr), dcgm-exporter's five
# gauges on it, and every gpuplan_ metric its queries name one gpuplan
# writes: a family of the --prom outputs (tests/cli/prom-outputs.sh), so a
# renamed metric fails.
#   grafana.sh GPUPLAN SIM_PLUGIN_DIR
set -u
gpuplan=$1
sim=$2
here=$(dirname "$0")
board=reports/grafana/gpuplan-dcgm.json
fail=0
say() { echo "$board: $*" >&2; fail=1; }

jq -e . "$board" >/dev/null || { echo "$board: not JSON" >&2; exit 1; }
jq -e '(.schemaVersion | type) == "number" and (.title | type) == "string"' "$board" >/dev/null ||
	say "no schemaVersion or title"
jq -e '[.templating.list[] | select(.type == "datasource" and .query == "prometheus")] | length == 1' \
	"$board" >/dev/null || say "no Prometheus datasource variable"
jq -e '(.panels | length) as $n | [.panels[] | .gridPos | (.h, .w, .x, .y) | numbers] | length == 4 * $n' \
	"$board" >/dev/null || say "a panel without a whole gridPos"
jq -e '[.panels[] | select(.type != "row") | (.targets | length > 0) and all(.targets[]; (.expr | type) == "string" and .expr != "")] | all' \
	"$board" >/dev/null || say "a panel without targets, or a target without an expr"
exprs=$(jq -r '.panels[].targets[]?.expr' "$board")
for m in DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_SM_CLOCK DCGM_FI_DEV_GPU_TEMP DCGM_FI_DEV_POWER_USAGE DCGM_FI_DEV_FB_USED; do
	grep -q "$m{" <<<"$exprs" || say "no panel queries $m"
done

dir=$(mktemp -d /tmp/gpuplan-grafana.XXXXXX)
trap 'rm -rf "$dir"' EXIT
. "$here/prom-outputs.sh"
prom_outputs "$dir" "$gpuplan" "$sim" ||
	{ echo "a --prom run failed:" >&2; cat "$dir"/*.err >&2; exit 1; }
written=$(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$dir"/*.prom)
named=$(grep -o 'gpuplan_[a-z0-9_]*' <<<"$exprs$(jq -r '.templating.list[].definition? // empty' "$board")" | sort -u)
[ -n "$named" ] || say "names no gpuplan_ metric"
for m in $named; do
	grep -qx "$m" <<<"$written" || say "queries $m, which gpuplan does not write"
done
exit $fail
