#!/bin/bash
# Makes one harness's seed corpus and dictionary from what its
# gpuplan_fuzzer() line names (tests/fuzz/CMakeLists.txt), fresh each time
# so they follow the shipped files:
#
#   tests/fuzz/seeds.sh ENVFILE OUTDIR     (run from the source root)
#
# ENVFILE is BUILD/tests/fuzz/NAME.env, written by CMake.  OUTDIR gets
#   seeds/    one input per seed: a file, packed with the files it names
#             (FOLLOW: `include:` for models, `model:` for workloads,
#             recursively, up to 8 files) in the #--8<-- format of fuzz.h;
#             "a.yaml+b.yaml" packs files together (catalogs loaded as a
#             set); each COMMANDS line makes one more seed, run by bash
#             with $GPUPLAN (the program), $BUILD (the build folder) and
#             $OUT (the file to write)
#   NAME.dict a libFuzzer dictionary: tests/fuzz/dict/NAME.dict (syntax,
#             units, values) and every one-word string literal of the KEYS
#             sources (the loaders' field tables: keys and enum words)
# Exit 1 when a seed file is missing or a command fails: a stale line in
# CMakeLists.txt, to be fixed there.
set -euo pipefail
shopt -s nullglob
env_file=$1
out=$2
name="" style="" follow="" keys=() seeds=() commands=() gpuplan="" build=""
# shellcheck disable=SC1090
source "$env_file"
rm -rf "$out/seeds"
mkdir -p "$out/seeds"
source_root=$(pwd -P)	# as realpath spells it

# refs FILE: the files FILE names under a FOLLOW key, as paths that exist.
refs() {
	[ -n "$follow" ] || return 0
	local dir
	dir=$(dirname "$1")
	sed -nE "s/^[[:space:]]*(- )?($follow):[[:space:]]*['\"]?([^'\"#[:space:]]+).*/\\3/p" "$1" |
	while read -r ref; do
		# a file outside the source tree (/etc/passwd) is read from the
		# system as it is, not packed
		case $ref in /*) continue ;; esac
		[ -f "$dir/$ref" ] || continue
		ref=$(realpath "$dir/$ref")
		[[ $ref == "$source_root"/* ]] && echo "$ref"
	done
	return 0
}

# pack FILE...: the files, and the files they name, as one fuzz input on
# stdout; each file under its path relative to the folder holding them all.
pack() {
	local files=() f r i=0 root
	for f in "$@"; do files+=("$(realpath "$f")"); done
	while [ $i -lt ${#files[@]} ] && [ ${#files[@]} -lt 8 ]; do
		while read -r r; do
			[ -n "$r" ] || continue
			[[ " ${files[*]} " == *" $r "* ]] || files+=("$r")
		done < <(refs "${files[$i]}")
		i=$((i + 1))
	done
	files=("${files[@]:0:8}")
	root=$(dirname "${files[0]}")
	for f in "${files[@]}"; do
		while [ "$root" != / ] && [[ $f != "$root"/* ]]; do
			root=$(dirname "$root")
		done
	done
	i=0
	for f in "${files[@]}"; do
		[ $i -gt 0 ] && printf '\n'
		printf '#--8<-- %s\n' "${f#"${root%/}"/}"
		cat "$f"
		i=$((i + 1))
	done
}

n=0
for spec in "${seeds[@]}"; do
	IFS=+ read -r -a group <<<"$spec"
	matched=("${group[0]}")
	# shellcheck disable=SC2206
	[ ${#group[@]} -eq 1 ] && matched=(${group[0]})	# a glob
	[ ${#matched[@]} -gt 0 ] || { echo "seeds: $name: nothing matches $spec" >&2; exit 1; }
	for first in "${matched[@]}"; do
		group[0]=$first
		for f in "${group[@]}"; do
			[ -f "$f" ] || { echo "seeds: $name: no file $f" >&2; exit 1; }
		done
		n=$((n + 1))
		seed=$(printf '%s/seeds/%04d-%s' "$out" $n "$(basename "$first")")
		if [ -n "$follow" ] || [ ${#group[@]} -gt 1 ]; then
			pack "${group[@]}" >"$seed"
		else
			cp "$first" "$seed"	# a file the harness reads whole
		fi
	done
done
for cmd in "${commands[@]}"; do
	n=$((n + 1))
	seed=$(printf '%s/seeds/%04d-command' "$out" $n)
	if ! GPUPLAN=$gpuplan BUILD=$build OUT=$seed bash -c "$cmd" >/dev/null 2>"$out/command.err" ||
	   [ ! -s "$seed" ]; then
		echo "seeds: $name: seed command failed: $cmd" >&2
		cat "$out/command.err" >&2
		exit 1
	fi
done
[ $n -gt 0 ] || { echo "seeds: $name: no seeds" >&2; exit 1; }

# The dictionary: the hand-written part, then the literals, one entry each.
dict=$out/$name.dict
{
	[ -f "tests/fuzz/dict/$name.dict" ] && cat "tests/fuzz/dict/$name.dict"
	# shellcheck disable=SC2206
	sources=(${keys[@]+${keys[@]}})	# the globs, expanded
	if [ ${#sources[@]} -gt 0 ]; then
		grep -ohE '"[A-Za-z_][A-Za-z0-9_]*"' "${sources[@]}" | sort -u |
		while read -r word; do
			case $style in
			yaml) printf '%s\n' "\"${word//\"/}: \"" ;;
			json) printf '%s\n' "\"\\\"${word//\"/}\\\": \"" ;;
			*) printf '%s\n' "$word" ;;
			esac
		done
	fi
} >"$dict"
echo "seeds: $name: $n seeds, $(grep -c '^"' "$dict" || true) dictionary entries" >&2
