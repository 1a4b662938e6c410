#!/bin/bash
# The top-level help, the man page and the bash completion are generated
# from the tables (src/cli/help_gen.h); this holds them to the tables:
#   - `gpuplan --help` lists every command of main.c's table, says what
#     this build has (its plugin line is --version's), and nothing stale;
#   - the man page (the build's gpuplan.1) has a section per command path,
#     holding every option that path's --help lists, and groff reads it
#     without a warning;
#   - the build's gpuplan.bash, sourced into bash, completes
#     `gpuplan pl<TAB>` to plan and `gpuplan plan --cur<TAB>` to --currency.
#
#   help-docs.sh GPUPLAN      (run from the source root)
set -u
gpuplan=$1
build=$(dirname "$gpuplan")
fail=0
say() { echo "help-docs.sh: $*" >&2; fail=1; }
# Plugin and data as this build finds them, not the caller's environment.
unset GPUPLAN_PLUGIN_DIR GPUPLAN_DATA_DIR

help=$("$gpuplan" --help) || say "--help failed"
names=$(sed -n 's/^\t{"\([a-z]*\)", cmd_[a-z]*, ".*/\1/p' src/cli/main.c)
[ "$(echo "$names" | wc -w)" -ge 12 ] || say "read only '$names' from main.c's table"
for name in $names; do
	grep -q "^  $name  " <<<"$help" || say "--help does not list '$name'"
done
for stale in "not yet" "TODO" "coming soon"; do
	grep -qi "$stale" <<<"$help" && say "--help says '$stale'"
done
plugin=$("$gpuplan" --version | grep '^cuda plugin: ')
grep -qF -- "  $plugin" <<<"$help" || say "--help lacks --version's '$plugin'"
grep -q '^  data search order: \$GPUPLAN_DATA_DIR' <<<"$help" ||
	say "--help lacks the data search order"

man=$build/gpuplan.1
[ -s "$man" ] || { say "the build made no $man"; exit 1; }
cmp -s "$man" <("$gpuplan" help --man) || say "$man differs from 'gpuplan help --man'"
paths=$(sed -n 's/^\.SS "gpuplan \(.*\)"$/\1/p' "$man")
for name in $names; do
	grep -qE "^$name( |$)" <<<"$paths" || say "the man page has no section for '$name'"
done
# "PATH<TAB>--option" for every option each path's --help lists, then one
# awk pass over the man page for the ones its section lacks.
want=$(while IFS= read -r path; do
	# shellcheck disable=SC2086
	"$gpuplan" $path --help | sed -n '/^options:/,/^$/s/^ \+\(-[a-zA-Z], \)\?\(--[a-z][a-z0-9-]*\).*/\2/p' |
		sed "s|^|$path\t|"
done <<<"$paths")
[ "$(wc -l <<<"$want")" -ge 60 ] || say "read only $(wc -l <<<"$want") options from the --help texts"
missing=$(awk -F'\t' 'NR == FNR { want[NR] = $0; n = NR; next }
	/^\.SS "gpuplan / { path = substr($0, 14, length($0) - 14); next }
	/^\.S[SH] / { path = ""; next }
	path != "" { has[path "\t" $0] = 1 }
	END {
		for (i = 1; i <= n; i++) {
			split(want[i], f, "\t"); o = f[2]; gsub(/-/, "\\-", o)
			found = 0
			for (k in has) if (index(k, f[1] "\t") == 1 && index(k, "\\fB" o "\\fR")) found = 1
			if (!found) print want[i]
		}
	}' <(echo "$want") "$man")
[ -z "$missing" ] || say "man sections lack these options: $missing"
if command -v groff >/dev/null; then
	warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
	[ -z "$warnings" ] || say "groff: $warnings"
else
	echo "help-docs.sh: groff not installed: the man page is checked by grep only"
fi

comp=$build/gpuplan.bash
[ -s "$comp" ] || { say "the build made no $comp"; exit 1; }
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuplan; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
[ "$(complete_words gpuplan pl)" = plan ] || say "gpuplan pl<TAB> gives '$(complete_words gpuplan pl)'"
[ "$(complete_words gpuplan plan --cur)" = --currency ] ||
	say "gpuplan plan --cur<TAB> gives '$(complete_words gpuplan plan --cur)'"
[ "$(complete_words gpuplan catalog li)" = list ] || say "gpuplan catalog li<TAB> gives '$(complete_words gpuplan catalog li)'"
[ "$(complete_words gpuplan catalog list --prov)" = --provider ] ||
	say "gpuplan catalog list --prov<TAB> gives '$(complete_words gpuplan catalog list --prov)'"
exit $fail
