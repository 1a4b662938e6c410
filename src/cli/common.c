#include "common.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/paths.h"
#include "core/suggest.h"
#include "core/xalloc.h"

int cli_format(const struct parsed *p, const struct cmd_spec *s,
	       enum out_format *out)
{
	static const char *const names[] = {"table", "csv", "json"};
	const char *v = opt_value(p, s, "format");
	const char *file = opt_value(p, s, "output");
	if (!v) {
		bool terminal = isatty(STDOUT_FILENO) && (!file || !strcmp(file, "-"));
		*out = terminal ? FORMAT_TABLE : FORMAT_JSON;
		return 0;
	}
	for (int i = 0; i < 3; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (enum out_format)i;
			return 0;
		}
	char hint[64];
	const char *h = suggest_hint(v, names, 3, hint, sizeof(hint));
	return usage_error(s, "unknown format '%s': expected table, csv or json%s%s%s",
			   v, h ? " (" : "", h ? h : "", h ? ")" : "");
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
