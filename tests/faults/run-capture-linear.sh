#!/bin/bash
# Metric capture is linear in the output: 20 MB of log, 400,000 matches
# of each of two metrics, in well under the 30 s allowed here (about 1 s
# in a normal build).  Before the fix each match rescanned the rest of
# the output: about a minute and a half on a 2-core machine.
name=run-capture-linear
. "$(dirname "$0")/lib.sh"

start=$(date +%s)
timeout 120 "$gpuplan" run -n 1 --warmup 0 -o "$scratch/r.yaml" \
	--metric 'throughput=throughput: ([0-9.]+)' --metric 'loss=loss: ([0-9.]+)' \
	-- sh -c "yes 'step 7 loss: 0.25 throughput: 1234.5 samples/s' | head -c 20000000; echo 'loss: 0.125'" \
	2>"$scratch/err"
rc=$?
took=$(($(date +%s) - start))
[ $rc = 0 ] || say "exit $rc (124: still matching after 120 s)"
[ $took -le 30 ] || say "20 MB of log took $took s"
grep -q '"loss": 0.125' "$scratch/r.yaml" 2>/dev/null || say "the last loss is not 0.125"
grep -q '"throughput": 1234.5' "$scratch/r.yaml" 2>/dev/null || say "the last throughput is not 1234.5"
exit $fail
