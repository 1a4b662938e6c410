#!/bin/bash
# Runs one end-to-end case file against the gpuplan binary.
#
#   run-case.sh GPUPLAN CASE_FILE
#
# A case file is plain lines "key: value"; '#' starts a comment:
#   args: catalog list --format csv     arguments, split as the shell would
#   exit: 0                             expected exit status (default 0)
#   stdout-has: TEXT                    stdout contains TEXT (repeatable)
#   stdout-lacks: TEXT                  stdout does not contain TEXT
#   stderr-has: TEXT / stderr-lacks: TEXT
#   stderr-empty: yes                   nothing on stderr
#   jq: EXPR                            `jq -e EXPR` on stdout is true
#   same-as-args: ARGS                  stdout equals that of another run
#   no-file: PATH                       PATH does not exist afterwards
#   file-jq: PATH EXPR                  `jq -e EXPR PATH` is true
#   env: NAME=VALUE                     set for the run (repeatable)
#   stdout-to: PATH                     send stdout there (/dev/full, say)
#   before: ARGS                        a gpuplan run that must succeed first
#                                       (makes the input: a plan for report)
#   file-starts: PATH TEXT              PATH begins with TEXT (%PDF-, <?xml)
#   file-has: PATH TEXT                 PATH contains TEXT (a YAML -o file)
#   files: GLOB N                       exactly N files match GLOB
#   csv: EXPR                           python3 EXPR is true, with `rows` the
#                                       stdout read by csv.DictReader
#   stdin: PATH                         standard input (default /dev/null)
#   touch: PATH                         a one-byte file made before the run
# Cases run in the source root, with a fresh scratch folder in $SCRATCH and
# the folder of the gpuplan binary (the build folder) in $BUILD.
set -u
gpuplan=$1
case_file=$2
fail=0
say() { printf '%s: %s\n' "$case_file" "$*" >&2; fail=1; }

export SCRATCH BUILD
SCRATCH=$(mktemp -d /tmp/gpuplan-case.XXXXXX)
BUILD=$(dirname "$gpuplan")
trap 'rm -rf "$SCRATCH"' EXIT

args=$(sed -n 's/^args: //p' "$case_file")
want_exit=$(sed -n 's/^exit: //p' "$case_file")
want_exit=${want_exit:-0}
stdout_to=$(sed -n 's/^stdout-to: //p' "$case_file")
stdout_to=${stdout_to:-$SCRATCH/out}
stdin_from=$(sed -n 's/^stdin: //p' "$case_file")
stdin_from=${stdin_from:-/dev/null}
envs=()
while IFS= read -r e; do eval "envs+=(\"$e\")"; done < <(sed -n 's/^env: //p' "$case_file")
: >"$SCRATCH/out"
while IFS= read -r before; do
	eval "set -- $before"
	"$gpuplan" "$@" >/dev/null 2>"$SCRATCH/err" </dev/null ||
		{ say "before: '$before' failed"; cat "$SCRATCH/err" >&2; exit 1; }
done < <(sed -n 's/^before: //p' "$case_file")
while IFS= read -r t; do eval "f=$t"; mkdir -p "$(dirname "$f")"; printf x >"$f"; done \
	< <(sed -n 's/^touch: //p' "$case_file")
eval "stdin_from=$stdin_from"
eval "set -- $args"
env ${envs[@]+"${envs[@]}"} "$gpuplan" "$@" >"$stdout_to" 2>"$SCRATCH/err" <"$stdin_from"
got_exit=$?

[ "$got_exit" = "$want_exit" ] || say "exit $got_exit, want $want_exit"
while IFS= read -r line; do
	key=${line%%: *}
	value=${line#*: }
	case "$key" in
	stdout-has) grep -qF -- "$value" "$SCRATCH/out" || say "stdout lacks '$value'" ;;
	stdout-lacks) grep -qF -- "$value" "$SCRATCH/out" && say "stdout has '$value'" ;;
	stderr-has) grep -qF -- "$value" "$SCRATCH/err" || say "stderr lacks '$value'" ;;
	stderr-lacks) grep -qF -- "$value" "$SCRATCH/err" && say "stderr has '$value'" ;;
	stderr-empty) [ -s "$SCRATCH/err" ] && say "stderr not empty" ;;
	jq) jq -e "$value" "$SCRATCH/out" >/dev/null 2>&1 || say "jq -e '$value' is not true" ;;
	same-as-args)
		eval "set -- $value"
		"$gpuplan" "$@" >"$SCRATCH/out2" 2>/dev/null </dev/null
		cmp -s "$SCRATCH/out" "$SCRATCH/out2" || say "output differs from '$value'" ;;
	no-file) eval "f=$value"; [ -e "$f" ] && say "$f exists" ;;
	file-starts)
		eval "f=${value%% *}"
		want=${value#* }
		[ "$(head -c ${#want} "$f" 2>/dev/null)" = "$want" ] || say "$f does not begin with '$want'" ;;
	file-has)
		eval "f=${value%% *}"
		grep -qF -- "${value#* }" "$f" 2>/dev/null || say "$f lacks '${value#* }'" ;;
	files)
		eval "set -- ${value% *}"
		n=0
		for f in "$@"; do [ -s "$f" ] && n=$((n + 1)); done
		[ "$n" = "${value##* }" ] || say "$n non-empty files match ${value% *}, want ${value##* }" ;;
	csv)
		python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$SCRATCH/out" "$value" 2>/dev/null ||
			say "csv '$value' is not true" ;;
	file-jq)
		eval "f=${value%% *}"
		jq -e "${value#* }" "$f" >/dev/null 2>&1 || say "jq -e '${value#* }' on $f is not true" ;;
	esac
done < <(grep -v '^#' "$case_file")

if [ $fail = 1 ]; then
	echo "--- stdout" >&2; head -c 3000 "$SCRATCH/out" >&2
	echo "--- stderr" >&2; head -c 3000 "$SCRATCH/err" >&2
fi
exit $fail
