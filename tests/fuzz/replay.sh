#!/bin/bash
# ctest fuzz.NAME: one harness on its seeds (made fresh by seeds.sh from
# the shipped files, tests/bad/ and tests/fuzz/seeds/NAME/) and on the
# fixed findings (tests/fuzz/findings/NAME-*), each input once.  Fails
# when an input crashes the harness or breaks one of fuzz.h's invariants.
#
#   tests/fuzz/replay.sh BUILD/tests/fuzz/NAME.env    (run from the source root)
set -euo pipefail
shopt -s nullglob
env_file=$1
name="" program=""
# shellcheck disable=SC1090
source "$env_file"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-replay.XXXXXX")
if ! bash tests/fuzz/seeds.sh "$env_file" "$scratch"; then
	rm -rf "$scratch"
	exit 1
fi
inputs=("$scratch"/seeds/* tests/fuzz/findings/"$name"-*)
# the loaders never read standard input; a path that names it must not wait
TMPDIR=$scratch "$program" "${inputs[@]}" </dev/null >"$scratch/log" 2>&1 || {
	tail -n 60 "$scratch/log" >&2
	echo "fuzz.$name: the last input named above broke the harness; the inputs are kept in $scratch (run: $program FILE)" >&2
	exit 1
}
rm -rf "$scratch"
echo "fuzz.$name: ${#inputs[@]} inputs replayed"
