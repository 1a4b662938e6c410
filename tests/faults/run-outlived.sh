#!/bin/bash
# A command whose child outlives it and keeps the output pipes open: the
# wall time is the command's own (not the child's 4 s), and a child that
# holds the pipes for a minute neither keeps `gpuplan run` waiting nor goes
# unsaid: the record marks the run output_held_open.  Before the fix the
# first recorded 4 s and the second waited the whole minute.
name=run-outlived
. "$(dirname "$0")/lib.sh"

out=$scratch/r.yaml
"$gpuplan" run -n 1 --warmup 0 -o "$out" -- \
	sh -c "sleep 4 & echo \$! >> $scratch/bg.pid; echo started" 2>"$scratch/err" 3>&-
rc=$?
[ $rc = 0 ] || say "sleep 4 &: exit $rc: $(cat "$scratch/err")"
wall=$(wall_of "$out")
awk -v w="${wall:-99}" 'BEGIN { exit !(w < 2) }' || say "sleep 4 &: wall_time_s $wall, want the command's own (well under 2 s)"
grep -q 'output_held_open: true' "$out" || say "sleep 4 &: the record does not say the output was held open"
grep -q 'kept its output open' "$scratch/err" || say "sleep 4 &: stderr does not say the output was held open"

start=$(date +%s)
timeout 30 "$gpuplan" run -n 2 --warmup 0 -o "$out" -- \
	sh -c "sleep 60 & echo \$! >> $scratch/bg.pid; echo started" 2>"$scratch/err" 3>&-
rc=$?
took=$(($(date +%s) - start))
[ $rc = 0 ] || say "sleep 60 &: exit $rc (124: still waiting after 30 s)"
[ $took -lt 20 ] || say "sleep 60 &: took $took s"
[ "$(grep -c 'output_held_open: true' "$out")" = 2 ] || say "sleep 60 &: not every run says its output was held open"
exit $fail
