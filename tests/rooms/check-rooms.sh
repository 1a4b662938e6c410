#!/bin/bash
# The shape of src/, checked (issue 25): every room (a folder under src/)
# uses only rooms below it, no modules use each other in a loop, and no
# file is over 1,200 lines.
#
#   tests/rooms/check-rooms.sh SRC_DIR [OBJECT_DIR...]
#
# The floors are read from SRC_DIR/README.md: the lines of the first fenced
# block after the heading "## Floors", one room a line, top floor first,
# each line starting with the room's folder and a slash ("plan/  the
# planner ..."); a room may use any room listed after it, never one before.
#
# A module is a .c file and the .h of the same name (a header alone is a
# module too).  Module A uses module B when a file of A includes a file of
# B (#include "...", resolved against the including file's folder, then
# SRC_DIR), or when an object file of A (OBJECT_DIR/.../A.c.o, found with
# nm) refers to a symbol an object of B defines: so a loop made of calls
# alone, which no include shows, is caught too.  Objects whose source no
# longer exists (left in a build folder by a move) are passed over.
#
# Prints every problem (an upward use with the include or symbol behind it,
# one loop per strongly tied group with its path, each long file) and exits
# 1 when there is any; else a one-line summary, exit 0.
set -eu
src=${1:?usage: check-rooms.sh SRC_DIR [OBJECT_DIR...]}
shift
max_lines=1200
work=$(mktemp -d /tmp/gpuplan-rooms.XXXXXX)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# ---- the floors ----------------------------------------------------------
awk '/^## Floors/ {h = 1; next}
     h && /^```/ {if (b) exit; b = 1; next}
     b && /^[a-z0-9_]+\// {sub(/\/.*/, ""); print}' "$src/README.md" >"$work/floors"
if [ ! -s "$work/floors" ]; then
	echo "$src/README.md: no floors found (a fenced block under '## Floors', one 'room/ ...' a line)" >&2
	exit 1
fi

# ---- files, their rooms and lengths --------------------------------------
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) |
	sed 's|^\./||' | LC_ALL=C sort) >"$work/files"

# ---- uses by include: "from_module to_module why" ------------------------
(cd "$src" && xargs awk '
	FNR == 1 { f = FILENAME; n[f] = 0 }
	{ n[f] = FNR }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		t = $0; sub(/^[^"]*"/, "", t); sub(/".*/, "", t)
		print "I", f, t, FNR
	}
	END { for (f in n) print "L", f, n[f] }' <"$work/files") >"$work/scan"
awk '$1 == "I" {print $2, $3, $4}' "$work/scan" >"$work/includes.raw"
awk '$1 == "L" {print $2, $3}' "$work/scan" | LC_ALL=C sort >"$work/lengths"
# Resolve each include: against the includer's folder first, then src/.
awk -v files="$work/files" '
function norm(p,   n, a, i, out, k) {
	n = split(p, a, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (a[i] == "" || a[i] == ".") continue
		if (a[i] == "..") { if (k > 0) k--; continue }
		out[++k] = a[i]
	}
	p = ""
	for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
	return p
}
function module(p) { sub(/\.(c|h|cu)$/, "", p); return p }
BEGIN { while ((getline l < files) > 0) have[l] = 1 }
{
	dir = $1; if (dir ~ /\//) sub(/\/[^\/]*$/, "", dir); else dir = ""
	c1 = norm(dir "/" $2); c2 = norm($2)
	t = (c1 in have) ? c1 : (c2 in have) ? c2 : ""
	if (t != "" && module($1) != module(t))
		print module($1), module(t), "#include \"" $2 "\" at " $1 ":" $3
}' "$work/includes.raw" >"$work/uses"

# ---- uses by symbol, from the objects ------------------------------------
for objdir in "$@"; do
	[ -d "$objdir" ] || continue
	(cd "$objdir" && find . -name '*.c.o' | sed 's|^\./||' | LC_ALL=C sort) |
	while IFS= read -r rel; do
		# a stale object (its source moved away) is passed over
		[ -f "$src/${rel%.o}" ] && echo "$rel"
	done >"$work/objects"
	[ -s "$work/objects" ] || continue
	# nm -A: "OBJECT:ADDRESS TYPE NAME", or "OBJECT: U NAME" (no address)
	(cd "$objdir" && xargs nm -A <"$work/objects") | awk '
		{ m = $1; sub(/:.*/, "", m); sub(/\.c\.o$/, "", m) }
		$(NF - 1) == "U" {print "U", m, $NF; next}
		$(NF - 1) ~ /^[TDBRCGSVW]$/ {print "D", m, $NF}'
done >"$work/symbols"
awk '$1 == "D" {def[$3] = $2; next}
     {und[NR] = $2 " " $3}
     END {for (i in und) {split(und[i], p, " ")
		if ((p[2] in def) && def[p[2]] != p[1])
			print p[1], def[p[2]], "refers to " p[2]}}' "$work/symbols" |
	LC_ALL=C sort >>"$work/uses"

# ---- the checks ----------------------------------------------------------
status=0
# Long files.
awk -v max="$max_lines" '$2 > max {
	print "src/" $1 ": " $2 " lines, over " max ": split it where its ideas part"; bad = 1
} END { exit bad }' "$work/lengths" || status=1

# Rooms: known, and used only downward.
awk -v floors="$work/floors" '
function room(m) { sub(/\/.*/, "", m); return m }
BEGIN { while ((getline l < floors) > 0) rank[l] = ++n }
{
	a = room($1); b = room($2)
	if (!(a in rank) && !(a in told)) { print "src/" a "/: a room the floors do not list"; told[a] = 1; bad = 1 }
	if (!(b in rank) && !(b in told)) { print "src/" b "/: a room the floors do not list"; told[b] = 1; bad = 1 }
	if ((a in rank) && (b in rank) && rank[b] < rank[a] && !(($1, $2) in said)) {
		said[$1, $2] = 1
		w = $0; sub(/^[^ ]* [^ ]* /, "", w)
		print "src/" $1 " uses src/" $2 " (" w "): " a "/ is below " b "/ in the floors"
		bad = 1
	}
}
END { exit bad }' "$work/uses" || status=1

# Loops: peel modules that use nothing left; what stays is on a loop or
# leads into one.  Among those, the modules that reach each other form a
# loop; each loop is said once, as its shortest path from its first module
# (by name) back to itself, so the message is the same every run.
awk '
function reach(s,   q, h, t, x, n, a, i) {	# seen[] <- modules s reaches
	delete seen; delete from
	h = 1; t = 0; q[++t] = s
	while (h <= t) {
		x = q[h++]; n = split(adj[x], a, " ")
		for (i = 1; i <= n; i++)
			if ((a[i] in left) && !(a[i] in seen)) { seen[a[i]] = 1; from[a[i]] = x; q[++t] = a[i] }
	}
}
{ if ($1 != $2 && !(($1, $2) in e)) { e[$1, $2] = 1; adj[$1] = adj[$1] " " $2 }
  node[$1] = 1; node[$2] = 1
  if (!(($1, $2) in why)) { w = $0; sub(/^[^ ]* [^ ]* /, "", w); why[$1, $2] = w } }
END {
	for (v in node) left[v] = 1
	do {
		changed = 0
		for (v in left) {
			k = 0; n = split(adj[v], a, " ")
			for (i = 1; i <= n; i++) if (a[i] in left) k++
			if (k == 0) { delete left[v]; changed = 1 }
		}
	} while (changed)
	nl = 0
	for (v in left) order[++nl] = v
	for (i = 2; i <= nl; i++) { x = order[i]; for (j = i - 1; j >= 1 && order[j] > x; j--) order[j + 1] = order[j]; order[j + 1] = x }
	for (s = 1; s <= nl; s++) {
		v = order[s]
		if (v in said) continue
		reach(v)
		if (!(v in seen)) continue	# leads into a loop, is on none
		for (u in seen) reached[u] = 1
		# the loop v lies on: what v reaches and what reaches v
		tied = 0; members = ""
		for (u in reached) { reach(u); if (v in seen) { said[u] = 1; tied++ } }
		delete reached
		reach(v)	# again, for the path back to v (from[] is a BFS tree)
		n = 0; x = v
		do { path[++n] = x; x = from[x] } while (x != v)
		# path[] runs backward: v, the module before v, ..., the one after v
		seq[1] = v
		for (i = 2; i <= n; i++) seq[i] = path[n + 2 - i]
		line = ""
		for (i = 1; i <= n; i++) {
			nxt = (i < n) ? seq[i + 1] : v
			line = line "\n  src/" seq[i] " -> src/" nxt " (" why[seq[i], nxt] ")"
		}
		if (tied > n)
			line = line "\n  (" tied " modules reach each other; the shortest loop through src/" v " is shown)"
		print "a loop of modules:" line
		bad = 1
	}
	exit bad
}' "$work/uses" || status=1

if [ "$status" = 0 ]; then
	echo "rooms: $(wc -l <"$work/floors") floors, $(wc -l <"$work/files") files," \
		"$(cut -d' ' -f1,2 "$work/uses" | LC_ALL=C sort -u | wc -l) uses between modules;" \
		"no loop, no upward use, no file over $max_lines lines"
fi
exit "$status"
