#!/bin/bash
# A report is all or nothing, whatever goes wrong part-way (ctest:
# cli.report-faults).  Each fault is created for real:
#   - a file-size limit (ulimit -f; gpuplan ignores SIGXFSZ, so writes fail
#     with EFBIG) that the PDF fits and a later PNG does not;
#   - a small tmpfs that fills up part-way (skipped where mounting is not
#     allowed);
#   - cairo refusing the 10th chart (GPUPLAN_FAULT=report-cairo:10);
#   - SIGTERM, SIGHUP and SIGINT while every file is staged and none renamed
#     (GPUPLAN_FAULT=before-rename stops the process there);
#   - the same for `plan -o FILE --report`, whose JSON is in the same set.
# After each: exit 1 (or death by the signal), no file of the run, no
# folder the run made, no FILE.tmp.XXXXXX, and the previous report's files
# byte for byte as they were.
#
#   report-faults.sh GPUPLAN        (run from the source root)
set -u
# Every plan here is of two instance types: the report's writes are the
# same, and under the sanitizers a plan of the whole catalog took minutes.
small="--instance g4dn.xlarge,p5.48xlarge"
gp=$1
work=$(mktemp -d /tmp/gpuplan-report-faults.XXXXXX)
mounted=
cleanup() {
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
say() { echo "report-faults: $*" >&2; fail=1; }

"$gp" plan $small --format json -o "$work/plan.json" || { say "cannot make a plan"; exit 1; }

# The previous report: what every failed run below must leave as it was.
"$gp" report "$work/plan.json" -o "$work/prev/plan.pdf" --png "$work/prev/png" 2>/dev/null ||
	{ say "the first report failed"; exit 1; }
sums() { (cd "$work/prev" && find . -type f | sort | xargs md5sum); }
sums >"$work/prev.sum"

# intact WHAT: the previous report unchanged, no temporary file anywhere.
intact() {
	sums | cmp -s - "$work/prev.sum" || say "$1: the previous report changed"
	local tmp
	tmp=$(find "$work" -name '*.tmp.*' | head -3)
	[ -z "$tmp" ] || say "$1: temporary files left: $tmp"
}

# expect_failure WHAT RC ERRFILE TEXT: exit 1 and TEXT on stderr.
expect_failure() {
	[ "$2" = 1 ] || say "$1: exit $2, want 1"
	grep -qF -- "$4" "$3" || { say "$1: stderr lacks '$4'"; cat "$3" >&2; }
}

# ---- targets that are this run's inputs: refused before any planning ----
sed "s|model: \\.\\./\\.\\./\\.\\./|model: $PWD/|" tests/cli/data/workloads.yaml >"$work/w.yaml"
cp "$work/w.yaml" "$work/w.orig"
for opts in "--report $work/w.yaml" "--format json -o $work/w.yaml --report $work/r3/plan.pdf"; do
	# shellcheck disable=SC2086
	"$gp" plan --workload "$work/w.yaml" $opts >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || say "plan $opts: exit $rc, want 2"
	grep -qF "will not write over" "$work/err" || say "plan $opts: not refused as an input"
	cmp -s "$work/w.yaml" "$work/w.orig" || say "plan $opts: the workload file changed"
	[ -s "$work/out" ] && say "plan $opts: planned anyway"
	[ -e "$work/r3" ] && say "plan $opts: made the report's folder"
done

# ---- a file-size limit between the PDF's size and a later PNG's --------
pdf_size=$(stat -c %s "$work/prev/plan.pdf")
blocks=$(( (pdf_size + 1023) / 1024 ))	# bash counts ulimit -f in KiB
bigger=$(find "$work/prev/png" -size +$((blocks * 1024))c | wc -l)
if [ "$bigger" -eq 0 ]; then
	echo "report-faults: no PNG larger than the PDF here: ulimit part skipped" >&2
else
	(ulimit -f "$blocks"; exec "$gp" report "$work/plan.json" -o "$work/new/sub/plan.pdf" \
		--png "$work/new/png") 2>"$work/err"
	expect_failure "ulimit, new folders" $? "$work/err" "File too large"
	[ -e "$work/new" ] && say "ulimit: the run's folders are left: $(find "$work/new" | head -5)"
	intact "ulimit, new folders"

	(ulimit -f "$blocks"; exec "$gp" report "$work/plan.json" -o "$work/prev/plan.pdf" \
		--png "$work/prev/png" --svg "$work/prev/svg") 2>"$work/err"
	expect_failure "ulimit, over the previous report" $? "$work/err" "File too large"
	[ -e "$work/prev/svg" ] && say "ulimit: the SVG folder the run made is left"
	intact "ulimit, over the previous report"

	# plan -o FILE --report: the plan's JSON goes with the report or not at all
	(ulimit -f "$blocks"; exec "$gp" plan $small --format json -o "$work/p2.json" \
		--report "$work/r2/plan.pdf") 2>"$work/err" >"$work/out"
	expect_failure "ulimit, plan --report" $? "$work/err" "File too large"
	[ -e "$work/p2.json" ] && say "ulimit, plan --report: the plan was written"
	[ -e "$work/r2" ] && say "ulimit, plan --report: the report folder is left"
	[ -s "$work/out" ] && say "ulimit, plan --report: something on stdout"
	intact "ulimit, plan --report"
fi

# ---- a small tmpfs that fills part-way ------------------------------------
mkdir -p "$work/small"
if mount -t tmpfs -o size=$((pdf_size + 200 * 1024)) tmpfs "$work/small" 2>/dev/null; then
	mounted=$work/small
	"$gp" report "$work/plan.json" -o "$work/small/plan.pdf" --png "$work/small/png" \
		--svg "$work/small/svg" 2>"$work/err"
	expect_failure "tmpfs" $? "$work/err" "No space left on device"
	left=$(find "$work/small" -mindepth 1 | head -5)
	[ -z "$left" ] || say "tmpfs: left behind: $left"
	umount "$work/small" && mounted=
else
	echo "report-faults: cannot mount a tmpfs here: tmpfs part skipped" >&2
fi

# ---- cairo refusing a chart part-way --------------------------------------
GPUPLAN_FAULT=report-cairo:10 "$gp" report "$work/plan.json" -o "$work/c/plan.pdf" \
	--png "$work/c/png" 2>"$work/err"
expect_failure "cairo" $? "$work/err" "cannot draw the PDF's"
grep -qF "invalid matrix" "$work/err" || say "cairo: cairo's reason not given"
[ -e "$work/c" ] && say "cairo: the run's folders are left"
GPUPLAN_FAULT=report-cairo:35 "$gp" report "$work/plan.json" -o "$work/prev/plan.pdf" \
	--png "$work/prev/png" 2>"$work/err"
expect_failure "cairo, a PNG" $? "$work/err" "as PNG: invalid matrix"
intact "cairo"

# ---- a signal with every file staged and none renamed ---------------------
. "$(dirname "$0")/stop-at-fault.sh"

for sig in TERM HUP INT; do
	start_stopped before-rename "$gp" report "$work/plan.json" -o "$work/prev/plan.pdf" \
		--png "$work/prev/png" 2>/dev/null
	if ! wait_stopped "$pid"; then
		say "SIG$sig: the run never reached before-rename"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		continue
	fi
	staged=$(find "$work/prev" -name '*.tmp.*' | wc -l)
	[ "$staged" -eq 31 ] || say "SIG$sig: $staged files staged, want 31 (the PDF and 30 PNGs)"
	kill -"$sig" "$pid"
	kill -CONT "$pid"
	wait "$pid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" = "$want" ] || say "SIG$sig: exit $rc, want $want (death by the signal)"
	intact "SIG$sig"
done

# plan -o FILE --report, stopped with the JSON and the report staged
echo previous >"$work/p3.json"
start_stopped before-rename "$gp" plan $small --format json -o "$work/p3.json" \
	--report "$work/prev/plan.pdf" 2>/dev/null >/dev/null
if wait_stopped "$pid"; then
	[ -n "$(find "$work" -maxdepth 1 -name 'p3.json.tmp.*')" ] ||
		say "plan --report: the plan's JSON was not staged with the report"
	kill -TERM "$pid"
	kill -CONT "$pid"
	wait "$pid"
	[ "$(cat "$work/p3.json")" = previous ] || say "plan --report: the previous plan changed"
	intact "plan --report, SIGTERM"
else
	say "plan --report: the run never reached before-rename"
	kill -KILL "$pid" 2>/dev/null
fi

exit $fail
