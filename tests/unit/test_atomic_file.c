/* Atomic writes: the whole content or nothing, and no stray temp files. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/atomic_file.h"
#include "core/file_read.h"
#include "core/io_guard.h"

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

/* The file's whole content ("" when unreadable), in a static buffer. */
static const char *content(const char *path)
{
	static char buf[256];
	memset(buf, 0, sizeof(buf));
	FILE *f = fopen(path, "r");
	if (f) {
		if (fread(buf, 1, sizeof(buf) - 1, f) == 0)
			buf[0] = '\0';
		fclose(f);
	}
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A replaced file keeps its permission bits. */
static void test_mode_kept(const char *dir)
{
	char path[300], why[256];
	snprintf(path, sizeof(path), "%s/shared.json", dir);
	write_file(path, "old\n");
	CHECK(chmod(path, 0640) == 0);
	CHECK(atomic_write(path, "new\n", 4, why, sizeof(why)) == ATOMIC_OK);
	struct stat st;
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);
	CHECK_STR(content(path), "new\n");
	unlink(path);
}

/* A dangling link follows the rule of a live one: the link stays, and the
 * file it names is created. */
static void test_dangling_link(const char *dir)
{
	char link[300], target[300], why[256];
	snprintf(link, sizeof(link), "%s/latest.json", dir);
	snprintf(target, sizeof(target), "%s/run-7.json", dir);
	CHECK(symlink("run-7.json", link) == 0);	/* relative, dangling */
	CHECK(atomic_write(link, "seven\n", 6, why, sizeof(why)) == ATOMIC_OK);
	struct stat st;
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR(content(target), "seven\n");
	unlink(link);
	unlink(target);

	/* a loop of links is an error, and writes nothing */
	char a[300], b[300];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	CHECK(symlink("b", a) == 0 && symlink("a", b) == 0);
	CHECK(atomic_write(a, "x", 1, why, sizeof(why)) == ATOMIC_FAILED);
	CHECK_HAS(why, "too many levels of links");
	unlink(a);
	unlink(b);
}

/* A file this run read is never overwritten, by any name or link; a
 * folder or an empty name is refused the same way. */
static void test_inputs_refused(const char *dir)
{
	char in[300], link[300], why[256];
	snprintf(in, sizeof(in), "%s/in.yaml", dir);
	snprintf(link, sizeof(link), "%s/in-link.yaml", dir);
	write_file(in, "schema: x\n");
	char *data;
	size_t len;
	CHECK(file_read_all(in, 1024, &data, &len) == FILE_READ_OK);
	free(data);
	CHECK(symlink(in, link) == 0);
	CHECK(atomic_write(in, "y", 1, why, sizeof(why)) == ATOMIC_REFUSED);
	CHECK_HAS(why, "it is one of this command's inputs");
	CHECK(atomic_write(link, "y", 1, why, sizeof(why)) == ATOMIC_REFUSED);
	CHECK_STR(content(in), "schema: x\n");
	CHECK(atomic_write(dir, "y", 1, why, sizeof(why)) == ATOMIC_REFUSED);
	CHECK_HAS(why, "it is a folder");
	CHECK(atomic_check_target("", why, sizeof(why)) == ATOMIC_REFUSED);
	unlink(link);
	unlink(in);
}

/* A set is all or nothing: a failure while staging leaves the earlier
 * targets as they were and no temporary file. */
static void test_set(const char *dir)
{
	char a[300], b[300], bad[300], why[256];
	snprintf(a, sizeof(a), "%s/report.pdf", dir);
	snprintf(b, sizeof(b), "%s/chart.png", dir);
	snprintf(bad, sizeof(bad), "%s/no-such-folder/chart2.png", dir);
	write_file(a, "old pdf");
	struct atomic_set s;
	atomic_set_init(&s);
	CHECK(atomic_set_add(&s, a, "new pdf", 7, why, sizeof(why)) == ATOMIC_OK);
	CHECK(atomic_set_add(&s, b, "png", 3, why, sizeof(why)) == ATOMIC_OK);
	CHECK(count_entries(dir) == 3);	/* a, and two temporaries */
	CHECK(atomic_set_add(&s, bad, "png", 3, why, sizeof(why)) == ATOMIC_FAILED);
	atomic_set_abort(&s);
	CHECK_STR(content(a), "old pdf");
	CHECK(access(b, F_OK) != 0);
	CHECK(count_entries(dir) == 1);

	atomic_set_init(&s);
	CHECK(atomic_set_add(&s, a, "new pdf", 7, why, sizeof(why)) == ATOMIC_OK);
	CHECK(atomic_set_add(&s, b, "png", 3, why, sizeof(why)) == ATOMIC_OK);
	CHECK(atomic_set_commit(&s, why, sizeof(why)) == ATOMIC_OK);
	CHECK_STR(content(a), "new pdf");
	CHECK_STR(content(b), "png");
	CHECK(count_entries(dir) == 2);
	unlink(a);
	unlink(b);
}

/* A signal between staging and renaming: the child stops itself at the
 * fault point, is sent sig, and must die of it leaving the old file whole
 * and no temporary file. */
