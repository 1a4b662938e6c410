/*
 * exec.c - one run of a user's command; see exec.h.
 */
#define _GNU_SOURCE
#include "run/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "run/backlog.h"

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

/*
 * What the signal handlers reach while a command runs: the write end of
 * the pipe that wakes the loop's poll(), the signals received to be
 * passed on, and the moment the command exited (its SIGCHLD: gpuplan has
 * no other child meanwhile), taken in the handler so that matching in
 * progress then does not add to the command's time.  A handler can reach
 * nothing else; all are set only inside exec_run, with the handlers
 * installed for that run alone.
 */
static int wake_fd = -1;
static volatile sig_atomic_t last_signal, signals_seen, exit_stamped;
static struct timespec exit_stamp;

static void on_signal(int sig)
{
	int saved = errno;
	if (sig == SIGCHLD && !exit_stamped) {
		clock_gettime(CLOCK_MONOTONIC, &exit_stamp);
		exit_stamped = 1;
	} else if (sig != SIGCHLD) {
		last_signal = sig;
		signals_seen = signals_seen + 1;
	}
	char b = 0;
	ssize_t w = write(wake_fd, &b, 1);	/* full pipe: already awake */
	(void)w;
	errno = saved;
}

/* SIGCHLD ends the wait for the command's exit; the others are passed on
 * to its group.  A signal gpuplan was started ignoring stays ignored. */
static const int handled[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};
#define N_HANDLED (sizeof(handled) / sizeof(handled[0]))

struct handlers {
	struct sigaction old[N_HANDLED];
	bool set[N_HANDLED];
};

static void handlers_install(struct handlers *h)
{
	for (size_t i = 0; i < N_HANDLED; i++) {
		h->set[i] = false;
		if (sigaction(handled[i], NULL, &h->old[i]) != 0 ||
		    (handled[i] != SIGCHLD && h->old[i].sa_handler == SIG_IGN))
			continue;
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = handled[i] == SIGCHLD ? SA_NOCLDSTOP : 0;
		sigemptyset(&sa.sa_mask);
		h->set[i] = sigaction(handled[i], &sa, NULL) == 0;
	}
}

static void handlers_restore(const struct handlers *h)
{
	for (size_t i = 0; i < N_HANDLED; i++)
		if (h->set[i])
			sigaction(handled[i], &h->old[i], NULL);
}

/* In the child, before exec: every signal's default action (those that
 * nohup or a background job asked to ignore excepted) and nothing
 * blocked, as the command would start without gpuplan. */
static void default_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction old;
		if (sig == SIGKILL || sig == SIGSTOP ||
		    sigaction(sig, NULL, &old) != 0)
			continue;
		bool asked_ignored = old.sa_handler == SIG_IGN &&
			(sig == SIGHUP || sig == SIGINT || sig == SIGQUIT);
		if (!asked_ignored)
			signal(sig, SIG_DFL);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In the child: a process group of its own, default signals, stdin from
 * /dev/null, stdout and stderr to the pipes, then the command; an execvp
 * failure goes back through the CLOEXEC pipe as its errno. */
