/*
 * fuzz_planner.c - what a workload file makes the planner do: every input
 * that loads as a workload (with its models) is planned against a small
 * price list, as `gpuplan plan --format json` plans it, and its plan is
 * read back as `gpuplan report` reads it.
 *
 * The loaders promise that whatever they accept plans to finite figures:
 *   - every option that could run (it fits and has a price) has finite
 *     times, costs, GPU-hours, energy and memory;
 *   - every reason formats to printable text;
 *   - the plan's JSON reads back with the report's reader (no figure
 *     dropped or out of its range).
 * The price list is tests/fuzz/data/catalogs/ (three accelerators, five
 * instances: on demand and spot, one in CNY, 8-GPU nodes with MIG, an
 * owned machine); it is loaded once.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "core/output.h"
#include "core/term_safe.h"
#include "fuzz.h"
#include "option/reason.h"
#include "plan/plan.h"
#include "plan/plan_json.h"
#include "report/plan_load.h"
#include "report/report_data.h"
#include "workload/workload.h"
#include "workload/workload_file.h"

static void check_figure(const struct plan_option *o, const char *what,
			 double v)
{
	if (!isfinite(v))
		fuzz_fail("plan_run", "option %s x%ld: %s is %g", o->inst->name,
			  o->nodes, what, v);
}

static void check_option(const struct plan_option *o)
{
	char reason[PLAN_REASON_LEN + 64];
	for (int i = 0; i < o->n_reasons; i++) {
		plan_reason_format(o, i, reason, sizeof(reason));
		const char *kind;
		long at = text_control_char(reason, 0, &kind);
		if (at >= 0)
			fuzz_fail("plan_reason_format", "a reason holds %s at byte %ld",
				  kind, at);
	}
	if (!o->runnable)
		return;
	const struct { const char *what; double v; } f[] = {
		{"step_s", o->step_s}, {"time_s", o->time_s}, {"mfu", o->mfu},
		{"batch_latency_s", o->batch_latency_s},
		{"p99_latency_s", o->p99_latency_s},
		{"cost_per_million", o->cost_per_million},
		{"gpu_hours", o->gpu_hours}, {"cost", o->cost},
		{"cost_spot", o->cost_spot}, {"energy_kwh", o->energy_kwh},
		{"memory_per_gpu", o->memory_per_gpu},
		{"compute time", o->per_step.compute},
		{"memory time", o->per_step.memory},
		{"communication time", o->per_step.communication},
		{"input time", o->per_step.input},
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		check_figure(o, f[i].what, f[i].v);
	for (size_t i = 0; i < MEM_PARTS; i++)
		check_figure(o, "a part of memory_per_gpu", o->memory_parts[i]);
}

/* plan_run_each's callback: checks each workload's options and adds its
 * JSON to the document, as `gpuplan plan --format json` does. */
static int emit(void *ctx, const struct plan *p, const struct plan_result *r)
{
	json_t **doc = ctx;
	size_t runnable = 0;
	for (size_t i = 0; i < r->n; i++) {
		check_option(&r->v[i]);
		runnable += r->v[i].runnable;
	}
	if (getenv("FUZZ_VERBOSE"))	/* what each input gave, for people */
		fprintf(stderr, "plan: %s: %zu options, %zu runnable, recommended %ld\n",
			r->w->name, r->n, runnable, r->recommended);
	if (!*doc)
		*doc = plan_header_json(p);
	json_array_append_new(json_object_get(*doc, "workloads"),
			      plan_result_json(p, r));
	return 0;
}

/* The document as `plan -o` writes it, read back by the report's reader. */
static void read_back(const json_t *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		fuzz_fail("plan_json", "cannot open a memory stream");
	json_write(m, doc);
	if (fclose(m) != 0)
		fuzz_fail("plan_json", "cannot write the plan to memory");
	struct r_plan rp;
	char why[600];
	if (r_plan_parse(&rp, text, len, "plan.json", true, why, sizeof(why)) != 0)
		fuzz_fail("r_plan_parse", "a plan of an accepted workload is refused by the report: %s",
			  why);
	r_plan_free(&rp);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog *c = fuzz_price_list("planner");
	struct fuzz_files f;
	fuzz_write_files(data, size, "workload.yaml", &f);
	fuzz_link_shipped_models();
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	if (workload_file_load(&wf, f.path[0], &errs) == 0) {
		struct plan_settings s;
		struct plan p;
		json_t *doc = NULL;
		char why[512];
		plan_settings_default(&s);
		if (plan_run_each(&p, c, &wf, &s, emit, &doc, why, sizeof(why)) == 0 &&
		    doc)
			read_back(doc);
		json_decref(doc);
	}
	workload_file_free(&wf);
	gp_errors_free(&errs);
	return 0;
}
