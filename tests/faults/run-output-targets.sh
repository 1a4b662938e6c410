#!/bin/bash
# Every output target is checked before the first run: -o into a folder
# that does not exist, under a plain file, or naming a folder is refused
# (exit 2) with the command never started, and nothing is written.  Before
# the fix the runs were all made and the record then lost.
name=run-output-targets
. "$(dirname "$0")/lib.sh"

touch "$scratch/plain"
mkdir "$scratch/folder"
for target in "$scratch/missing/r.yaml" "$scratch/plain/r.yaml" "$scratch/folder"; do
	rm -f "$scratch/ran"
	"$gpuplan" run -n 2 -o "$target" -- sh -c "touch $scratch/ran" 2>"$scratch/err"
	rc=$?
	[ $rc = 2 ] || say "-o $target: exit $rc, want 2"
	[ -e "$scratch/ran" ] && say "-o $target: the command ran before the target was refused"
	grep -q -- '-o' "$scratch/err" || say "-o $target: the message does not name -o: $(cat "$scratch/err")"
done
[ -e "$scratch/missing" ] && say "a folder was made"
no_temps "targets"

# A folder that may not be written into (not checkable as root, who may
# write anywhere).
if [ "$(id -u)" != 0 ]; then
	mkdir "$scratch/locked"
	chmod 555 "$scratch/locked"
	rm -f "$scratch/ran"
	"$gpuplan" run -n 2 -o "$scratch/locked/r.yaml" -- sh -c "touch $scratch/ran" 2>"$scratch/err"
	rc=$?
	[ $rc = 2 ] || say "-o into a read-only folder: exit $rc, want 2"
	[ -e "$scratch/ran" ] && say "-o into a read-only folder: the command ran"
	chmod 755 "$scratch/locked"
fi
exit $fail
