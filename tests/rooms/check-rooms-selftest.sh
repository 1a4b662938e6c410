#!/bin/bash
# The room checker against small trees made here, so that it is known to
# fail on what it is meant to catch (ctest rooms.selftest):
#   1. a clean tree passes;
#   2. an include running up a floor is named with its file and line;
#   3. two modules that only call each other (no include shows it) are a loop;
#   4. a loop through includes inside one room;
#   5. a file over 1,200 lines; 6. a room the floors do not list.
#
#   tests/rooms/check-rooms-selftest.sh [CC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=${1:-cc}
work=$(mktemp -d /tmp/gpuplan-rooms-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0

# tree NAME: a fresh src/ with floors top/ over low/
tree() {
	rm -rf "$work/$1"
	mkdir -p "$work/$1/src/top" "$work/$1/src/low" "$work/$1/obj"
	printf '# rooms\n\n## Floors\n\n```\ntop/  uses low\nlow/  the bottom\n```\n' >"$work/$1/src/README.md"
	printf '#include "low/b.h"\nint a(void) { return b(); }\n' >"$work/$1/src/top/a.c"
	printf 'int a(void);\n' >"$work/$1/src/top/a.h"
	printf '#include "b.h"\nint b(void) { return 1; }\n' >"$work/$1/src/low/b.c"
	printf 'int b(void);\n' >"$work/$1/src/low/b.h"
}
# objects NAME: compile every .c of the tree into obj/, mirroring src/
objects() {
	(cd "$work/$1/src" && find . -name '*.c') | while IFS= read -r c; do
		mkdir -p "$work/$1/obj/$(dirname "$c")"
		"$cc" -c -I "$work/$1/src" "$work/$1/src/$c" -o "$work/$1/obj/$c.o"
	done
}
# expect NAME STATUS TEXT: the checker's status and a line of its output
expect() {
	local out rc=0
	out=$(bash "$here/check-rooms.sh" "$work/$1/src" "$work/$1/obj" 2>&1) || rc=$?
	if [ "$rc" != "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
		echo "FAIL $1: expected status $2 and '$3', got status $rc:"
		echo "$out" | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "ok   $1: $(head -1 <<<"$out")"
	fi
}

tree clean; objects clean
expect clean 0 "no loop, no upward use"

tree upward; printf '#include "top/a.h"\nint b(void) { return 1; }\n' >"$work/upward/src/low/b.c"
expect upward 1 "src/low/b uses src/top/a (#include \"top/a.h\" at low/b.c:1): low/ is below top/ in the floors"

tree calls
printf 'int c(void);\nint d(void) { return c(); }\n' >"$work/calls/src/low/d.c"
printf 'int d(void);\nint c(void) { return d() + 1; }\n' >"$work/calls/src/low/c.c"
objects calls
expect calls 1 "src/low/c -> src/low/d (refers to d)"

tree includes
printf '#include "f.h"\n' >"$work/includes/src/low/e.h"
printf '#include "e.h"\n' >"$work/includes/src/low/f.h"
expect includes 1 "src/low/e -> src/low/f (#include \"f.h\" at low/e.h:1)"

tree long; for i in $(seq 1201); do echo "/* $i */"; done >"$work/long/src/low/long.c"
expect long 1 "src/low/long.c: 1201 lines, over 1200"

tree unlisted; mkdir -p "$work/unlisted/src/side"
printf '#include "low/b.h"\n' >"$work/unlisted/src/side/s.c"
expect unlisted 1 "src/side/: a room the floors do not list"

[ "$fails" = 0 ] || { echo "$fails case(s) failed"; exit 1; }
echo "all cases passed"
