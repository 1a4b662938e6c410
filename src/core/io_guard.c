#include "io_guard.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

/*
 * The registry of paths to remove on a fatal signal: chunks of slots that
 * are allocated as needed and never moved, so the handler can walk them
 * while the program adds more (a report with --png and --svg stages 13
 * files per workload, all alive at once).  A slot is published by storing
 * its path pointer last, and emptied by clearing it first; free slots are
 * kept on a stack the handler never reads.  One race is left, and
 * accepted: a handler running on another thread as a slot is emptied may
 * unlink a path that was just freed (it cannot be a file this run needs).
 */
#define SLOTS_PER_CHUNK 256
#define MAX_CHUNKS 4096		/* 1,048,576 paths alive at once */

enum { KIND_FILE, KIND_DIR };

struct chunk {
	char *volatile path[SLOTS_PER_CHUNK];
	unsigned char kind[SLOTS_PER_CHUNK];
};

static struct chunk *volatile chunks[MAX_CHUNKS];
static size_t n_slots_made;	/* slots ever handed out */
static size_t *free_slots;	/* a stack of emptied slots */
static size_t n_free, cap_free;

static struct {
	dev_t dev;
	ino_t ino;
} inputs[IO_GUARD_MAX_INPUTS];
static size_t n_inputs;

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP};
static volatile sig_atomic_t interrupted;

/* Files first, then folders from the last made to the first, so a folder
 * is empty (of this run's files) when its turn comes. */
static void remove_registered(void)
{
	for (size_t c = 0; c < MAX_CHUNKS && chunks[c]; c++)
		for (size_t i = 0; i < SLOTS_PER_CHUNK; i++) {
			char *p = chunks[c]->path[i];
			if (p && chunks[c]->kind[i] == KIND_FILE)
				unlink(p);
		}
	for (size_t c = MAX_CHUNKS; c-- > 0;) {
		if (!chunks[c])
			continue;
		for (size_t i = SLOTS_PER_CHUNK; i-- > 0;) {
			char *p = chunks[c]->path[i];
			if (p && chunks[c]->kind[i] == KIND_DIR)
				rmdir(p);
		}
	}
}

static void on_fatal_signal(int sig)
{
	interrupted = 1;
	remove_registered();
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

/* A free slot: an emptied one, else the next never used (its chunk
 * made when needed).  -1 when a million paths are alive. */
static long take_slot(void)
{
	if (n_free > 0)
		return (long)free_slots[--n_free];
	size_t slot = n_slots_made;
	size_t c = slot / SLOTS_PER_CHUNK;
	if (c >= MAX_CHUNKS)
		return -1;
	if (!chunks[c])
		chunks[c] = xcalloc(1, sizeof(struct chunk));
	n_slots_made++;
	return (long)slot;
}

static long add_path(const char *path, int kind)
{
	char *copy = xstrdup(path);
	sigset_t old;
	block_guarded(&old);
	long slot = take_slot();
	if (slot >= 0) {
		struct chunk *ch = chunks[slot / SLOTS_PER_CHUNK];
		ch->kind[slot % SLOTS_PER_CHUNK] = (unsigned char)kind;
		ch->path[slot % SLOTS_PER_CHUNK] = copy;	/* published last */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (slot < 0)
		free(copy);
	return slot;
}

static void remove_path(long slot)
{
	if (slot < 0 || (size_t)slot >= n_slots_made)
		return;
	sigset_t old;
	block_guarded(&old);
	struct chunk *ch = chunks[slot / SLOTS_PER_CHUNK];
	char *p = ch->path[slot % SLOTS_PER_CHUNK];
	ch->path[slot % SLOTS_PER_CHUNK] = NULL;	/* emptied first */
	if (p) {
		xgrow((void **)&free_slots, &cap_free, n_free + 1,
		      sizeof(*free_slots));
		free_slots[n_free++] = (size_t)slot;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(p);
}

long io_guard_temp_add(const char *path)
{
	return add_path(path, KIND_FILE);
}

void io_guard_temp_remove(long slot)
{
	remove_path(slot);
}

long io_guard_dir_add(const char *path)
{
	return add_path(path, KIND_DIR);
}

void io_guard_dir_remove(long slot)
{
	remove_path(slot);
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
