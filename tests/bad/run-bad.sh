#!/bin/bash
# The bad-input corpus: each tests/bad/NAME.yaml must make
#   gpuplan catalog validate tests/bad/NAME.yaml
# exit 2 and print exactly tests/bad/NAME.expect on stderr, and must make
# `gpuplan catalog list --catalog FILE -o OUT` exit 2 without creating OUT.
#
#   run-bad.sh GPUPLAN NAME      (run from the source root)
#
# NAME "too-large" is generated here: a 17 MiB file is no thing to commit.
set -u
gpuplan=$1
name=$2
scratch=$(mktemp -d /tmp/gpuplan-bad.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
file=tests/bad/$name.yaml
if [ "$name" = too-large ]; then
	file=$scratch/too-large.yaml
	{ echo "schema: gpuplan/catalog/v1"; yes '# padding to pass the size limit' | head -c 17825792; } >"$file"
fi
fail=0
"$gpuplan" catalog validate "$file" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc = 2 ] || { echo "$name: validate exit $rc, want 2" >&2; fail=1; }
sed "s|$scratch|SCRATCH|g" "$scratch/err" >"$scratch/err.norm"
if ! diff -u "tests/bad/$name.expect" "$scratch/err.norm" >&2; then
	echo "$name: stderr differs from tests/bad/$name.expect" >&2
	fail=1
fi
"$gpuplan" catalog list --catalog "$file" -o "$scratch/list.json" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || { echo "$name: list exit $rc, want 2" >&2; fail=1; }
[ -e "$scratch/list.json" ] && { echo "$name: list wrote a file on bad input" >&2; fail=1; }
exit $fail
