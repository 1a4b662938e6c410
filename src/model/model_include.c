/*
 * model_include.c - `- include: FILE`: where an include may reach, what
 * it may be, and reading each included file once.
 *
 * The rule (profiles/models/README.md): FILE is resolved relative to the
 * file that includes it, links followed, and the real path must lie in
 * the folder of the model being loaded (or below it) or in the shipped
 * models folder (profiles/models).  It must be a regular file: a folder,
 * a device (/dev/zero, /dev/urandom), a FIFO or a socket is refused
 * before it is opened, so nothing blocks or streams without end.  The
 * model named on the command line may be anywhere: a person named it.
 *
 * A file is read and parsed once, however many times it is included: the
 * entries are kept in the model's block cache under the file's real path
 * and every include of it borrows them.  A chain of files each including
 * the next ten times thus costs one read per file, and its expanded size
 * is known from the counts (op_count.c) without unrolling anything.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/paths.h"
#include "core/xalloc.h"
#include "model_include.h"
#include "op_count.h"

/* ---- where an include may reach ---- */

static char *resolve_include(const char *from_file, const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char *dir = path_dir(from_file);
	char *p = strcmp(dir, ".") == 0 ? xstrdup(path)
					: xasprintf("%s/%s", dir, path);
	free(dir);
	return p;
}

/* True when real (a real path) is dir itself or below it. */
static bool inside(const char *real, const char *dir)
{
	if (!dir)
		return false;
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

static const char *shipped_dir(struct model_reader *mr)
{
	if (mr->shipped_looked)
		return mr->shipped_dir;
	mr->shipped_looked = true;
	char *data = data_dir_find();
	if (data) {
		char *dir = xasprintf("%s/profiles/models", data);
		char real[PATH_MAX];
		if (realpath(dir, real))
			mr->shipped_dir = xstrdup(real);
		free(dir);
		free(data);
	}
	return mr->shipped_dir;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* Resolves v's path into real (PATH_MAX bytes) and checks it may be
 * read: 0, or -1 after a located error. */
static int include_target(struct model_reader *mr, const struct ynode *v,
			  const char *text, char *real)
{
	struct yread *r = &mr->r;
	char *path = resolve_include(mr->stack[mr->depth - 1], text);
	bool found = realpath(path, real) != NULL;
	int err = errno;
	free(path);
	if (!found) {
		yr_error(r, v, NULL, "cannot open included file '%s': %s", text,
			 strerror(err));
		return -1;
	}
	if (!inside(real, mr->root_dir) && !inside(real, shipped_dir(mr))) {
		yr_error(r, v,
			 "an include must stay in the model's folder, below it, or in the shipped profiles/models",
			 "included '%s' is outside the model's folder", text);
		return -1;
	}
	struct stat st;
	if (stat(real, &st) != 0) {
		yr_error(r, v, NULL, "cannot open included file '%s': %s", text,
			 strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		yr_error(r, v, NULL, "included '%s' is %s, not a model file", text,
			 file_kind(st.st_mode));
		return -1;
	}
	if (include_stack_has(mr, real)) {
		yr_error(r, v, NULL, "include cycle: '%s' is already being read",
			 text);
		return -1;
	}
	return 0;
}

/* ---- reading once ---- */

/* Reads the block file at real into a new cache entry; returns its
 * index. */
static size_t read_block(struct model_reader *mr, const struct ynode *v,
			 const char *text, const char *real)
{
	struct yread *r = &mr->r;
	char *shown = resolve_include(r->file, text);
	struct model block;
	memset(&block, 0, sizeof(block));
	include_stack_push(mr, real);
	struct yread saved = mr->r;
	bool ok = mr->read_file(mr, real, shown, &block) == 0;
	mr->r = saved;
	include_stack_pop(mr);
	if (ok && block.kind != MODEL_BLOCK) {
		yr_error(r, v, NULL, "'%s' is not a block file (kind: block)", text);
		ok = false;
	}
	struct model *root = mr->root;
	root->blocks = xrealloc(root->blocks,
				(root->n_blocks + 1) * sizeof(*root->blocks));
	struct model_block *b = &root->blocks[root->n_blocks];
	*b = (struct model_block){xstrdup(real), block.ops, block.n_ops,
				  list_op_count(block.ops, block.n_ops), ok};
	block.ops = NULL;
	block.n_ops = 0;
	model_free(&block);
	free(shown);
	strmap_put(&mr->block_index, b->real, root->n_blocks, NULL);
	return root->n_blocks++;
}

int read_include(struct model_reader *mr, const struct ynode *item,
		 const struct ynode *v, struct op_spec *s)
{
	struct yread *r = &mr->r;
	static const struct yfield outer[] = {{"include", true}, {NULL, false}};
	s->spec = SPEC_INCLUDE;
	if (yr_check_keys(r, item, "an include", outer) > 0)
		return -1;
	if (yr_node_string(r, v, "include", &s->include_path) < 0)
		return -1;
	char real[PATH_MAX];
	if (include_target(mr, v, s->include_path, real) < 0)
		return -1;
	size_t i;
	if (!strmap_get(&mr->block_index, real, &i)) {
		if (mr->depth == MODEL_MAX_INCLUDE_DEPTH) {
			yr_error(r, v, NULL, "includes nest deeper than %d files",
				 MODEL_MAX_INCLUDE_DEPTH);
			return -1;
		}
		if (mr->root->n_files >= MODEL_MAX_FILES) {
			yr_error(r, v, "include the same parts more often instead of more parts",
				 "a model may read at most %d files", MODEL_MAX_FILES);
			mr->stopped = true;
			return -1;
		}
		i = read_block(mr, v, s->include_path, real);
	}
	const struct model_block *b = &mr->root->blocks[i];
	s->body = b->ops;	/* borrowed: the cache owns them */
	s->n_body = b->n_ops;
	return b->ok ? 0 : -1;
}
