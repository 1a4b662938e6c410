#!/bin/bash
# A CPU bench on a host kept busy on purpose: as many spinning processes
# as online CPUs, and one more, take the cores from the bench's threads.
# Every figure is run again and then marked: the profile says
# 'disturbed:' with the evidence, and the terminal says DISTURBED.  (The
# mark comes from the accounting around each figure, host_quiet.h, not
# from any time the test reads.)
#
#   busy-host.sh GPUPLAN        (run from the source root)
set -u
gpuplan=$1
scratch=$(mktemp -d /tmp/gpuplan-busy.XXXXXX)
spinners=()
cleanup() {
	[ ${#spinners[@]} -gt 0 ] && kill "${spinners[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
cpus=$(nproc)
for _ in $(seq 0 "$cpus"); do
	bash -c 'while :; do :; done' &
	spinners+=($!)
done
"$gpuplan" bench --device cpu --suite membw --quick --threads "$cpus" \
	-o "$scratch/m.yaml" 2>"$scratch/err" >/dev/null
rc=$?
fail=0
[ $rc = 0 ] || { echo "busy-host: bench exit $rc" >&2; cat "$scratch/err" >&2; fail=1; }
grep -q '^    disturbed: "' "$scratch/m.yaml" ||
	{ echo "busy-host: no figure marked disturbed" >&2; fail=1; }
grep -q 'DISTURBED: ' "$scratch/err" ||
	{ echo "busy-host: the terminal did not say DISTURBED" >&2; cat "$scratch/err" >&2; fail=1; }
grep -q 'had their cores' "$scratch/err" ||
	{ echo "busy-host: no evidence on the terminal" >&2; fail=1; }
exit $fail
