/*
 * fuzz.c - the fuzz input as files in a private folder, and the loader
 * invariants (see fuzz.h).
 *
 * The folder is made once per process under $TMPDIR (else /tmp) and each
 * input's files go into a fresh subfolder `in/`, removed before the next
 * input is written: a loader never sees a file left by an earlier input,
 * so a crash reproduces from its input alone.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "core/term_safe.h"

#define ROOT_MAX 512

static char root_dir[ROOT_MAX];		/* $TMPDIR/gpuplan-fuzz.XXXXXX */
static char work_dir[ROOT_MAX + 4];	/* root_dir/in */
static char names[FUZZ_MAX_FILES][FUZZ_NAME_MAX + 16];
static char paths[FUZZ_MAX_FILES][sizeof(work_dir) + sizeof(names[0])];

void fuzz_fail(const char *what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "fuzz: %s: broken invariant: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz: cannot %s %s: %s\n", what, path, strerror(errno));
	exit(1);	/* the harness's environment, not a finding */
}

/* Removes dir and everything under it (links themselves, never what
 * they point at); a missing dir is fine. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return;
		die("open", dir);
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char path[sizeof(paths[0]) + 256];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else if (unlink(path) != 0 && errno != ENOENT)
			die("remove", path);
	}
	closedir(d);
	if (rmdir(dir) != 0 && errno != ENOENT)
		die("remove", dir);
}

static void remove_root(void)
{
	if (root_dir[0])
		remove_tree(root_dir);
}

/* A fresh, empty work folder; made with its parent on first use. */
static void fresh_work_dir(void)
{
	if (!root_dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(root_dir, sizeof(root_dir), "%s/gpuplan-fuzz.XXXXXX",
			 tmp && tmp[0] ? tmp : "/tmp");
		if (!mkdtemp(root_dir))
			die("make", root_dir);
		snprintf(work_dir, sizeof(work_dir), "%s/in", root_dir);
		atexit(remove_root);
	}
	remove_tree(work_dir);
	if (mkdir(work_dir, 0700) != 0)
		die("make", work_dir);
}

const char *fuzz_work_dir(void)
{
	if (!root_dir[0])
		fresh_work_dir();
	return work_dir;
}

/* A name the input may give a file: a relative path without '.' or '..'
 * parts, in a small alphabet, so every file stays inside the folder. */
static int name_ok(const char *s, size_t len)
{
	if (len == 0 || len > FUZZ_NAME_MAX || s[0] == '/' || s[len - 1] == '/')
		return 0;
	size_t part = 0;	/* length of the current path component */
	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == '/') {
			if (part == 0 || (part == 1 && s[i - 1] == '.') ||
			    (part == 2 && s[i - 1] == '.' && s[i - 2] == '.'))
				return 0;
			part = 0;
			continue;
		}
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
		part++;
	}
	return 1;
}

/* Makes the folders above work_dir/name. */
static int make_parents(const char *path)
{
	char buf[sizeof(paths[0])];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + strlen(work_dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int write_all(const char *path, const uint8_t *data, size_t size)
{
	if (make_parents(path) < 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;	/* a folder of that name, or a file written already */
	while (size > 0) {
		ssize_t k = write(fd, data, size);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			die("write", path);
		data += k;
		size -= (size_t)k;
	}
	if (close(fd) != 0)
		die("close", path);
	return 0;
}

/* Lines in data, counted as a YAML reader may count them: a line ends at
 * '\n', '\r' (so "\r\n" counts twice: this is a bound), NEL, LS or PS. */
static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; i < size; i++) {
		n += data[i] == '\n' || data[i] == '\r';
		n += i + 1 < size && data[i] == 0xc2 && data[i + 1] == 0x85;
		n += i + 2 < size && data[i] == 0xe2 && data[i + 1] == 0x80 &&
		     (data[i + 2] == 0xa8 || data[i + 2] == 0xa9);
	}
	return n + 1;
}

/* Adds file f->n, named `name` (len bytes) when that is a good name not
 * used yet, else "~fileN.yaml" ('~' is outside the names' alphabet, so
 * that one is always free). */
static void add_file(struct fuzz_files *f, const char *name, size_t len,
		     const uint8_t *data, size_t size)
{
	size_t i = f->n;
	int named = name_ok(name, len);
	if (named) {
		snprintf(names[i], sizeof(names[i]), "%.*s", (int)len, name);
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", work_dir, names[i]);
		named = write_all(paths[i], data, size) == 0;
	}
	if (!named) {
		snprintf(names[i], sizeof(names[i]), "~file%zu.yaml", i);
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", work_dir, names[i]);
		if (write_all(paths[i], data, size) != 0)
			die("write", paths[i]);
	}
	f->name[i] = names[i];
	f->path[i] = paths[i];
	f->lines[i] = count_lines(data, size);
	f->n++;
}

/* The offset of the next separator line at or after `from` (at the start
 * of the input or right after a newline), or size. */
static size_t next_separator(const uint8_t *data, size_t size, size_t from)
{
	const size_t k = sizeof(FUZZ_SEPARATOR) - 1;
	for (size_t i = from; i + k <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    memcmp(data + i, FUZZ_SEPARATOR, k) == 0)
			return i;
	return size;
}

void fuzz_write_files(const uint8_t *data, size_t size, const char *main_name,
		      struct fuzz_files *f)
{
	const size_t k = sizeof(FUZZ_SEPARATOR) - 1;
	fresh_work_dir();
	f->n = 0;
	size_t at = next_separator(data, size, 0);
	if (at > 0)	/* the main file, named by the harness */
		add_file(f, main_name, strlen(main_name), data,
			 at - (at < size));	/* the newline before the line */
	while (at < size && f->n < FUZZ_MAX_FILES) {
		size_t name_at = at + k, name_end = name_at;
		while (name_end < size && data[name_end] != '\n')
			name_end++;
		size_t body = name_end + (name_end < size);
		/* the last file takes the rest, separators and all */
		at = f->n + 1 < FUZZ_MAX_FILES ? next_separator(data, size, body)
					       : size;
		size_t end = at - (at < size && at > body);
		add_file(f, (const char *)data + name_at, name_end - name_at,
			 data + body, end > body ? end - body : 0);
	}
	if (f->n == 0)	/* an empty input: an empty main file */
		add_file(f, main_name, strlen(main_name), data, 0);
}

void fuzz_write_file(const uint8_t *data, size_t size, const char *name,
		     struct fuzz_files *f)
{
	fresh_work_dir();
	f->n = 0;
	add_file(f, name, strlen(name), data, size);
}

void fuzz_link_shipped_models(void)
{
	char link[sizeof(work_dir) + 16];
	snprintf(link, sizeof(link), "%s/models", work_dir);
	if (symlink(GPUPLAN_SOURCE_DIR "/profiles/models", link) != 0 &&
	    errno != EEXIST)
		die("link the shipped models as", link);
}

/* ---- invariants ---- */

/* The lines of the input file `file` names, or 0 when it names none. */
static size_t lines_of(const struct fuzz_files *f, const char *file)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->path[i], file) == 0)
			return f->lines[i];
	return 0;
}

