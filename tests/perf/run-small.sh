#!/bin/bash
# Every script under tests/perf/ at a small size, one after another: a
# benchmark the README quotes must keep running, and CI runs this after
# the first test pass (.ci/run) so that none can rot unnoticed.  The sizes
# below (instances, workloads, options, repetitions, quick suites on one
# thread) keep the whole run to about two or three minutes on 2 cores.
#
#   tests/perf/run-small.sh [BUILD_DIR [SCRIPT...]]   (BUILD_DIR: build)
#
# With SCRIPTs (names under tests/perf/), runs those, and fails when a
# script under tests/perf/ is not among them: .ci/run names every one, so
# the list of what CI runs is read in one place and cannot miss a new
# script.  Without, runs every script.  gen-catalog.sh, the generator the
# scale scripts use, runs on its own too: its small catalog must pass
# `gpuplan catalog validate` (plan-scale.sh once failed on it unseen).
#
# Each script's output is printed as it comes, under a "== SCRIPT" line.
# A script fails the run when it
#   - exits non-zero;
#   - prints an error: a shell, awk, sed, jq or Python error, a crash, a
#     sanitizer's report, or gpuplan refusing its command line (the
#     patterns in `errors` below);
#   - or prints no figure (no number on its standard output), unless it
#     says that something it needs is not installed (fit-vs-scipy.sh
#     without SciPy): such a script passes, as it does on its own.
# Every script is run, and the ones that failed are named at the end
# (exit 1).  Nothing is timed against a bound: at these sizes, on a
# shared machine, the figures show that each script runs, not how fast.
# A script under tests/perf/ that has no small size below fails the run:
# add it to small_args when you add the script.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd) || exit 1
cd "$root" || exit 1

# small_args SCRIPT: sets vars (VAR=VALUE words) and args for SCRIPT's
# small run; returns 1 for a script it does not know.
small_args() {
	vars=()
	args=("$build")
	case $1 in
	bench-accuracy.sh) vars=(QUICK=1) args+=(1 128) ;;	# 1 thread, 128^3 GEMM
	calibrated-sweep.sh) vars=(QUICK=1) args+=(tiny-cnn 1) ;;
	diagnose-memory.sh) vars=(SIZES=1) ;;	# 1 MB logs
	fit-vs-scipy.sh) ;;			# a few fits: small already
	input-scale.sh) vars=("MULTIPLES=1 10") ;;
	model-limits.sh) vars=(SCALE=10) ;;
	model-show-ops.sh) args+=(5) ;;		# 5 runs
	plan-scale.sh) args+=(1000 10) ;;	# instances, workloads
	report-memory.sh) vars=(SIZES=1000) ;;
	report-speed.sh) args+=(200 1000) ;;	# report options, scatter points
	run-capture.sh) vars=(SIZES=2) ;;	# 2 MB of output
	serve-sim.sh) args+=(10000) ;;		# requests
	gen-catalog.sh) args=(200) ;;		# instances, then validated
	*) return 1 ;;
	esac
}

errors='command not found|No such file or directory|: line [0-9]+: |syntax error|unbound variable'
errors+='|Traceback \(most recent call last\)|[A-Za-z]Error: |Segmentation fault|Aborted|core dumped'
errors+='|Sanitizer|runtime error: |unknown option|unknown command|Try .gpuplan|jq: error|awk: |sed: '
errors+='|Command exited with non-zero status'

work=$(mktemp -d /tmp/gpuplan-run-small.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=()
ran=0

# gen-catalog.sh GPUPLAN N, then the catalog it wrote validated and counted
gen_and_validate() {
	"$root/tests/perf/gen-catalog.sh" "$1" "$2" >"$work/catalog.yaml" || return 1
	"$1" catalog validate "$work/catalog.yaml" || return 1
	echo "gen-catalog: $(grep -c '^  - name:' "$work/catalog.yaml") instances, valid"
}
start=$SECONDS
shift $(($# > 0 ? 1 : 0))
if [ $# -gt 0 ]; then
	scripts=("$@")
	for have in tests/perf/*.sh; do
		name=${have##*/}
		[ "$name" = run-small.sh ] && continue
		case " $* " in
		*" $name "*) ;;
		*) failed+=("$name (under tests/perf/ but not named to run-small.sh)") ;;
		esac
	done
else
	scripts=()
	for have in tests/perf/*.sh; do
		[ "${have##*/}" = run-small.sh ] || scripts+=("${have##*/}")
	done
fi
for name in "${scripts[@]}"; do
	script=tests/perf/$name
	if [ ! -f "$script" ]; then
		failed+=("$name (no such script under tests/perf/)")
		continue
	fi
	ran=$((ran + 1))
	if ! small_args "$name"; then
		echo "== $name: no small size in tests/perf/run-small.sh (add it to small_args)"
		failed+=("$name (no small size)")
		continue
	fi
	echo "== $name ${vars[*]} ${args[*]}"
	t0=$SECONDS
	# stdout to the terminal and $work/out, stderr to the terminal's
	# stderr and $work/err, both as they come
	run=(env "${vars[@]}" "$script" "${args[@]}")
	[ "$name" = gen-catalog.sh ] &&	# writes a catalog: validate it too
		run=(gen_and_validate "$build/gpuplan" "${args[@]}")
	{ "${run[@]}" </dev/null 2>&1 1>&3 3>&- |
		tee "$work/err" >&2; exit "${PIPESTATUS[0]}"; } 3>&1 | tee "$work/out"
	status=${PIPESTATUS[0]}
	why=""
	if [ "$status" != 0 ]; then
		why="exit status $status"
	elif line=$(grep -h -m1 -E "$errors" "$work/out" "$work/err"); then
		why="printed an error: $line"
	elif ! grep -q -E '(^|[^[:alnum:]_.-])[0-9]' "$work/out" &&
		! grep -q 'is not installed' "$work/out"; then
		why="printed no figures"
	fi
	if [ -n "$why" ]; then
		echo "-- $name FAILED ($why) after $((SECONDS - t0)) s"
		failed+=("$name ($why)")
	else
		echo "-- $name: ok in $((SECONDS - t0)) s"
	fi
done
echo "run-small: $ran scripts in $((SECONDS - start)) s"
if [ ${#failed[@]} != 0 ]; then
	printf 'run-small: FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
