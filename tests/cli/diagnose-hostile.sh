#!/bin/bash
# `gpuplan diagnose` on hostile logs (issue 28):
#  1. a log whose uuid and name fields hold control bytes, terminal escape
#     sequences, C1 controls, a bidirectional override, bytes that are not
#     UTF-8 and each format's own special characters
#     (tests/cli/data/diagnose/control-bytes.csv): no output (table, JSON,
#     Markdown, Prometheus) holds a control byte other than a line end, all
#     are UTF-8, Markdown's '|' is escaped outside its tables, and the
#     Prometheus text passes a checker of the exposition format (below) and
#     promtool where it is installed;
#  2. a 15 MB log of 5,000,000 samples (utilisation alone, 3 bytes a line)
#     is diagnosed within 512 MB of address space (it took 1.1 GB when a
#     sample cost 200 bytes);
#  3. the timeline (--report) of a long log is drawn from a bounded number
#     of points.
#   diagnose-hostile.sh GPUPLAN        (run from the source root)
set -u
gpuplan=$1
log=tests/cli/data/diagnose/control-bytes.csv
dir=$(mktemp -d /tmp/gpuplan-diag-hostile.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "diagnose-hostile: $*" >&2; fail=1; }

for fmt in table json markdown; do
	"$gpuplan" diagnose "$log" --format $fmt -o "$dir/out.$fmt" --prom "$dir/out.prom" ||
		bad "--format $fmt exited $?"
	"$gpuplan" diagnose "$log" --format $fmt >"$dir/stdout.$fmt" ||
		bad "--format $fmt to stdout exited $?"
done

# Every output: UTF-8, no C0 control but the line end, no DEL, no C1, no
# bidirectional override.
python3 - "$dir"/out.* "$dir"/stdout.* <<'EOF' || fail=1
import re, sys
bad = re.compile("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
ok = True
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print(f"diagnose-hostile: {path}: not UTF-8: {e}", file=sys.stderr); ok = False; continue
    m = bad.search(text)
    if m:
        print(f"diagnose-hostile: {path}: holds U+{ord(m.group()):04X} at {m.start()}", file=sys.stderr); ok = False
    if path.endswith(".markdown"):
        # outside a table's rows, a '|' is text: it must be escaped
        for line in text.splitlines():
            if not line.startswith("|") and re.search(r"(?<!\\)\|", line):
                print(f"diagnose-hostile: {path}: unescaped '|' in: {line}", file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
EOF

# The Prometheus text exposition format (0.0.4), as promtool parses it:
# HELP and TYPE once per family, before its samples; the samples of a
# family together; names [a-zA-Z_:][a-zA-Z0-9_:]*; label values in double
# quotes escaping only \\, \" and \n; HELP escaping only \\ and \n; a value
# a float, NaN or +-Inf.
python3 - "$dir/out.prom" <<'EOF' || fail=1
import re, sys
name = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
sample = re.compile(rf"^({name})(?:\{{{label}(?:,{label})*\}})? (\S+)$")
help_ = re.compile(rf"^# HELP ({name}) (?:[^\\\n]|\\[\\n])*$")
type_ = re.compile(rf"^# TYPE ({name}) (counter|gauge|histogram|summary|untyped)$")
ok, seen, typed, current = True, set(), set(), None
def fail(n, why, line):
    global ok
    print(f"diagnose-hostile: out.prom:{n}: {why}: {line!r}", file=sys.stderr); ok = False
try:
    data = open(sys.argv[1], "rb").read().decode("utf-8")
except UnicodeDecodeError as e:
    fail(0, "not UTF-8", str(e)); sys.exit(1)
if not data.endswith("\n"):
    fail(0, "no line end at the end", data[-40:])
for n, line in enumerate(data.split("\n")[:-1], 1):
    if line.startswith("# HELP"):
        m = help_.match(line)
        if not m: fail(n, "bad HELP", line); continue
        if m.group(1) in seen: fail(n, "HELP after its samples or twice", line)
    elif line.startswith("# TYPE"):
        m = type_.match(line)
        if not m: fail(n, "bad TYPE", line); continue
        if m.group(1) in typed or m.group(1) in seen: fail(n, "TYPE twice or after samples", line)
        typed.add(m.group(1))
    else:
        m = sample.match(line)
        if not m: fail(n, "not a sample", line); continue
        metric, value = m.group(1), m.group(2)
        if metric != current and metric in seen: fail(n, "family not contiguous", line)
        if metric not in typed: fail(n, "sample before its TYPE", line)
        seen.add(metric); current = metric
        try:
            float(value)
        except ValueError:
            fail(n, "value is not a number", line)
if not seen:
    fail(0, "no samples", "")
sys.exit(0 if ok else 1)
EOF
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <"$dir/out.prom" 2>&1) || bad "promtool: $out"
fi

# 2. 5,000,000 samples in 512 MB of address space.  Skipped under a
# sanitizer, which maps terabytes of shadow memory up front.
# (gcc links the runtime as libasan.so; clang into the program itself)
if { ldd "$gpuplan"; nm "$gpuplan"; } 2>/dev/null | grep -q -e libasan -e __asan_init; then
	echo "diagnose-hostile: sanitizer build: the memory bound is not checked" >&2
else
	(ulimit -v 524288
	 yes 95 | head -n 5000000 |
		"$gpuplan" diagnose - --query utilization.gpu --interval 1s \
			--format json -o "$dir/big.json") ||
		bad "a 15 MB log of 5,000,000 samples did not fit in 512 MB (exit $?)"
	grep -q '"samples": 5000000' "$dir/big.json" 2>/dev/null ||
		bad "the 15 MB log: not 5,000,000 samples read"
fi
# 3. The timeline of a 200,000-sample log draws at most 4,000 points a
# line (each run of samples as its lowest and highest reading): its SVG
# stays small (1.2 MB; one point a sample made it 51 MB, and a day at 100 ms took
# minutes to draw).
python3 -c '
import sys
w = sys.stdout.write
w("timestamp, utilization.gpu [%], temperature.gpu\n")
for s in range(200000):
    w("2026/11/%02d %02d:%02d:%02d.000, %d %%, %d\n" % (1 + s // 86400, s // 3600 % 24,
      s // 60 % 60, s % 60, 10 if s % 10 == 0 else 95, 60 + s % 7))
' >"$dir/long.csv"
"$gpuplan" diagnose "$dir/long.csv" -o /dev/null --report "$dir/long.svg" ||
	bad "the timeline of a 200,000-sample log exited $?"
size=$(stat -c %s "$dir/long.svg" 2>/dev/null || echo 0)
[ "$size" -gt 10000 ] && [ "$size" -lt 5000000 ] ||
	bad "the timeline of a 200,000-sample log is $size bytes of SVG (want under 5,000,000)"
exit $fail
