#!/bin/bash
# Outputs are all or nothing when the run is interrupted, the disk fills
# or -o names an input.  Each check creates the fault itself:
#   - GPUPLAN_FAULT=before-rename stops gpuplan (SIGSTOP) once its output
#     is staged and not yet renamed; the test sends SIGINT, SIGTERM or
#     SIGHUP, then SIGCONT: gpuplan must die of the signal, leave no
#     FILE.tmp.XXXXXX and the previous FILE as it was;
#   - `ulimit -f` makes the write fail part-way (EFBIG, as a full disk);
#   - -o naming one of the command's inputs, directly or through a link.
#
#   faults.sh GPUPLAN      (run from the source root)
set -u
gpuplan=$1
scratch=$(mktemp -d /tmp/gpuplan-faults.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail=0
exec 3>&2	# messages, also from inside the quieted signal loop
say() { echo "faults.sh: $*" >&3; fail=1; }

# no_temps: no temporary file anywhere under the scratch folder
no_temps() {
	local left
	left=$(find "$scratch" -name '*.tmp.*' | head -3)
	[ -z "$left" ] || say "$1: temporary files left: $left"
}

. "$(dirname "$0")/stop-at-fault.sh"

# With one thread the signal is handled before any rename: the previous
# file must be there.  With OpenBLAS's own thread (threads=2), the signal
# may be handled there while the main thread renames: the file is then the
# whole new plan, never a part (stop-at-fault.sh).
for run in INT:1 TERM:1 HUP:1 INT:2 TERM:2; do
	sig=${run%:*} threads=${run#*:}
	out=$scratch/plan-$sig-$threads.json
	echo previous >"$out"
	STOP_THREADS=$threads start_stopped before-rename "$gpuplan" plan --format json -o "$out" 2>/dev/null
	if ! wait_stopped $pid; then
		say "SIG$sig: gpuplan did not stop at the fault point"
		kill -9 $pid 2>/dev/null
		continue
	fi
	[ -n "$(find "$scratch" -name 'plan-*.tmp.*')" ] || say "SIG$sig: nothing staged at the fault point"
	kill -s $sig $pid
	kill -s CONT $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc = $want ] || say "SIG$sig: exit $rc, want $want (death by the signal)"
	if [ $threads = 1 ]; then
		[ "$(cat "$out")" = previous ] || say "SIG$sig: the previous file changed"
	else
		[ "$(cat "$out")" = previous ] || jq -e .schema "$out" >/dev/null ||
			say "SIG$sig: neither the previous file nor a whole new one"
	fi
	no_temps "SIG$sig"
done 2>/dev/null	# bash's "Hangup" notices

# A write that fails part-way (1 KiB file size limit; the plan is larger).
out=$scratch/limited.json
echo previous >"$out"
(ulimit -f 1; "$gpuplan" plan --format json -o "$out") 2>"$scratch/err"
rc=$?
[ $rc = 1 ] || say "ulimit -f: exit $rc, want 1"
grep -q "cannot write '$out': File too large" "$scratch/err" || say "ulimit -f: message: $(cat "$scratch/err")"
[ "$(cat "$out")" = previous ] || say "ulimit -f: the previous file changed"
no_temps "ulimit -f"

# A replaced file keeps its mode.
out=$scratch/shared.csv
echo previous >"$out"
chmod 640 "$out"
"$gpuplan" catalog list --format csv -o "$out" || say "catalog list -o failed"
[ "$(stat -c %a "$out")" = 640 ] || say "mode not kept: $(stat -c %a "$out")"

# -o naming one of the command's own inputs, by name or through a link:
# exit 2, the input untouched.
cp catalogs/aws.yaml "$scratch/prices.yaml"
ln -s prices.yaml "$scratch/link.yaml"
sed "s|\.\./models/|$PWD/profiles/models/|" profiles/workloads/default.yaml >"$scratch/w.yaml"
check_input_refused() {
	local file=$1
	shift
	local before
	before=$(md5sum <"$file")
	"$gpuplan" "$@" 2>"$scratch/err" >/dev/null
	local rc=$?
	[ $rc = 2 ] || say "'$*': exit $rc, want 2"
	grep -q "it is one of this command's inputs" "$scratch/err" || say "'$*': message: $(cat "$scratch/err")"
	[ "$(md5sum <"$file")" = "$before" ] || say "'$*': the input changed"
}
check_input_refused "$scratch/prices.yaml" catalog list --catalog "$scratch/prices.yaml" -o "$scratch/prices.yaml"
check_input_refused "$scratch/prices.yaml" catalog list --catalog "$scratch/prices.yaml" -o "$scratch/link.yaml"
check_input_refused "$scratch/w.yaml" workload list --workload "$scratch/w.yaml" -o "$scratch/w.yaml"
check_input_refused "$scratch/w.yaml" plan --workload "$scratch/w.yaml" -o "$scratch/w.yaml"
no_temps "inputs"

exit $fail
