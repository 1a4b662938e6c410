# Shared by the fault scripts here (sourced after setting $name): the
# program, a scratch folder removed at the end with every process the
# script recorded as started (so a failing run leaves nothing behind),
# and the checks they share.
#
#   SCRIPT GPUPLAN        (run from the source root)
set -u
gpuplan=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$(mktemp -d /tmp/gpuplan-faults.XXXXXX)
fail=0
exec 3>&2	# messages, also from inside quieted loops
say() { echo "$name: $*" >&3; fail=1; }

# Processes the commands under test write their pids to $scratch/*.pid
# (one a line); whatever is left of them at the end is killed.  They are
# started with fd 3 closed (3>&-), so that none holds ctest's pipe open.
cleanup() {
	local p
	for f in "$scratch"/*.pid; do
		[ -e "$f" ] || continue
		while read -r p; do kill -9 "$p" 2>/dev/null; done <"$f"
	done
	rm -rf "$scratch"
}
trap cleanup EXIT

# alive PID: the process exists and is not a zombie (a killed orphan may
# wait a while for a reaper that never comes in a container).
alive() {
	local state
	state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# wait_file PATH: until PATH holds something, at most 20 s.
wait_file() {
	for _ in $(seq 200); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_gone PID SECONDS: until PID is gone (or a zombie).
wait_gone() {
	for _ in $(seq $(($2 * 10))); do
		alive "$1" || return 0
		sleep 0.1
	done
	return 1
}

# no_temps WHAT: no temporary file anywhere under the scratch folder.
no_temps() {
	local left
	left=$(find "$scratch" -name '*.tmp.*' | head -3)
	[ -z "$left" ] || say "$1: temporary files left: $left"
}

# wall_of FILE: the first run's wall_time_s in a run record.
wall_of() {
	sed -n 's/^    wall_time_s: //p' "$1" | head -1
}
