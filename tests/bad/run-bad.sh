#!/bin/bash
# The bad-input corpus: tests/bad/KIND/NAME.yaml must make gpuplan exit 2,
# print exactly tests/bad/KIND/NAME.expect on stderr, and write no output
# file.  KIND picks the commands:
#   catalog   gpuplan catalog validate FILE; gpuplan catalog list --catalog FILE -o OUT
#   model     gpuplan model show FILE -o OUT
#   workload  gpuplan workload validate FILE; gpuplan workload list --workload FILE -o OUT
#   report    gpuplan report FILE -o OUT (the file is NAME.json: a plan)
#   diagnose  gpuplan diagnose FILE; gpuplan diagnose FILE -o OUT --prom
#             OUT.prom (the file is NAME.csv: an nvidia-smi log)
#   outcome   gpuplan backtest FILE; gpuplan backtest FILE -o OUT (against
#             the shipped catalogs)
#   baselines gpuplan bench --device cpu --baselines FILE (twice, the second
#             with -o OUT): refused before anything is measured
#   run       gpuplan compare FILE FILE; the same -o OUT (a run record)
#
#   run-bad.sh GPUPLAN KIND NAME      (run from the source root)
#
# catalog/too-large and catalog/flood are generated here: a 17 MiB file or
# 100,000 empty entries are no things to commit.
set -u
gpuplan=$1
kind=$2
name=$3
scratch=$(mktemp -d /tmp/gpuplan-bad.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
file=tests/bad/$kind/$name.yaml
[ "$kind" = report ] && file=tests/bad/$kind/$name.json
[ "$kind" = diagnose ] && file=tests/bad/$kind/$name.csv
if [ "$kind/$name" = catalog/too-large ]; then
	file=$scratch/too-large.yaml
	{ echo "schema: gpuplan/catalog/v1"; yes '# padding to pass the size limit' | head -c 17825792; } >"$file"
fi
# catalog/flood: 100,000 empty instances, an error flood cut at 200 lines.
if [ "$kind/$name" = catalog/flood ]; then
	file=$scratch/flood.yaml
	{ echo "schema: gpuplan/catalog/v1"; echo "instances:"; yes '  - {}' | head -n 100000; } >"$file"
fi
fail=0

# expect_stderr CMD...: exit 2 and stderr exactly as in the .expect file.
expect_stderr() {
	"$gpuplan" "$@" >"$scratch/out" 2>"$scratch/err"
	local rc=$?
	[ $rc = 2 ] || { echo "$kind/$name: '$*' exit $rc, want 2" >&2; fail=1; }
	sed "s|$scratch|SCRATCH|g" "$scratch/err" >"$scratch/err.norm"
	if ! diff -u "tests/bad/$kind/$name.expect" "$scratch/err.norm" >&2; then
		echo "$kind/$name: stderr differs from tests/bad/$kind/$name.expect" >&2
		fail=1
	fi
}

# expect_no_output CMD... -o FILE: exit 2 and FILE never created.
expect_no_output() {
	"$gpuplan" "$@" -o "$scratch/result" >/dev/null 2>&1
	local rc=$?
	[ $rc = 2 ] || { echo "$kind/$name: '$*' exit $rc, want 2" >&2; fail=1; }
	[ -e "$scratch/result" ] && { echo "$kind/$name: '$*' wrote a file on bad input" >&2; fail=1; }
}

case $kind in
catalog)
	expect_stderr catalog validate "$file"
	expect_no_output catalog list --catalog "$file" ;;
model)
	expect_stderr model show "$file"
	expect_no_output model show "$file" ;;
workload)
	expect_stderr workload validate "$file"
	expect_no_output workload list --workload "$file" ;;
outcome)
	expect_stderr backtest "$file"
	expect_no_output backtest --format json "$file" ;;
baselines)
	expect_stderr bench --device cpu --quick --suite transfer --baselines "$file"
	expect_no_output bench --device cpu --quick --suite transfer --baselines "$file" ;;
run)
	expect_stderr compare "$file" "$file"
	expect_no_output compare --format json "$file" "$file" ;;
diagnose)
	expect_stderr diagnose "$file"
	expect_no_output diagnose "$file" --prom "$scratch/result.prom"
	[ -e "$scratch/result.prom" ] && { echo "$kind/$name: wrote --prom on bad input" >&2; fail=1; } ;;
report)
	expect_stderr report "$file" -o "$scratch/report.pdf" --png "$scratch/png"
	expect_no_output report "$file"
	[ -e "$scratch/png" ] && { echo "$kind/$name: made the PNG folder on bad input" >&2; fail=1; } ;;
*)
	echo "unknown corpus kind '$kind'" >&2
	fail=1 ;;
esac
exit $fail
