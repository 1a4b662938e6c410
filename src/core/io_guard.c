#include "io_guard.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

/* Slots are written with the guarded signals blocked, so the handler
 * never sees one half-made. */
static char *temps[IO_GUARD_MAX_TEMPS];

static struct {
	dev_t dev;
	ino_t ino;
} inputs[IO_GUARD_MAX_INPUTS];
static size_t n_inputs;

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP};
static volatile sig_atomic_t interrupted;

static void on_fatal_signal(int sig)
{
	interrupted = 1;
	for (size_t i = 0; i < IO_GUARD_MAX_TEMPS; i++)
		if (temps[i])
			unlink(temps[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void io_guard_install(void)
{
	for (size_t i = 0; i < sizeof(guarded) / sizeof(*guarded); i++) {
		struct sigaction old, sa;
		if (sigaction(guarded[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(guarded[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

static void block_guarded(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(guarded) / sizeof(*guarded); i++)
		sigaddset(&set, guarded[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

int io_guard_temp_add(const char *path)
{
	char *copy = xstrdup(path);
	sigset_t old;
	block_guarded(&old);
	int slot = -1;
	for (int i = 0; i < IO_GUARD_MAX_TEMPS && slot < 0; i++)
		if (!temps[i]) {
			temps[i] = copy;
			slot = i;
		}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (slot < 0)
		free(copy);
	return slot;
}

void io_guard_temp_remove(int slot)
{
	if (slot < 0 || slot >= IO_GUARD_MAX_TEMPS)
		return;
	sigset_t old;
	block_guarded(&old);
	char *p = temps[slot];
	temps[slot] = NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(p);
}

bool io_guard_interrupted(void)
{
	return interrupted != 0;
}

void io_guard_input_add(dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < n_inputs; i++)
		if (inputs[i].dev == dev && inputs[i].ino == ino)
			return;
	if (n_inputs < IO_GUARD_MAX_INPUTS) {
		inputs[n_inputs].dev = dev;
		inputs[n_inputs].ino = ino;
		n_inputs++;
	}
}

bool io_guard_is_input(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	for (size_t i = 0; i < n_inputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return true;
	return false;
}

void io_guard_fault_point(const char *point)
{
	const char *want = getenv("GPUPLAN_FAULT");
	if (want && strcmp(want, point) == 0)
		raise(SIGSTOP);
}
