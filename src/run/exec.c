/*
 * exec.c - one run of a user's command; see exec.h.
 */
#define _GNU_SOURCE
#include "run/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"

static bool is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

bool exec_findable(const char *cmd, char *why, size_t len)
{
	if (!cmd[0]) {
		snprintf(why, len, "command not found");
		return false;
	}
	if (strchr(cmd, '/')) {
		if (is_executable_file(cmd))
			return true;
		snprintf(why, len, "%s", access(cmd, F_OK) == 0
			 ? "not an executable file" : "command not found");
		return false;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path);
	bool found = false;
	for (char *save = NULL, *dir = strtok_r(copy, ":", &save);
	     dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *full = NULL;
		if (asprintf(&full, "%s/%s", dir[0] ? dir : ".", cmd) < 0)
			break;
		found = is_executable_file(full);
		free(full);
	}
	free(copy);
	if (!found)
		snprintf(why, len, "command not found");
	return found;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* In the child: stdin from /dev/null, stdout and stderr to the pipes,
 * then the command; an execvp failure goes back through the CLOEXEC
 * pipe as its errno. */
static void child(char *const argv[], int out, int err, int report)
{
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	execvp(argv[0], argv);
	int e = errno;
	ssize_t w = write(report, &e, sizeof(e));
	(void)w;
	_exit(127);
}

/* Appends n bytes to the kept output; past EXEC_KEEP_BYTES the oldest
 * bytes go, down to half of it, so a long log costs one move a half. */
static void keep(struct exec_result *r, size_t *cap, const char *b, size_t n)
{
	const size_t half = EXEC_KEEP_BYTES / 2;
	if (r->output_len + n > EXEC_KEEP_BYTES) {
		if (n > half) {
			b += n - half;
			n = half;
			r->output_len = 0;
		} else {
			size_t drop = r->output_len + n - half;
			memmove(r->output, r->output + drop,
				r->output_len - drop);
			r->output_len -= drop;
		}
		r->output_cut = true;
	}
	if (r->output_len + n + 1 > *cap) {
		while (r->output_len + n + 1 > *cap)
			*cap = *cap ? 2 * *cap : 65536;
		r->output = xrealloc(r->output, *cap);
	}
	memcpy(r->output + r->output_len, b, n);
	r->output_len += n;
	r->output[r->output_len] = '\0';
}

static void tail(char *t, const char *b, size_t n)
{
	size_t have = strlen(t);
	if (n >= EXEC_TAIL_BYTES) {
		memcpy(t, b + n - EXEC_TAIL_BYTES, EXEC_TAIL_BYTES);
		t[EXEC_TAIL_BYTES] = '\0';
		return;
	}
	if (have + n > EXEC_TAIL_BYTES) {
		size_t drop = have + n - EXEC_TAIL_BYTES;
		memmove(t, t + drop, have - drop + 1);
		have -= drop;
	}
	memcpy(t + have, b, n);
	t[have + n] = '\0';
}

/* Reads both pipes until both are closed. */
static void drain(int out, int err, struct exec_result *r)
{
	struct pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
	size_t cap = 0;
	char buf[65536];
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			ssize_t n = read(fds[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			keep(r, &cap, buf, (size_t)n);
			if (i == 1)
				tail(r->stderr_tail, buf, (size_t)n);
		}
	}
	if (!r->output)
		r->output = xcalloc(1, 1);
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

int exec_run(char *const argv[], struct exec_result *r, char *why,
	     size_t len)
{
	memset(r, 0, sizeof(*r));
	int p[6] = {-1, -1, -1, -1, -1, -1};	/* out, err, report: read/write */
	if (pipe2(p, O_CLOEXEC) || pipe2(p + 2, O_CLOEXEC) ||
	    pipe2(p + 4, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		close_all(p, 6);
		return -1;
	}
	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		close_all(p, 6);
		return -1;
	}
	if (pid == 0)
		child(argv, p[1], p[3], p[5]);
	close(p[1]);
	close(p[3]);
	close(p[5]);
	drain(p[0], p[2], r);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r->wall_s = now_s() - t0;
	int e = 0;
	if (read(p[4], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		r->exec_failed = true;
		r->exec_errno = e;
		snprintf(r->stderr_tail, sizeof(r->stderr_tail),
			 "%s: %s", argv[0], strerror(e));
	}
	close(p[4]);
	r->signaled = WIFSIGNALED(status);
	r->signal = r->signaled ? WTERMSIG(status) : 0;
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	return 0;
}

bool exec_failed(const struct exec_result *r)
{
	return r->exec_failed || r->signaled || r->exit_code != 0;
}

void exec_result_free(struct exec_result *r)
{
	free(r->output);
	memset(r, 0, sizeof(*r));
}
