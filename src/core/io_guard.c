#include "io_guard.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
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

/* The inputs read, by device and inode: an open-addressing set that
 * doubles at half full, so any number of inputs is remembered. */
struct file_id {
	dev_t dev;
	ino_t ino;
	bool used;
};
static struct file_id *inputs;
static size_t n_inputs, cap_inputs;	/* cap: a power of two, or 0 */

/*
 * Signals that end the process by default, and so must not leave
 * temporary files: the terminal's and kill's, a closed pipe, timers,
 * CPU limits (`ulimit -t`).  SIGXFSZ is ignored instead (see the header).
 */
static const int guarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
			      SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM,
			      SIGPROF};

/*
 * Whoever moves the state first decides: the handler (IDLE -> DYING)
 * removes the temporary files and the process dies with nothing renamed;
 * a commit (IDLE -> COMMITTING) renames its whole set, and a signal that
 * arrives meanwhile, on any thread, is held and re-raised once the set is
 * in place.  An interrupted run thus leaves the previous files or the
 * whole new set, never a mix.  Lock-free atomics are safe in a handler.
 */
enum { IDLE, COMMITTING, DYING };
static atomic_int state = IDLE;
static volatile sig_atomic_t held_signal;

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

static void die_of(int sig)
{
	remove_registered();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_fatal_signal(int sig)
{
	int expected = IDLE;
	if (atomic_compare_exchange_strong(&state, &expected, DYING))
		die_of(sig);
	else if (expected == COMMITTING)
		held_signal = sig;	/* re-raised by io_guard_commit_end */
	/* DYING: another thread is removing the files; the process ends */
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

bool io_guard_commit_begin(void)
{
	int expected = IDLE;
	return atomic_compare_exchange_strong(&state, &expected, COMMITTING);
}

void io_guard_commit_end(void)
{
	atomic_store(&state, IDLE);
	int sig = held_signal;
	if (sig) {
		int expected = IDLE;
		if (atomic_compare_exchange_strong(&state, &expected, DYING))
			die_of(sig);
	}
}

static size_t id_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15u ^ (uint64_t)dev;
	return (size_t)(h ^ (h >> 29));
}

/* The slot holding (dev, ino), or the empty one where it would go. */
static struct file_id *id_slot(struct file_id *v, size_t cap, dev_t dev,
			       ino_t ino)
{
	for (size_t i = id_hash(dev, ino) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!v[i].used || (v[i].dev == dev && v[i].ino == ino))
			return &v[i];
}

void io_guard_input_add(dev_t dev, ino_t ino)
{
	if (2 * (n_inputs + 1) > cap_inputs) {
		size_t cap = cap_inputs ? 2 * cap_inputs : 64;
		struct file_id *v = xcalloc(cap, sizeof(*v));
		for (size_t i = 0; i < cap_inputs; i++)
			if (inputs[i].used)
				*id_slot(v, cap, inputs[i].dev, inputs[i].ino) = inputs[i];
		free(inputs);
		inputs = v;
		cap_inputs = cap;
	}
	struct file_id *slot = id_slot(inputs, cap_inputs, dev, ino);
	if (!slot->used) {
		*slot = (struct file_id){dev, ino, true};
		n_inputs++;
	}
}

bool io_guard_is_input(const char *path)
{
	struct stat st;
	if (cap_inputs == 0 || stat(path, &st) != 0)
		return false;
	return id_slot(inputs, cap_inputs, st.st_dev, st.st_ino)->used;
}

void io_guard_fault_point(const char *point)
{
	const char *want = getenv("GPUPLAN_FAULT");
	if (want && strcmp(want, point) == 0)
		raise(SIGSTOP);
}