static void child(char *const argv[], int out, int err, int report)
{
	setpgid(0, 0);
	default_signals();
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

/* One run's reading side. */
struct run_io {
	int fd[2];		/* stdout, stderr read ends; -1 once closed */
	int wake;		/* the self-pipe's read end */
	struct capture *cap;	/* NULL: output dropped */
	struct backlog waiting;	/* read, not yet fed to cap */
	struct exec_result *r;
	pid_t pid;		/* the command, leader of its group */
	sig_atomic_t passed_on;	/* signals passed on so far */
};

/* One read of stream i; true when bytes came.  End of file or an error
 * closes it. */
static bool read_stream(struct run_io *io, int i)
{
	char buf[65536];
	ssize_t n = read(io->fd[i], buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	if (n <= 0) {
		close(io->fd[i]);
		io->fd[i] = -1;
		if (io->cap)
			backlog_end(&io->waiting, (enum capture_stream)i);
		return false;
	}
	if (io->cap)
		backlog_add(&io->waiting, (enum capture_stream)i, buf, (size_t)n);
	if (i == 1)
		tail(io->r->stderr_tail, buf, (size_t)n);
	return true;
}

/* Waits up to timeout_ms (-1: no limit) for output or a signal, and reads
 * what came; true when output was read. */
static bool poll_read(struct run_io *io, int timeout_ms)
{
	struct pollfd p[3] = {{io->fd[0], POLLIN, 0}, {io->fd[1], POLLIN, 0},
			      {io->wake, POLLIN, 0}};
	if (poll(p, 3, timeout_ms) <= 0)
		return false;	/* a timeout, or EINTR: the caller looks again */
	if (p[2].revents) {
		char b[64];
		while (read(io->wake, b, sizeof(b)) > 0)
			;
	}
	bool got = false;
	for (int i = 0; i < 2; i++)
		if (io->fd[i] >= 0 && p[i].revents)
			got |= read_stream(io, i);
	return got;
}

/* poll_read, with the matching fitted in: while output waits to be
 * matched it does not wait, and matches a slice when the pipes are quiet;
 * past BACKLOG_MAX waiting, it matches before it reads. */
static bool poll_once(struct run_io *io, int timeout_ms)
{
	if (io->cap && backlog_waiting(&io->waiting) > BACKLOG_MAX) {
		backlog_step(&io->waiting, io->cap);
		return false;
	}
	bool behind = io->cap && !backlog_empty(&io->waiting);
	bool got = poll_read(io, behind ? 0 : timeout_ms);
	if (!got && behind)
		backlog_step(&io->waiting, io->cap);
	return got;
}

/* Passes signals gpuplan received on to the command's group: the first as
 * it came, any later one as SIGKILL (asked twice to stop, gpuplan does
 * not wait on a command that ignores the first). */
static void pass_on_signals(struct run_io *io)
{
	sig_atomic_t seen = signals_seen;
	if (seen == io->passed_on)
		return;
	int sig = last_signal;
	if (!io->r->interrupted)
		io->r->interrupted = sig;
	kill(-io->pid, io->passed_on ? SIGKILL : sig);
	io->passed_on = seen;
}

/* Reads the output until the command itself exits, and reaps it.  An
 * unexpected ECHILD (something else reaped it) leaves *status as it was. */
static void wait_for_exit(struct run_io *io, int *status)
{
	for (;;) {
		pass_on_signals(io);
		pid_t w = waitpid(io->pid, status, WNOHANG);
		if (w == io->pid || (w < 0 && errno != EINTR))
			return;
		poll_once(io, -1);
	}
}

/* After the exit: reads on while output keeps coming, and stops at end
 * of file, EXEC_DRAIN_IDLE_MS after the last byte or EXEC_DRAIN_MAX_MS
 * after the exit (exit_t), saying so in r->output_held.  Time spent
 * matching a full backlog is neither silence nor reading: both limits
 * wait for it, so what the command left in the pipe is always read. */
static void drain_after_exit(struct run_io *io, double exit_t)
{
	double last = exit_t;
	while ((io->fd[0] >= 0 || io->fd[1] >= 0) && !io->r->interrupted) {
		double t = now_s();
		if (io->cap && backlog_waiting(&io->waiting) > BACKLOG_MAX) {
			backlog_step(&io->waiting, io->cap);
			double spent = now_s() - t;
			last += spent;
			exit_t += spent;
			continue;
		}
		double idle = last + EXEC_DRAIN_IDLE_MS / 1e3 - t;
		double most = exit_t + EXEC_DRAIN_MAX_MS / 1e3 - t;
		double left = idle < most ? idle : most;
		if (left <= 0) {
			io->r->output_held = true;
			break;
		}
		if (poll_once(io, (int)(left * 1e3) + 1))
			last = now_s();
		pass_on_signals(io);	/* to what is left of the group */
	}
	for (int i = 0; i < 2; i++)
		if (io->fd[i] >= 0)
			close(io->fd[i]);
}

/* A burst of output (a log printed at exit) fits in a larger pipe
 * without the command waiting for gpuplan to read it; best effort (the
 * system's pipe-max-size may refuse). */
static void widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Forks the child with every signal blocked, so that no handler of
 * gpuplan's runs in it before default_signals(). */
static pid_t start_child(char *const argv[], const int *p)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t pid = fork();
	if (pid == 0)
		child(argv, p[1], p[3], p[5]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid > 0)
		setpgid(pid, pid);	/* as the child does: no race on kill */
	return pid;
}

static void read_status(struct exec_result *r, int status, int report,
			const char *cmd)
{
	int e = 0;
	if (read(report, &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		r->exec_failed = true;
		r->exec_errno = e;
		snprintf(r->stderr_tail, sizeof(r->stderr_tail), "%s: %s", cmd,
			 strerror(e));
	}
	r->signaled = WIFSIGNALED(status);
	r->signal = r->signaled ? WTERMSIG(status) : 0;
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

int exec_run(char *const argv[], struct capture *cap, struct exec_result *r,
	     char *why, size_t len)
{
	memset(r, 0, sizeof(*r));
	/* out, err, report, wake: read end, write end */
	int p[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
	if (pipe2(p, O_CLOEXEC) || pipe2(p + 2, O_CLOEXEC) ||
	    pipe2(p + 4, O_CLOEXEC) || pipe2(p + 6, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		close_all(p, 8);
		return -1;
	}
	widen_pipe(p[0]);
	widen_pipe(p[2]);
	wake_fd = p[7];
	last_signal = signals_seen = exit_stamped = 0;
	struct handlers h;
	handlers_install(&h);
	double t0 = now_s();
	pid_t pid = start_child(argv, p);
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		handlers_restore(&h);
		close_all(p, 8);
		return -1;
	}
	close(p[1]);
	close(p[3]);
	close(p[5]);
	struct run_io io = {{p[0], p[2]}, p[6], cap, {0}, r, pid, 0};
	backlog_init(&io.waiting);
	int status = 255 << 8;	/* exit 255, should the reaping fail */
	wait_for_exit(&io, &status);
	double exited = now_s();
	if (exit_stamped)
		exited = (double)exit_stamp.tv_sec + 1e-9 * (double)exit_stamp.tv_nsec;
	r->wall_s = exited - t0;
	drain_after_exit(&io, exited);
	handlers_restore(&h);
	wake_fd = -1;
	close(p[6]);
	close(p[7]);
	if (cap) {
		backlog_flush(&io.waiting, cap);
		capture_end(cap);
	}
	backlog_free(&io.waiting);
	read_status(r, status, p[4], argv[0]);
	close(p[4]);
	return 0;
}

bool exec_failed(const struct exec_result *r)
{
	return r->exec_failed || r->signaled || r->exit_code != 0;
}
