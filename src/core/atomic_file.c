#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_guard.h"
#include "xalloc.h"

#define MAX_LINK_HOPS 40	/* as the kernel's own limit (ELOOP) */

struct atomic_staged {
	char *target;	/* the path to rename over */
	char *canon;	/* the same, its folder's links resolved: to compare */
	char *tmp;
	long slot;	/* io_guard registration */
	FILE *f;	/* a streamed file still open for writing, or NULL */
};

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = ENOSPC;
			return -1;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static void sync_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);	/* best effort: some file systems refuse */
		close(fd);
	}
	free(copy);
}

/*
 * The path a write to `path` must replace: path itself, or for a link
 * (live or dangling) the file at the end of its chain, each relative link
 * read against the folder of the link that holds it.  NULL with why on a
 * loop.
 */
static char *resolve_target(const char *path, char *why, size_t whylen)
{
	char *cur = xstrdup(path);
	for (int hop = 0; hop <= MAX_LINK_HOPS; hop++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		char to[PATH_MAX];
		ssize_t k = readlink(cur, to, sizeof(to) - 1);
		if (k < 0)
			return cur;
		to[k] = '\0';
		char *next;
		if (to[0] == '/') {
			next = xstrdup(to);
		} else {
			char *copy = xstrdup(cur);
			next = xasprintf("%s/%s", dirname(copy), to);
			free(copy);
		}
		free(cur);
		cur = next;
	}
	snprintf(why, whylen, "cannot write '%s': too many levels of links",
		 path);
	free(cur);
	return NULL;
}

int atomic_check_target(const char *path, char *why, size_t whylen)
{
	if (!path || !*path) {
		snprintf(why, whylen, "an output file needs a name");
		return ATOMIC_REFUSED;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "cannot write '%s': it is a folder", path);
		return ATOMIC_REFUSED;
	}
	if (io_guard_is_input(path)) {
		snprintf(why, whylen,
			 "will not write over '%s': it is one of this command's inputs",
			 path);
		return ATOMIC_REFUSED;
	}
	return ATOMIC_OK;
}

/* A device or pipe (-o /dev/null, -o /dev/stdout) cannot be replaced by
 * a rename, and must not be: it is written in place.  Opened without
 * blocking, so a FIFO that nobody reads is an error, not a hang. */
static int write_in_place(const char *path, const void *data, size_t len,
			  char *why, size_t whylen)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NONBLOCK);
	if (fd < 0 && errno == ENXIO) {
		snprintf(why, whylen, "cannot write '%s': no process reads this pipe",
			 path);
		return ATOMIC_FAILED;
	}
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (fd < 0 || write_all(fd, data, len) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return ATOMIC_FAILED;
	}
	close(fd);
	return ATOMIC_OK;
}

/* The permission bits the new file gets: the old file's, or the usual
 * 0666 less the umask for a new one. */
static mode_t mode_for(const char *target)
{
	struct stat st;
	if (stat(target, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/*
 * Temporary names say who made them: TARGET.tmp.HOST-PID.XXXXXX, HOST
 * being 8 hex digits of the host name's FNV-1a hash.  A write killed
 * with SIGKILL (or by a power cut) cannot remove its file; the next write
 * of the same target can, once it knows the writer is gone.
 */
static unsigned long host_tag(void)
{
	char host[256] = "";
	unsigned long h = 2166136261u;
	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	for (const unsigned char *c = (const unsigned char *)host; *c; c++)
		h = ((h ^ *c) * 16777619u) & 0xFFFFFFFFu;
	return h;
}

/* The writer's pid when name is base's temporary made on this host
 * ("base.tmp.HOST-PID.XXXXXX"), else 0. */
static long temp_writer(const char *name, const char *base, unsigned long host)
{
	size_t bl = strlen(base);
	if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".tmp.", 5) != 0)
		return 0;
	const char *p = name + bl + 5;
	char *end;
	if (strspn(p, "0123456789abcdef") != 8)
		return 0;
	unsigned long h = strtoul(p, &end, 16);
	if (h != host || *end != '-' || strspn(end + 1, "0123456789") == 0)
		return 0;
	long pid = strtol(end + 1, &end, 10);
	if (pid <= 0 || *end != '.' || strlen(end + 1) != 6)
		return 0;
	return pid;
}

/* Removes what earlier writes of target left when they were killed: its
 * temporaries made on this host by a process that no longer exists.  A
 * live writer's file (another gpuplan writing the same target, or one on
 * another host sharing the folder) is never touched. */
static void remove_stale_temps(const char *target, unsigned long host)
{
	char *dcopy = xstrdup(target), *bcopy = xstrdup(target);
	const char *dir = dirname(dcopy), *base = basename(bcopy);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		long pid = temp_writer(e->d_name, base, host);
		if (pid == 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char *stale = xasprintf("%s/%s", dir, e->d_name);
			unlink(stale);
			free(stale);
		}
	}
	if (d)
		closedir(d);
	free(dcopy);
	free(bcopy);
}

