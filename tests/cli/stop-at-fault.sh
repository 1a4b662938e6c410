# Shared by the fault scripts (sourced): start gpuplan so that it stops
# itself at a fault point, and wait for that.
#
#   start_stopped POINT CMD...   runs CMD in the background with
#                                GPUPLAN_FAULT=POINT and $STOP_THREADS
#                                threads (default 1); its pid in $pid
#   wait_stopped PID             until PID has stopped itself (state T), at
#                                most a minute; false if it never does
#
# bash starts background jobs with SIGINT and SIGQUIT ignored, and gpuplan
# rightly keeps an ignored signal ignored (nohup): perl (essential on
# Debian) restores the defaults first.  With one thread, a signal sent
# while stopped is taken as the process resumes, before any rename; with
# more, another thread may take it once the renames began, and it then
# waits for them (io_guard.h).
start_stopped() {
	local point=$1
	shift
	GPUPLAN_FAULT=$point OMP_NUM_THREADS=${STOP_THREADS:-1} \
		OPENBLAS_NUM_THREADS=${STOP_THREADS:-1} \
		perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV' "$@" &
	pid=$!
}

wait_stopped() {
	for _ in $(seq 600); do
		[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = T ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
