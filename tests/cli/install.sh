#!/bin/bash
# `cmake --install` into a fresh prefix gives a program that finds its own
# data, with the man page and the completion where man, bash and zsh look:
#   - P/bin/gpuplan run from another folder plans and lists the catalog
#     from P/share/gpuplan (not from this source tree);
#   - GPUPLAN_DATA_DIR pointing at a changed copy of the data wins;
#   - the prefix moved elsewhere still works (found relative to the binary);
#   - with the data gone the error names every place looked, exit 1.
#
#   install.sh BUILD_DIR
set -u
build=$1
scratch=$(mktemp -d /tmp/gpuplan-install.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail=0
say() { echo "install.sh: $*" >&2; fail=1; }
unset GPUPLAN_DATA_DIR GPUPLAN_PLUGIN_DIR

P=$scratch/prefix
cmake --install "$build" --prefix "$P" >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log" >&2; say "cmake --install failed"; exit 1; }
for f in bin/gpuplan share/gpuplan/catalogs/accelerators.yaml \
	share/gpuplan/catalogs/currency.yaml share/gpuplan/profiles/workloads/default.yaml \
	share/man/man1/gpuplan.1 share/bash-completion/completions/gpuplan \
	share/zsh/site-functions/_gpuplan; do
	[ -s "$P/$f" ] || say "the install lacks $f"
done

cd "$scratch" || exit 1
"$P/bin/gpuplan" --version >out 2>err || say "--version failed: $(cat err)"
grep -qx "data folder: $P/bin/../share/gpuplan" out || say "installed data not found: $(grep data out)"
"$P/bin/gpuplan" plan -n1 -fjson >plan.json 2>err || say "installed plan failed: $(cat err)"
jq -e '.workloads | length > 0' plan.json >/dev/null || say "installed plan has no workloads"
"$P/bin/gpuplan" catalog list -fcsv >list.csv 2>err || say "installed catalog list failed: $(cat err)"
grep -q 'p4d.24xlarge' list.csv || say "installed catalog list lacks p4d.24xlarge"

# A copy of the data with one instance renamed: the copy is what is read.
cp -r "$P/share/gpuplan" copy
sed -i 's/p4d\.24xlarge/p4d.copy-test/' copy/catalogs/aws.yaml
GPUPLAN_DATA_DIR=$scratch/copy "$P/bin/gpuplan" catalog list -fcsv >copy.csv 2>err ||
	say "catalog list with GPUPLAN_DATA_DIR failed: $(cat err)"
grep -q 'p4d.copy-test' copy.csv || say "GPUPLAN_DATA_DIR's copy was not read"

# A moved prefix still finds its data beside its binary.
mv "$P" "$scratch/moved"
"$scratch/moved/bin/gpuplan" catalog list -fcsv >moved.csv 2>err ||
	say "catalog list from a moved prefix failed: $(cat err)"
cmp -s list.csv moved.csv || say "the moved prefix lists other instances"

# No data anywhere: a precise error naming each place, exit 1.
rm -rf "$scratch/moved/share/gpuplan"
"$scratch/moved/bin/gpuplan" catalog list >/dev/null 2>err
rc=$?
[ "$rc" = 1 ] || say "no data: exit $rc, want 1"
grep -qF "looked in GPUPLAN_DATA_DIR (unset), $scratch/moved/bin/../share/gpuplan (no catalogs/ there)" err ||
	say "no data: the error does not name every place: $(cat err)"
exit $fail
