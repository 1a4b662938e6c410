#!/bin/bash
# The build's zsh completion (_gpuplan) parses (`zsh -n`) and offers the
# right words: run in zsh with compadd and _files standing in for the
# completion system's, on five command lines.  Without zsh the test is
# skipped (exit 77, ctest's SKIP_RETURN_CODE), never passed.
#
#   zsh-completion.sh BUILD_DIR
set -u
script=$1/_gpuplan
[ -s "$script" ] || { echo "zsh-completion.sh: the build made no $script" >&2; exit 1; }
if ! command -v zsh >/dev/null; then
	echo "zsh-completion.sh: SKIPPED: zsh is not installed, so _gpuplan was not parsed"
	exit 77
fi
head -1 "$script" | grep -qx '#compdef gpuplan' || { echo "zsh-completion.sh: no #compdef line" >&2; exit 1; }
zsh -n "$script" || exit 1

# What _gpuplan offers with the cursor on word CURRENT of the words given:
# compadd's words on one line, or "FILES".
offer() {
	local current=$1
	shift
	zsh -f -c '
		compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }
		_files() { print FILES; }
		source "$1" >/dev/null
		shift
		CURRENT=$1
		shift
		words=("$@")
		_gpuplan' zsh "$script" "$current" "$@"
}

fail=0
expect() {	# expect WANT CURRENT WORDS...: WANT is a word offered, or FILES
	local want=$1 got
	shift
	got=$(offer "$@")
	if [[ " $got " != *" $want "* ]]; then
		echo "zsh-completion.sh: at word $1 of '${*:2}': expected '$want' among the offers, found '$got'" >&2
		fail=1
	fi
}
expect plan 2 gpuplan pl
expect --workload 3 gpuplan plan --wor
expect FILES 4 gpuplan plan --workload ""
expect validate 3 gpuplan catalog ""
expect --region 4 gpuplan catalog list -
expect compare 3 gpuplan help ""
exit $fail
