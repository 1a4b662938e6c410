#!/bin/bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan) and runs each for a
# while; fails, naming the reproducer, when one finds a crash, a broken
# invariant, a leak, a timeout or an out-of-memory.
#
#   tests/fuzz/run-fuzzers.sh [-b BUILD] [-j JOBS] [-k] SECONDS [HARNESS...]
#
#   SECONDS   how long each harness runs (libFuzzer's -max_total_time)
#   HARNESS   units, catalog, model, trace, fitted, workload, outcome, profile, plan,
#             planner, options, baselines, run, smi_log, capture, diagnose,
#             compare
#             (default: every harness tests/fuzz/CMakeLists.txt names)
#   -b BUILD  the build folder (default build-fuzz-lf); configured here
#             with -DGPUPLAN_FUZZ=ON -DCMAKE_C_COMPILER=clang when needed
#   -j JOBS   harnesses run at once, one core each (default 1), and the
#             build's parallelism (default 2)
#   -k        keep going: run every harness even after one failed
#
# Per harness NAME, under BUILD/fuzz/:
#   corpus/NAME/       the corpus libFuzzer grows; kept between runs, so a
#                      longer campaign continues where the last one stopped
#   seeds/NAME/        the seeds (tests/fuzz/seeds.sh, made fresh each run)
#   NAME.dict          the dictionary
#   NAME.log           libFuzzer's output
#   findings/NAME-*    crash-*, leak-*, timeout-*, oom-* reproducers
# Limits per input: -timeout (the harness's TIMEOUT in CMakeLists.txt,
# 10 s unless it says more; FUZZ_TIMEOUT overrides it for all) and
# -rss_limit_mb (default 2048; FUZZ_RSS_MB), so a runaway loop or a memory
# blow-up is a finding, not a stuck CI job.  Extra libFuzzer flags:
# FUZZ_FLAGS.  Reproduce a finding with
#   BUILD/tests/fuzz/fuzz_NAME FILE
set -euo pipefail
cd "$(dirname "$0")/../.."
build="build-fuzz-lf"
jobs=1
keep_going=0
while getopts b:j:k opt; do
	case $opt in
	b) build=$OPTARG ;;
	j) jobs=$OPTARG ;;
	k) keep_going=1 ;;
	*) sed -n '2,15s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
	sed -n '2,15s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
seconds=$1
shift
rss=${FUZZ_RSS_MB:-2048}

# clang with its libFuzzer runtime, and OpenMP for clang (the core's CPU
# bench is built with it): Debian's clang-14, libclang-rt-14-dev and
# libomp-14-dev.
cc=$(command -v clang || command -v clang-14 || true)
if [ -z "$cc" ] || [ ! -f "$("$cc" -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
	echo "run-fuzzers: needs clang and libFuzzer; on Debian 12: apt-get install clang-14 libclang-rt-14-dev libomp-14-dev" >&2
	exit 1
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DGPUPLAN_FUZZ=ON \
		-DGPUPLAN_CUDA=OFF -DGPUPLAN_WERROR=OFF >/dev/null
fi
if ! grep -q '^GPUPLAN_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
	echo "run-fuzzers: $build is not a fuzz build (configure it with -DCMAKE_C_COMPILER=clang -DGPUPLAN_FUZZ=ON, or name a new folder)" >&2
	exit 2
fi
out=$build/fuzz
mkdir -p "$out/findings" "$out/tmp"
if ! cmake --build "$build" -j "$((jobs > 2 ? jobs : 2))" --target fuzzers >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "run-fuzzers: the build failed (all of it in $out/build.log)" >&2
	exit 1
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for env in "$build"/tests/fuzz/*.env; do
		names+=("$(basename "$env" .env)")
	done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# fuzz NAME: one harness for $seconds; 0 when it found nothing.
fuzz() {
	local name=$1 env=$build/tests/fuzz/$1.env
	local program="" max_len="" timeout=10
	[ -f "$env" ] || { echo "run-fuzzers: no harness '$name'" >&2; return 1; }
	# shellcheck disable=SC1090
	source "$env"
	bash tests/fuzz/seeds.sh "$env" "$out/prep-$name" 2>"$out/$name.log" || {
		cat "$out/$name.log" >&2; return 1; }
	rm -rf "$out/seeds/$name"
	mkdir -p "$out/seeds" "$out/corpus/$name"
	mv "$out/prep-$name/seeds" "$out/seeds/$name"
	mv "$out/prep-$name/$name.dict" "$out/$name.dict"
	rm -rf "$out/prep-$name"
	# the standard input is empty: a loader told to read /dev/stdin
	# must not wait on the terminal
	local rc=0 dict=""
	# libFuzzer stops with exit 1 on an empty dictionary
	grep -q '^"' "$out/$name.dict" && dict=-dict=$out/$name.dict
	# shellcheck disable=SC2086
	TMPDIR=$out/tmp "$program" -max_total_time="$seconds" \
		-timeout="${FUZZ_TIMEOUT:-$timeout}" -rss_limit_mb="$rss" -max_len="$max_len" \
		$dict -artifact_prefix="$out/findings/$name-" \
		-print_final_stats=1 ${FUZZ_FLAGS:-} \
		"$out/corpus/$name" "$out/seeds/$name" </dev/null >>"$out/$name.log" 2>&1 || rc=$?
	local stats
	stats=$(grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$out/$name.log" |
		tr -s ' ' | tr '\n' ' ' || true)
	if [ $rc -eq 0 ]; then
		echo "fuzz $name: clean for ${seconds}s ($stats)"
		return 0
	fi
	echo "fuzz $name: FAILED (exit $rc); the last lines of $out/$name.log:" >&2
	grep -E 'ERROR|SUMMARY|broken invariant|runtime error|Test unit written|==[0-9]+==' "$out/$name.log" | head -20 >&2 || true
	tail -n 30 "$out/$name.log" >&2
	# (a slow-unit-* file is libFuzzer's note of a slow input, not a finding)
	sed -n 's/.*Test unit written to \(.*\)/\1/p' "$out/$name.log" |
	grep -v '/[a-z]*-slow-unit-' | while read -r f; do
		echo "fuzz $name: reproducer $f (run: $program $f)" >&2
	done || true
	return 1
}

failed=()
running=0
declare -A pids=()
for name in "${names[@]}"; do
	if [ "$jobs" -le 1 ]; then
		fuzz "$name" || {
			failed+=("$name")
			[ $keep_going = 1 ] || break
		}
		continue
	fi
	fuzz "$name" & pids[$!]=$name
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n -p done_pid || failed+=("${pids[$done_pid]}")
		running=$((running - 1))
	fi
done
while [ $running -gt 0 ]; do
	wait -n -p done_pid || failed+=("${pids[$done_pid]}")
	running=$((running - 1))
done
rm -rf "$out/tmp"
if [ ${#failed[@]} -gt 0 ]; then
	echo "run-fuzzers: failed: ${failed[*]} (reproducers in $out/findings/)" >&2
	exit 1
fi
echo "run-fuzzers: ${#names[@]} harnesses clean for ${seconds}s each"
