#!/bin/bash
# The build's zsh completion (_gpuplan) parses: `zsh -n`.  Without zsh the
# test is skipped (exit 77, ctest's SKIP_RETURN_CODE), never passed.
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
zsh -n "$script"
