/*
 * exec.h - runs a user's command once, as given (fork + execvp, no
 * shell), and gathers what `gpuplan run` records of it: the wall time on
 * CLOCK_MONOTONIC, the exit status or the signal that ended it, all it
 * printed (stdout and stderr in the order they arrived, for the metrics'
 * regular expressions) and the tail of its stderr (for a failing run).
 *
 * Both pipes are drained with poll(), so a command that fills one while
 * the other is read never deadlocks.  Standard input is /dev/null: a
 * command run N times cannot read the same input N times.
 *
 * Ownership: exec_result owns its buffers; free with exec_result_free.
 */
#ifndef GPUPLAN_RUN_EXEC_H
#define GPUPLAN_RUN_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/* Output kept for the regular expressions: the last EXEC_KEEP_BYTES of
 * it (a training log of gigabytes keeps its end, where the figures are). */
#define EXEC_KEEP_BYTES (32u << 20)
#define EXEC_TAIL_BYTES 2048	/* stderr kept for a failing run */

struct exec_result {
	double wall_s;		/* fork to reap, CLOCK_MONOTONIC seconds */
	int exit_code;		/* when !signaled */
	int signal;		/* when signaled */
	bool signaled;
	bool exec_failed;	/* execvp itself failed: errno in exec_errno */
	int exec_errno;
	char *output;		/* stdout and stderr interleaved, NUL-ended */
	size_t output_len;
	bool output_cut;	/* the start was dropped (EXEC_KEEP_BYTES) */
	char stderr_tail[EXEC_TAIL_BYTES + 1];
};

/*
 * True when argv[0] names something execvp could run: a path with a '/'
 * that is an executable file, or a name found as one in $PATH.  Otherwise
 * false, with why ("command not found", "Permission denied").
 */
bool exec_findable(const char *cmd, char *why, size_t len);

/* Runs argv (NULL-terminated) once.  Returns 0 with r filled, or -1 when
 * the command could not be started at all (pipe or fork failed: why). */
int exec_run(char *const argv[], struct exec_result *r, char *why,
	     size_t len);

/* true when the run did not end with exit status 0 */
bool exec_failed(const struct exec_result *r);

void exec_result_free(struct exec_result *r);

#endif