static void test_interrupted(const char *dir, int sig)
{
	char path[300], why[256];
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	write_file(path, "previous\n");
	pid_t pid = fork();
	if (pid == 0) {
		io_guard_install();
		setenv("GPUPLAN_FAULT", "before-rename", 1);
		atomic_write(path, "interrupted\n", 12, why, sizeof(why));
		_exit(0);
	}
	int status;
	CHECK(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status));
	CHECK(count_entries(dir) == 2);	/* the old file and the temporary */
	kill(pid, sig);
	kill(pid, SIGCONT);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	      WTERMSIG(status) == sig);
	CHECK(count_entries(dir) == 1);
	CHECK_STR(content(path), "previous\n");
	unlink(path);
}

/* A large set (more files alive than one registry chunk holds) in a
 * folder the run made: on a signal at the fault point every temporary
 * file goes, then the folder. */
static void test_interrupted_set(const char *dir)
{
	char sub[300], why[256];
	snprintf(sub, sizeof(sub), "%s/charts", dir);
	pid_t pid = fork();
	if (pid == 0) {
		io_guard_install();
		setenv("GPUPLAN_FAULT", "before-rename", 1);
		if (mkdir(sub, 0777) < 0)
			_exit(3);
		io_guard_dir_add(sub);
		struct atomic_set s;
		atomic_set_init(&s);
		for (int i = 0; i < 600; i++) {
			char path[400];
			snprintf(path, sizeof(path), "%s/chart-%d.png", sub, i);
			if (atomic_set_add(&s, path, "png", 3, why, sizeof(why)) != ATOMIC_OK)
				_exit(4);
		}
		atomic_set_commit(&s, why, sizeof(why));
		_exit(0);
	}
	int status;
	CHECK(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status));
	CHECK(count_entries(sub) == 600);
	kill(pid, SIGTERM);
	kill(pid, SIGCONT);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	      WTERMSIG(status) == SIGTERM);
	CHECK(access(sub, F_OK) != 0);	/* its files, then the folder */
}

/* Every input is remembered, however many: the 5,000th file read is as
 * safe from -o as the first. */
static void test_many_inputs(const char *dir)
{
	char why[256], path[400];
	for (int i = 0; i < 5000; i++) {
		snprintf(path, sizeof(path), "%s/in-%d.yaml", dir, i);
		write_file(path, "x\n");
		char *data;
		size_t len;
		CHECK(file_read_all(path, 16, &data, &len) == FILE_READ_OK || !"read");
		free(data);
	}
	snprintf(path, sizeof(path), "%s/in-4999.yaml", dir);
	CHECK(atomic_check_target(path, why, sizeof(why)) == ATOMIC_REFUSED);
	snprintf(path, sizeof(path), "%s/in-0.yaml", dir);
	CHECK(atomic_check_target(path, why, sizeof(why)) == ATOMIC_REFUSED);
	for (int i = 0; i < 5000; i++) {
		snprintf(path, sizeof(path), "%s/in-%d.yaml", dir, i);
		unlink(path);
	}
}

int main(void)
{
	char dir[] = "/tmp/gpuplan-atomic-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], why[256];
	snprintf(path, sizeof(path), "%s/out.json", dir);

	CHECK(atomic_write(path, "first\n", 6, why, sizeof(why)) == 0);
	CHECK(atomic_write(path, "second\n", 7, why, sizeof(why)) == 0);
	FILE *f = fopen(path, "r");
	char buf[32] = {0};
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 7);
	if (f)
		fclose(f);
	CHECK_STR(buf, "second\n");
	CHECK(count_entries(dir) == 1);	/* no temporary left behind */

	/* A folder that does not exist: an error, and nothing written. */
	char bad[300];
	snprintf(bad, sizeof(bad), "%s/missing/out.json", dir);
	CHECK(atomic_write(bad, "x", 1, why, sizeof(why)) == -1);
	CHECK(strstr(why, "cannot create a file in") != NULL);
	CHECK(count_entries(dir) == 1);

	/* A device is written in place, never replaced by a file: /dev/full
	 * refuses the write (a rename over it would have "succeeded"). */
	CHECK(atomic_write("/dev/full", "x", 1, why, sizeof(why)) == -1);
	CHECK(strstr(why, "No space left") != NULL);
	struct stat st;
	CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));

	/* A link keeps pointing at its target, which gets the content. */
	char link[300];
	snprintf(link, sizeof(link), "%s/link.json", dir);
	CHECK(symlink(path, link) == 0);
	CHECK(atomic_write(link, "third\n", 6, why, sizeof(why)) == 0);
	struct stat lst;
	CHECK(lstat(link, &lst) == 0 && S_ISLNK(lst.st_mode));
	f = fopen(path, "r");
	memset(buf, 0, sizeof(buf));
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 6);
	if (f)
		fclose(f);
	CHECK_STR(buf, "third\n");

	unlink(link);
	unlink(path);
	test_mode_kept(dir);
	test_dangling_link(dir);
	test_set(dir);
	test_interrupted(dir, SIGINT);
	test_interrupted(dir, SIGTERM);
	test_interrupted(dir, SIGHUP);
	test_interrupted_set(dir);
	/* last: inputs are remembered by inode, which a later file in the
	 * same folder could reuse once the input is deleted */
	test_inputs_refused(dir);
	test_many_inputs(dir);
	CHECK(count_entries(dir) == 0);
	rmdir(dir);
	return check_summary("atomic_file");
}
