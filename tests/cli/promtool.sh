#!/bin/bash
# `promtool check metrics` (Debian's prometheus package; src/tools/
# install-deps installs it) on every --prom output gpuplan writes
# (tests/cli/prom-outputs.sh): each must parse and pass promtool's lint
# (base units, HELP and TYPE, names) with nothing said at all.
#   promtool.sh GPUPLAN SIM_PLUGIN_DIR
set -u
gpuplan=$1
sim=$2
here=$(dirname "$0")
command -v promtool >/dev/null ||
	{ echo "promtool not found: run src/tools/install-deps (package prometheus)" >&2; exit 1; }
dir=$(mktemp -d /tmp/gpuplan-promtool.XXXXXX)
trap 'rm -rf "$dir"' EXIT
. "$here/prom-outputs.sh"
prom_outputs "$dir" "$gpuplan" "$sim" ||
	{ echo "a --prom run failed:" >&2; cat "$dir"/*.err >&2; exit 1; }
fail=0
for name in $prom_names; do
	f=$dir/$name.prom
	# promtool exits 0 with no output on a clean file; a lint problem
	# exits non-zero, and any output at all counts as a failure too
	out=$(promtool check metrics <"$f" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] || [ -n "$out" ]; then
		echo "$(basename "$f"): promtool exit $rc: $out" >&2
		fail=1
	fi
	# an empty file would pass promtool and prove nothing
	grep -q '^gpuplan_' "$f" || { echo "$(basename "$f"): no gpuplan_ samples" >&2; fail=1; }
done
# the same inputs give the same bytes
"$gpuplan" plan -o /dev/null --prom "$dir/plan-again.prom" 2>/dev/null &&
	cmp -s "$dir/plan.prom" "$dir/plan-again.prom" ||
	{ echo "plan --prom: a second run differs" >&2; fail=1; }
exit $fail
