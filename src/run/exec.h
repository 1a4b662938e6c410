/*
 * exec.h - runs a user's command once, as given (fork + execvp, no
 * shell), and gathers what `gpuplan run` records of it: the wall time on
 * CLOCK_MONOTONIC, the exit status or the signal that ended it, its
 * output fed to a capture (capture.h: stdout and stderr kept apart) and
 * the tail of its stderr (for a failing run).
 *
 * The time is the command's own: from fork to the moment the command
 * itself exits (a SIGCHLD wakes the loop; waitpid reaps it), whatever its
 * children do.  A process it started in the background may hold the pipes
 * open long after (`sh -c 'sleep 8 & echo started'`), or for ever: once
 * the command has exited, reading goes on only while output keeps coming,
 * and stops EXEC_DRAIN_IDLE_MS after the last byte or EXEC_DRAIN_MAX_MS
 * after the exit, whichever is first; the result then says the output was
 * held open.  Both pipes are read with poll(), so a command that fills one
 * while the other is read never deadlocks.  Standard input is /dev/null: a
 * command run N times cannot read the same input N times.
 *
 * The command runs in a process group of its own, with every signal's
 * default action and an empty signal mask (gpuplan ignores SIGXFSZ for
 * its own writes; the command must not inherit that), except that SIGHUP,
 * SIGINT and SIGQUIT stay ignored when gpuplan itself was started with
 * them ignored (nohup, a shell's background job), as the command would
 * have been without gpuplan.  During a run, SIGINT, SIGTERM and SIGHUP to
 * gpuplan are passed on to the command's group (a terminal's Ctrl-C
 * reaches only gpuplan's group), a second one as SIGKILL; gpuplan then
 * waits for the command to end and returns with `interrupted` set, for
 * the caller to write nothing and die of that signal.  The handlers this
 * needs are installed only for the run and the previous ones put back.
 *
 * Ownership: exec_result holds no pointers.
 */
#ifndef GPUPLAN_RUN_EXEC_H
#define GPUPLAN_RUN_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "run/capture.h"

#define EXEC_TAIL_BYTES 2048	/* stderr kept for a failing run */
#define EXEC_DRAIN_IDLE_MS 150	/* silence after the exit that ends reading */
#define EXEC_DRAIN_MAX_MS 1000	/* the most reading goes on after the exit */

struct exec_result {
	double wall_s;		/* fork to the command's exit, CLOCK_MONOTONIC seconds */
	int exit_code;		/* when !signaled */
	int signal;		/* when signaled */
	bool signaled;
	bool exec_failed;	/* execvp itself failed: errno in exec_errno */
	int exec_errno;
	bool output_held;	/* a process the command started kept its
				 * stdout or stderr open after the command
				 * exited: reading stopped (see above) */
	int interrupted;	/* the signal gpuplan got during the run and
				 * passed on to the command's group; 0: none */
	char stderr_tail[EXEC_TAIL_BYTES + 1];
};

/*
 * True when argv[0] names something execvp could run: a path with a '/'
 * that is an executable file, or a name found as one in $PATH.  Otherwise
 * false, with why ("command not found", "Permission denied").
 */
bool exec_findable(const char *cmd, char *why, size_t len);

/* Runs argv (NULL-terminated) once, feeding its output to cap (NULL: read
 * and dropped) and closing cap's streams at the end.  Returns 0 with r
 * filled, or -1 when the command could not be started at all (pipe or
 * fork failed: why). */
int exec_run(char *const argv[], struct capture *cap, struct exec_result *r,
	     char *why, size_t len);

/* true when the run did not end with exit status 0 */
bool exec_failed(const struct exec_result *r);

#endif
