#!/bin/bash
# SIGTERM, SIGHUP or SIGINT to `gpuplan run` while the command runs: the
# signal is passed on to the command's process group (a background child
# of the command included), gpuplan waits for the command, writes no
# record (and no temporary file) and dies of the signal.  A command that
# ignores the signal is killed at the second one.  Before the fix gpuplan
# died at once and left the command running.
name=run-signals
. "$(dirname "$0")/lib.sh"

# start_run CMD: gpuplan run in the background with SIGINT at its default
# (bash would start it ignored), its pid in $pid.
start_run() {
	perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV' \
		"$gpuplan" run -n 3 --warmup 0 -o "$scratch/r.yaml" -- "$@" \
		2>"$scratch/err" 3>&- &
	pid=$!
}

# check_end SIG CHILD_PID: gpuplan died of SIG, the child is gone, and
# nothing was written.
check_end() {
	local sig=$1 child=$2 rc
	for _ in $(seq 200); do
		alive $pid || break
		sleep 0.1
	done
	if alive $pid; then
		say "SIG$sig: gpuplan still running 20 s after the signal"
		kill -9 $pid
	fi
	wait $pid
	rc=$?
	[ $rc = $((128 + $(kill -l $sig))) ] || say "SIG$sig: exit $rc, want $((128 + $(kill -l $sig)))"
	wait_gone $child 5 || say "SIG$sig: the command's process $child still runs"
	[ -e "$scratch/r.yaml" ] && say "SIG$sig: a record was written"
	no_temps "SIG$sig"
}

# TERM and HUP: the command's background child is in its group too.
for sig in TERM HUP; do
	rm -f "$scratch/bg.pid" "$scratch/r.yaml"
	start_run sh -c "sleep 60 & echo \$! > $scratch/bg.pid; wait"
	wait_file "$scratch/bg.pid" || say "SIG$sig: the command never started"
	kill -s $sig $pid
	check_end $sig "$(cat "$scratch/bg.pid")"
done 2>/dev/null	# bash's "Terminated" notices

# INT (a terminal's Ctrl-C reaches only gpuplan's group): the command in
# the foreground of its shell (a background one ignores SIGINT, as POSIX
# shells start it).
rm -f "$scratch/fg.pid"
start_run sh -c "echo \$\$ > $scratch/fg.pid; exec sleep 60"
wait_file "$scratch/fg.pid" || say "SIGINT: the command never started"
sleep 0.2
kill -s INT $pid
check_end INT "$(cat "$scratch/fg.pid")" 2>/dev/null

# A command that ignores SIGTERM: the second SIGTERM kills it.
rm -f "$scratch/deaf.pid"
start_run sh -c "trap '' TERM; echo \$\$ > $scratch/deaf.pid; while :; do sleep 0.1; done"
wait_file "$scratch/deaf.pid" || say "deaf: the command never started"
kill -s TERM $pid
sleep 0.5
alive "$(cat "$scratch/deaf.pid")" || say "deaf: the command did not outlive the first SIGTERM (the test is void)"
alive $pid || say "deaf: gpuplan did not wait for the command after the first SIGTERM"
kill -s TERM $pid 2>/dev/null
check_end TERM "$(cat "$scratch/deaf.pid")" 2>/dev/null
exit $fail