/* Creates an empty temporary file beside target, with the mode the
 * target will have; its descriptor in *fd. */
static int create_temp(struct atomic_staged *st, const char *target, int *fd,
		       char *why, size_t whylen)
{
	st->target = xstrdup(target);
	unsigned long host = host_tag();
	remove_stale_temps(target, host);
	st->tmp = xasprintf("%s.tmp.%08lx-%ld.XXXXXX", target, host,
			    (long)getpid());
	st->slot = -1;
	st->f = NULL;
	st->canon = NULL;
	mode_t mode = mode_for(target);
	*fd = mkstemp(st->tmp);
	if (*fd < 0) {
		char *copy = xstrdup(target);
		snprintf(why, whylen, "cannot create a file in '%s': %s",
			 dirname(copy), strerror(errno));
		free(copy);
		free(st->tmp);
		free(st->target);
		st->tmp = st->target = NULL;
		return ATOMIC_FAILED;
	}
	st->slot = io_guard_temp_add(st->tmp);
	fchmod(*fd, mode);	/* mkstemp makes 0600 */
	return ATOMIC_OK;
}

/* Removes a staged file that failed, and forgets it. */
static void drop_staged(struct atomic_staged *st)
{
	unlink(st->tmp);
	io_guard_temp_remove(st->slot);
	free(st->tmp);
	free(st->target);
	st->tmp = st->target = NULL;
}

/* Writes data to a new temporary file beside target; fills st. */
static int stage_file(struct atomic_staged *st, const char *target,
		      const void *data, size_t len, char *why, size_t whylen)
{
	int fd;
	if (create_temp(st, target, &fd, why, whylen) != ATOMIC_OK)
		return ATOMIC_FAILED;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", target,
			 strerror(errno));
		close(fd);
		drop_staged(st);
		return ATOMIC_FAILED;
	}
	if (close(fd) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", target,
			 strerror(errno));
		drop_staged(st);
		return ATOMIC_FAILED;
	}
	return ATOMIC_OK;
}

/* A streamed file's end: flushed, checked, synced and closed. */
static int finish_stream(struct atomic_staged *st, char *why, size_t whylen)
{
	FILE *f = st->f;
	st->f = NULL;
	bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
	int err = errno;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		snprintf(why, whylen, "cannot write '%s': %s", st->target,
			 strerror(err ? err : errno));
		return ATOMIC_FAILED;
	}
	return ATOMIC_OK;
}

static void staged_free(struct atomic_staged *st)
{
	if (st->f)
		fclose(st->f);
	io_guard_temp_remove(st->slot);
	free(st->tmp);
	free(st->target);
	free(st->canon);
}

void atomic_set_init(struct atomic_set *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
}

/* target with its folder's links resolved ("./out/r.pdf" and
 * "out/r.pdf" are one file); target itself when the folder is missing. */
static char *canonical(const char *target)
{
	char *copy = xstrdup(target), *copy2 = xstrdup(target);
	char dir[PATH_MAX];
	char *out = realpath(dirname(copy), dir)
			    ? xasprintf("%s/%s", dir, basename(copy2))
			    : xstrdup(target);
	free(copy);
	free(copy2);
	return out;
}

/*
 * What a write to path must do: ATOMIC_IN_PLACE for a device or pipe
 * (followed from path itself: /dev/stdout names a pipe, not a file), or
 * ATOMIC_OK with *target, the file to replace, and *canon; refused when
 * another file of the set already names it (one output would silently
 * replace another: `plan -o r.pdf --report r.pdf`).
 */
