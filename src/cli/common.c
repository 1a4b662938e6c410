#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file_read.h"
#include "core/paths.h"
#include "core/suggest.h"
#include "core/xalloc.h"
#include "model/op_count.h"
#include "workload/workload_file.h"

static const char *const format_names[] = {"table", "csv", "json"};

/* The --format option's spec in s, or NULL. */
static const struct opt_spec *format_spec(const struct cmd_spec *s)
{
	for (const struct opt_spec *o = s->opts; o->name; o++)
		if (!strcmp(o->name, "format"))
			return o;
	return NULL;
}

/* Is name one of the formats the option's help begins with ("table, csv
 * or json (default ...")?  A word is matched whole. */
static bool accepted(const struct cmd_spec *s, const char *name)
{
	const struct opt_spec *o = format_spec(s);
	if (!o || !o->help)
		return true;
	size_t list = strcspn(o->help, "(;");
	size_t n = strlen(name);
	for (const char *w = o->help; w < o->help + list; w++) {
		bool start = w == o->help || w[-1] == ' ' || w[-1] == ',';
		if (start && !strncmp(w, name, n) &&
		    (w[n] == ',' || w[n] == ' ' || w[n] == '\0'))
			return true;
	}
	return false;
}

/* The accepted list as the help spells it ("table, csv or json"). */
static void accepted_list(const struct cmd_spec *s, char *buf, size_t len)
{
	const struct opt_spec *o = format_spec(s);
	const char *h = o && o->help ? o->help : "table, csv or json";
	size_t n = strcspn(h, "(;");
	while (n && h[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, h);
}

/* -o FILE.json or FILE.csv without --format: that format, when accepted. */
static enum out_format by_extension(const struct cmd_spec *s, const char *file)
{
	const char *dot = file ? strrchr(file, '.') : NULL;
	if (dot && strchr(dot, '/'))
		dot = NULL;
	for (int i = 1; dot && i < 3; i++)
		if (!strcmp(dot + 1, format_names[i]) && accepted(s, format_names[i]))
			return (enum out_format)i;
	return FORMAT_TABLE;
}

int cli_format(const struct parsed *p, const struct cmd_spec *s,
	       enum out_format *out)
{
	const char *v = opt_value(p, s, "format");
	if (!v) {
		*out = by_extension(s, opt_value(p, s, "output"));
		return 0;
	}
	char list[96];
	accepted_list(s, list, sizeof(list));
	const char *names[3];
	size_t n = 0;
	for (int i = 0; i < 3; i++) {
		if (!accepted(s, format_names[i]))
			continue;
		if (!strcmp(v, format_names[i])) {
			*out = (enum out_format)i;
			return 0;
		}
		names[n++] = format_names[i];
	}
	char hint[64];
	const char *h = suggest_hint(v, names, n, hint, sizeof(hint));
	return usage_error(s, "unknown format '%s': expected %s%s%s%s", v, list,
			   h ? " (" : "", h ? h : "", h ? ")" : "");
}

int cli_stdout_stage(const struct cmd_spec *s, const char *option,
		     const char *name, char **tmp)
{
	*tmp = NULL;
	if (isatty(STDOUT_FILENO))
		return usage_error(s, "%s - writes binary data to standard output, which is a terminal: redirect it or name a file",
				   option);
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpuplan-stdout.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "gpuplan: cannot make a temporary folder for %s -: %s\n",
			option, strerror(errno));
		free(dir);
		return 1;
	}
	*tmp = xasprintf("%s/%s", dir, name);
	free(dir);
	return 0;
}

int cli_stdout_finish(char **tmp, bool deliver, int rc)
{
	if (!*tmp)
		return rc;
	if (deliver && rc == 0) {
		char *data;
		size_t len;
		if (file_read_all(*tmp, (size_t)1 << 31, &data, &len) != FILE_READ_OK ||
		    fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
			fprintf(stderr, "gpuplan: cannot write to standard output\n");
			rc = 1;
		}
		free(data);
	}
	unlink(*tmp);
	char *slash = strrchr(*tmp, '/');
	*slash = '\0';
	rmdir(*tmp);
	free(*tmp);
	*tmp = NULL;
	return rc;
}

