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
# Every plan here is of two instance types (--instance): the writes and
# the signals are the same as for the whole catalog, and under the
# sanitizers a plan of every instance in every region took minutes.
small="--instance g4dn.xlarge,p5.48xlarge"
gpuplan=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
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

# A signal sent while gpuplan is stopped before the renames.
for run in INT:1 TERM:1 HUP:1 QUIT:1 PIPE:1 ALRM:1 USR1:1 XCPU:1 INT:2 TERM:2; do
	sig=${run%:*} threads=${run#*:}
	out=$scratch/plan-$sig-$threads.json
	echo previous >"$out"
	STOP_THREADS=$threads start_stopped before-rename "$gpuplan" plan $small --format json -o "$out" 2>/dev/null
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
	# One thread: the signal is taken on resuming, before any rename, so
	# the previous file stays.  With OpenBLAS's thread it may be taken
	# there after the main thread began the renames, and then waits for
	# them: the whole new file (io_guard.h).  Never anything else.
	if [ $threads = 1 ]; then
		[ "$(cat "$out")" = previous ] || say "SIG$sig: the previous file changed"
	else
		[ "$(cat "$out")" = previous ] || jq -e .schema "$out" >/dev/null ||
			say "SIG$sig ($threads threads): neither the previous file nor the whole new one"
	fi
	no_temps "SIG$sig"
done 2>/dev/null	# bash's "Hangup" notices

# SIGKILL cannot be caught: the killed write leaves its temporary file,
# and the next write of the same target removes it (its writer is gone),
# while a live writer's temporary is left alone (issue 28).
out=$scratch/killed.json
echo previous >"$out"
start_stopped before-rename "$gpuplan" plan $small --format json -o "$out" 2>/dev/null
if wait_stopped $pid; then
	kill -s KILL $pid
	wait $pid 2>/dev/null
	left=$(find "$scratch" -name 'killed.json.tmp.*')
	[ -n "$left" ] || say "SIGKILL: no temporary left to clean (the check proves nothing)"
	sleep 1000 &
	live=$!
	live_tmp=$(echo "$left" | sed "s/-[0-9]*\.\([^.]*\)\$/-$live.\1/")
	echo live >"$live_tmp"
	"$gpuplan" plan $small --format json -o "$out" 2>/dev/null || say "SIGKILL: the next write failed"
	[ ! -e "$left" ] || say "SIGKILL: the next write left the dead writer's $left"
	[ -e "$live_tmp" ] || say "SIGKILL: the next write removed a live writer's temporary"
	kill $live
	wait $live 2>/dev/null
	rm -f "$live_tmp"
	jq -e .schema "$out" >/dev/null || say "SIGKILL: the next write is not a plan"
	no_temps "SIGKILL"
else
	say "SIGKILL: gpuplan did not stop at the fault point"
	kill -9 $pid 2>/dev/null
fi

# A write that fails part-way (1 KiB file size limit; the plan is larger).
out=$scratch/limited.json
echo previous >"$out"
(ulimit -f 1; "$gpuplan" plan $small --format json -o "$out") 2>"$scratch/err"
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

# A signal while a set is being renamed waits for the renames: the whole
# new set, then death by the signal (the report's PDF, PNGs and the plan
# all new, never the new PDF with the old charts).
mkdir -p "$scratch/set"
echo previous >"$scratch/set/plan.json"
"$gpuplan" plan $small --format json -o "$scratch/set/old.json" --report "$scratch/set/r.pdf" 2>/dev/null
old_pdf=$(md5sum <"$scratch/set/r.pdf")
start_stopped mid-rename "$gpuplan" plan $small --format json -o "$scratch/set/plan.json" \
	--report "$scratch/set/r.pdf" --title "new" 2>/dev/null >/dev/null
if wait_stopped $pid; then
	kill -s TERM $pid
	kill -s CONT $pid
	wait $pid
	rc=$?
	[ $rc = 143 ] || say "mid-rename: exit $rc, want 143"
	jq -e .schema "$scratch/set/plan.json" >/dev/null || say "mid-rename: the plan is not the new one"
	[ "$(md5sum <"$scratch/set/r.pdf")" != "$old_pdf" ] || say "mid-rename: the PDF is not the new one"
	no_temps "mid-rename"
else
	say "mid-rename: gpuplan did not stop at the fault point"
	kill -9 $pid 2>/dev/null
fi 2>/dev/null

# Two outputs of one run naming one file, however spelled: exit 2, nothing
# written.
(cd "$scratch" && mkdir -p twice && "$gpuplan" plan $small -o ./twice/r.pdf --report twice/r.pdf) \
	>/dev/null 2>"$scratch/err"
rc=$?
[ $rc = 2 ] || say "-o and --report one file: exit $rc, want 2"
grep -q "name the same file" "$scratch/err" || say "-o and --report one file: $(cat "$scratch/err")"
[ -z "$(ls -A "$scratch/twice")" ] || say "-o and --report one file: wrote $(ls "$scratch/twice")"

# A pipe nobody reads is an error, not a hang; /dev/stdout on a pipe works.
mkfifo "$scratch/fifo"
timeout 20 "$gpuplan" catalog list -o "$scratch/fifo" 2>"$scratch/err"
rc=$?
[ $rc = 1 ] || say "-o FIFO without a reader: exit $rc, want 1"
grep -q "no process reads this pipe" "$scratch/err" || say "-o FIFO: $(cat "$scratch/err")"
n=$("$gpuplan" catalog list --format csv -o /dev/stdout | wc -l)
[ "$n" -gt 1 ] || say "-o /dev/stdout into a pipe: $n lines"

# Paths are printed, not obeyed: a file name holding an escape sequence
# (clear screen, set the window title) reaches no output raw.
esc=$(printf '\033]0;pwned\007\033[2J')
cp profiles/models/tiny-cnn.yaml "$scratch/${esc}m.yaml"
sed "s|\.\./models/|$PWD/profiles/models/|" profiles/workloads/default.yaml >"$scratch/${esc}w.yaml"
check_spelled() {
	"$gpuplan" "$@" >"$scratch/out" 2>"$scratch/err"
	if grep -q "$(printf '\033')" "$scratch/out" "$scratch/err"; then
		say "'$*': an escape character reached the terminal raw"
	fi
	grep -qF '\x1b]0;pwned' "$scratch/out" "$scratch/err" || say "'$*': the path is not shown spelled out"
}
check_spelled model show "$scratch/${esc}m.yaml"
check_spelled workload list --format table --workload "$scratch/${esc}w.yaml"
check_spelled catalog validate "$scratch/${esc}m.yaml"
GPUPLAN_PLUGIN_DIR="$scratch/$esc" check_spelled devices --format table

exit $fail