static int prepare(const struct atomic_set *s, const char *path,
		   char **target, char **canon, char *why, size_t whylen)
{
	int rc = atomic_check_target(path, why, whylen);
	if (rc != ATOMIC_OK)
		return rc;
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return ATOMIC_IN_PLACE;
	if (!(*target = resolve_target(path, why, whylen)))
		return ATOMIC_FAILED;
	*canon = canonical(*target);
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].canon, *canon) == 0) {
			snprintf(why, whylen,
				 "two outputs of this run name the same file '%s'",
				 path);
			free(*target);
			free(*canon);
			return ATOMIC_REFUSED;
		}
	}
	return ATOMIC_OK;
}

int atomic_set_add(struct atomic_set *s, const char *path, const void *data,
		   size_t len, char *why, size_t whylen)
{
	char *target, *canon;
	int rc = prepare(s, path, &target, &canon, why, whylen);
	if (rc == ATOMIC_IN_PLACE)	/* nothing to stage, nothing to undo */
		return write_in_place(path, data, len, why, whylen);
	if (rc != ATOMIC_OK)
		return rc;
	xgrow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	rc = stage_file(&s->v[s->n], target, data, len, why, whylen);
	free(target);
	if (rc == ATOMIC_OK)
		s->v[s->n++].canon = canon;
	else
		free(canon);
	return rc;
}

int atomic_set_stream(struct atomic_set *s, const char *path, FILE **f,
		      char *why, size_t whylen)
{
	*f = NULL;
	char *target, *canon;
	int rc = prepare(s, path, &target, &canon, why, whylen);
	if (rc != ATOMIC_OK)
		return rc;
	xgrow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	struct atomic_staged *staged = &s->v[s->n];
	int fd;
	rc = create_temp(staged, target, &fd, why, whylen);
	free(target);
	if (rc != ATOMIC_OK) {
		free(canon);
		return rc;
	}
	staged->f = fdopen(fd, "w");
	if (!staged->f) {
		snprintf(why, whylen, "cannot write '%s': %s", staged->target,
			 strerror(errno));
		close(fd);
		drop_staged(staged);
		free(canon);
		return ATOMIC_FAILED;
	}
	staged->canon = canon;
	s->n++;
	*f = staged->f;
	return ATOMIC_OK;
}

int atomic_set_commit(struct atomic_set *s, char *why, size_t whylen)
{
	int rc = ATOMIC_OK;
	/* Streamed files end first: a full disk shows at their last flush,
	 * and must stop the set before anything is renamed. */
	for (size_t i = 0; i < s->n && rc == ATOMIC_OK; i++)
		if (s->v[i].f)
			rc = finish_stream(&s->v[i], why, whylen);
	if (rc != ATOMIC_OK) {
		atomic_set_abort(s);
		return rc;
	}
	io_guard_fault_point("before-rename");
	if (!io_guard_commit_begin()) {	/* a fatal signal came first */
		snprintf(why, whylen, "interrupted");
		atomic_set_abort(s);
		return ATOMIC_FAILED;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct atomic_staged *st = &s->v[i];
		if (rc == ATOMIC_OK && rename(st->tmp, st->target) < 0) {
			snprintf(why, whylen, "cannot write '%s': %s", st->target,
				 strerror(errno));
			rc = ATOMIC_FAILED;
		}
		if (rc != ATOMIC_OK)
			unlink(st->tmp);
		else
			sync_dir(st->target);
		staged_free(st);
		if (i == 0 && s->n > 1)
			io_guard_fault_point("mid-rename");
	}
	free(s->v);
	atomic_set_init(s);
	io_guard_commit_end();	/* dies here of a signal that came meanwhile */
	return rc;
}

void atomic_set_abort(struct atomic_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		unlink(s->v[i].tmp);
		staged_free(&s->v[i]);
	}
	free(s->v);
	atomic_set_init(s);
}

int atomic_write(const char *path, const void *data, size_t len, char *why,
		 size_t whylen)
{
	struct atomic_set s;
	atomic_set_init(&s);
	int rc = atomic_set_add(&s, path, data, len, why, whylen);
	if (rc != ATOMIC_OK) {
		atomic_set_abort(&s);
		return rc;
	}
	return atomic_set_commit(&s, why, whylen);
}