int cli_one_stdin(const struct cmd_spec *s, const char *const *paths, size_t n)
{
	if (file_count_stdin(paths, n) > 1)
		return usage_error(s, "'-' (standard input) may be given once: it can be read only once");
	return 0;
}

int cli_one_stdin_of(const struct parsed *p, const struct cmd_spec *s,
		     const char *const *names, bool positionals)
{
	size_t n = 0;
	for (size_t i = 0; names[i]; i++) {
		const struct opt_result *r = opt_find(p, s, names[i]);
		if (r && r->set)
			n += r->list ? r->nlist : 1;
	}
	if (positionals)
		n += p->nargs;
	const char **all = xcalloc(n + 1, sizeof(*all));
	size_t k = 0;
	for (size_t i = 0; names[i]; i++) {
		const struct opt_result *r = opt_find(p, s, names[i]);
		if (!r || !r->set)
			continue;
		if (r->list)
			for (size_t j = 0; j < r->nlist; j++)
				all[k++] = r->list[j];
		else
			all[k++] = r->value;
	}
	for (size_t i = 0; positionals && i < p->nargs; i++)
		all[k++] = p->args[i];
	int rc = cli_one_stdin(s, all, k);
	free(all);
	return rc;
}

int cli_report_problems(const struct gp_errors *errs)
{
	gp_errors_print(errs, stderr);
	if (gp_errors_count(errs) > 1)
		fprintf(stderr, "gpuplan: %zu problems\n", gp_errors_count(errs));
	return 2;
}

static int load(const char *const *files, size_t n, bool shipped,
		struct catalog *c)
{
	if (file_count_stdin(files, n) > 1) {
		fprintf(stderr, "gpuplan: '-' (standard input) may be given once: it can be read only once\n");
		catalog_init(c);
		return 2;
	}
	char *data = shipped ? data_dir_require("catalogs") : data_dir_find();
	if (!data && shipped)
		return 1;
	struct gp_errors errs;
	gp_errors_init(&errs);
	catalog_init(c);
	int rc = shipped ? catalog_load_shipped(c, data, &errs)
			 : catalog_load(c, files, n, data, &errs);
	free(data);
	if (rc < 0) {
		rc = cli_report_problems(&errs);
		catalog_free(c);
	}
	gp_errors_free(&errs);
	return rc < 0 ? 2 : rc;
}

int cli_load_catalog(const struct parsed *p, const struct cmd_spec *s,
		     struct catalog *c)
{
	const struct opt_result *r = opt_find(p, s, "catalog");
	if (r && r->set)
		return load(r->list, r->nlist, false, c);
	return load(NULL, 0, true, c);
}

int cli_load_catalog_files(const char *const *files, size_t n,
			   struct catalog *c)
{
	return load(files, n, false, c);
}

#define DEFAULT_WORKLOADS "profiles/workloads/default.yaml"

int cli_load_workloads(const char *file, struct workload_file *wf)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc;
	if (file)
		rc = workload_file_load(wf, file, &errs);
	else {
		char *data = data_dir_require("workloads");
		if (!data) {
			memset(wf, 0, sizeof(*wf));
			return 1;
		}
		char *path = xasprintf("%s/%s", data, DEFAULT_WORKLOADS);
		rc = workload_file_load_as(wf, path, DEFAULT_WORKLOADS, &errs);
		free(path);
		free(data);
	}
	if (rc < 0)
		rc = cli_report_problems(&errs);
	gp_errors_free(&errs);
	return rc;
}

int cli_load_model(const char *arg, long seq, long list_ops, struct model *m,
		   struct model_graph *g)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	char *shown;
	char *path = model_find(arg, &shown);
	int rc = model_load_named(m, path, shown, &errs) < 0 ||
			 (list_ops > 0 &&
			  model_check_op_count(m, (uint64_t)list_ops, "--ops lists",
					       "leave out --ops for the totals",
					       &errs) < 0) ||
			 model_build(m, seq, g, &errs) < 0
		 ? 2 : 0;
	free(path);
	free(shown);
	if (rc)
		cli_report_problems(&errs);
	gp_errors_free(&errs);
	return rc;
}