static void check_problem(const char *what, const struct fuzz_files *f,
			  const struct gp_error *e, const char *shown)
{
	if (!e->file)
		fuzz_fail(what, "a problem names no file: %s", shown);
	if (e->line < 0 || e->col < 0 || (e->line == 0 && e->col != 0))
		fuzz_fail(what, "a problem at line %d column %d: %s", e->line,
			  e->col, shown);
	if (!e->msg || !e->msg[0])
		fuzz_fail(what, "a problem without a message: %s", shown);
	size_t lines = lines_of(f, e->file);
	if (lines > 0 && (size_t)e->line > lines)
		fuzz_fail(what, "a problem at line %d of a %zu-line file: %s",
			  e->line, lines, shown);
	const char *kind;
	long at = text_control_char(shown, 0, &kind);
	if (at >= 0)
		fuzz_fail(what, "a printed message holds %s at byte %ld", kind,
			  at);
}

/* Every problem as gp_errors_print() prints it, in one string (malloc'd). */
static char *printed(const struct gp_errors *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		die("open a memory stream for", "the messages");
	gp_errors_print(e, m);
	if (fclose(m) != 0)
		die("close a memory stream for", "the messages");
	return text;
}

static void check_run(const char *what, const struct fuzz_files *f, int rc,
		      const struct gp_errors *e)
{
	size_t count = gp_errors_count(e);
	if (rc != 0 && rc != -1)
		fuzz_fail(what, "returned %d (not 0 or -1)", rc);
	if (rc == 0 && count > 0) {
		gp_errors_print(e, stderr);
		fuzz_fail(what, "succeeded with %zu problems (above)", count);
	}
	if (rc != 0 && count == 0)
		fuzz_fail(what, "failed without saying why");
	char buf[4096];
	for (size_t i = 0; i < e->n; i++) {
		gp_error_format(&e->v[i], buf, sizeof(buf));
		check_problem(what, f, &e->v[i], buf);
	}
}

void fuzz_check_loader(const char *what, fuzz_loader load,
		       const struct fuzz_files *f)
{
	struct gp_errors first, second;
	gp_errors_init(&first);
	gp_errors_init(&second);
	int rc1 = load(f, &first);
	check_run(what, f, rc1, &first);
	int rc2 = load(f, &second);
	char *a = printed(&first), *b = printed(&second);
	if (getenv("FUZZ_VERBOSE"))	/* what each input gave, for people */
		fprintf(stderr, "%s: %s (%zu problems)\n%s", what,
			rc1 == 0 ? "loaded" : "refused", gp_errors_count(&first), a);
	if (rc1 != rc2 || strcmp(a, b) != 0) {
		fprintf(stderr, "first load (%d):\n%s\nsecond load (%d):\n%s\n",
			rc1, a, rc2, b);
		fuzz_fail(what, "the same input loaded twice differs (above)");
	}
	free(a);
	free(b);
	gp_errors_free(&first);
	gp_errors_free(&second);
}

#define PRICE_LIST GPUPLAN_SOURCE_DIR "/tests/fuzz/data/catalogs"

const struct catalog *fuzz_price_list(const char *harness)
{
	static struct catalog c;
	static bool loaded;
	if (loaded)
		return &c;
	const char *files[] = {PRICE_LIST "/accelerators.yaml",
			       PRICE_LIST "/currency.yaml",
			       PRICE_LIST "/instances.yaml"};
	struct gp_errors errs;
	gp_errors_init(&errs);
	catalog_init(&c);
	if (catalog_load(&c, files, 3, NULL, &errs) != 0) {
		gp_errors_print(&errs, stderr);
		fuzz_fail("catalog_load", "the %s harness's price list in %s does not load (above)",
			  harness, PRICE_LIST);
	}
	gp_errors_free(&errs);
	loaded = true;	/* kept for the whole run */
	return &c;
}
