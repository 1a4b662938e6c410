/*
 * cmd_workload.c - `gpuplan workload list|validate`: the workloads the
 * planner plans, read from a workload file (the shipped default when none
 * is given), listed as a table, CSV or JSON, or checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "core/output.h"
#include "core/paths.h"
#include "core/table.h"
#include "core/xalloc.h"
#include "workload/workload.h"
#include "workload/workload_file.h"
#include "workload/workload_json.h"

/* "2T", "1.28M", "20K", "64": counts as they are written in files. */
static char *count_text(double v, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *suffix;
	} steps[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}, {1, ""}};
	size_t i = 0;
	while (i + 1 < sizeof(steps) / sizeof(steps[0]) && v < steps[i].scale)
		i++;
	snprintf(buf, len, "%.6g%s", v / steps[i].scale, steps[i].suffix);
	return buf;
}

/* ---- list ---- */

static const struct opt_spec list_opts[] = {
	{"workload", 'w', OPT_VALUE, "FILE",
	 "read this workload file instead of the shipped default"},
	FORMAT_OPTION,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec list_spec = {
	"workload list", NULL,
	"List the workloads of a workload file: what the planner will plan.",
	list_opts, 0, 0,
	"Without --workload, lists the shipped profiles/workloads/default.yaml,\n"
	"the planner's default.  Training shows its tokens or samples x epochs,\n"
	"tokens per sample, global batch, deadline and budget; inference its\n"
	"request rate, hours a month, prompt+output tokens and p99 latency.",
};

static void training_cells(const struct training *t, char cell[5][64])
{
	char a[32];
	if (t->by_tokens)
		snprintf(cell[0], 64, "%s tokens", count_text(t->tokens, a, 32));
	else
		snprintf(cell[0], 64, "%s samples x %ld epoch%s",
			 count_text(t->samples, a, 32), t->epochs,
			 t->epochs == 1 ? "" : "s");
	if (t->seq)
		snprintf(cell[1], 64, "%ld", t->seq);
	else
		snprintf(cell[1], 64, "-");
	snprintf(cell[2], 64, "%ld", t->global_batch);
	if (t->deadline > 0)
		snprintf(cell[3], 64, "deadline %s",
			 units_format(UNIT_DURATION, t->deadline, NULL, a, 32));
	else
		snprintf(cell[3], 64, "-");
	if (t->has_budget)
		money_format(&t->budget, cell[4], 64);
	else
		snprintf(cell[4], 64, "-");
}

/* "1024", or "512-1536" for lengths drawn from a range. */
static void length_text(const long range[2], char *buf, size_t len)
{
	if (range[0] == range[1])
		snprintf(buf, len, "%ld", range[0]);
	else
		snprintf(buf, len, "%ld-%ld", range[0], range[1]);
}

static void inference_cells(const struct inference *in, char cell[5][64])
{
	char a[32];
	snprintf(cell[0], 64, "%s%s, %.6g h/month",
		 units_format(UNIT_FREQUENCY, in->request_rate, NULL, a, 32),
		 in->trace ? " (trace)" : "", in->serving_per_month / 3600);
	if (in->has_kv) {
		char p[24], o[24];
		length_text(in->prompt_range, p, sizeof(p));
		length_text(in->output_range, o, sizeof(o));
		snprintf(cell[1], 64, "%s+%s", p, o);
	} else
		snprintf(cell[1], 64, "-");
	snprintf(cell[2], 64, "-");
	/* every target set: "p99 10 s" or "TTFT p99 2 s, TPOT p99 100 ms" */
	size_t k = 0;
	cell[3][0] = '\0';
	for (int t = 0; t < TARGET_COUNT && k < 64; t++) {
		if (in->target[t] <= 0)
			continue;
		int w = snprintf(cell[3] + k, 64 - k, "%s%s %s", k ? ", " : "",
				 target_name((enum latency_target)t)->label,
				 units_format(UNIT_DURATION, in->target[t], NULL, a, 32));
		if (w < 0)
			break;
		k += (size_t)w;
	}
	snprintf(cell[4], 64, "-");
}

static void list_table(const struct workload_file *wf, FILE *out)
{
	static const char *const header[] = {
		"WORKLOAD", "KIND", "MODEL", "PRECISION", "AMOUNT",
		"TOKENS/SAMPLE", "BATCH", "TARGET", "BUDGET"};
	struct table t;
	table_init(&t, 9, header);
	table_right_align(&t, 5);
	table_right_align(&t, 6);
	for (size_t i = 0; i < wf->n; i++) {
		const struct workload *w = &wf->v[i];
		char cell[5][64];
		if (w->kind == WORKLOAD_TRAINING)
			training_cells(&w->train, cell);
		else
			inference_cells(&w->infer, cell);
		const char *row[] = {w->name, workload_kind_name(w->kind),
				     w->model->name, precision_name(w->precision),
				     cell[0], cell[1], cell[2], cell[3], cell[4]};
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_free(&t);
	fprintf(out, "\n%zu workload%s from %s.\n", wf->n, wf->n == 1 ? "" : "s",
		wf->file);
}

/* ---- CSV: one column per field, empty where it does not apply ---- */

enum {
	CSV_TOKENS = 5, CSV_SAMPLES, CSV_EPOCHS, CSV_SEQ, CSV_BATCH,
	CSV_TOTAL_SAMPLES, CSV_TOTAL_TOKENS, CSV_STEPS, CSV_OPTIMIZER,
	CSV_ZERO, CSV_RECOMPUTE, CSV_MAX_GPUS, CSV_MAX_TP, CSV_MAX_PP,
	CSV_DEADLINE, CSV_BUDGET, CSV_CURRENCY, CSV_SPOT, CSV_DECODE,
	CSV_BYTES, CSV_RATE, CSV_PROMPT, CSV_OUTPUT, CSV_P99, CSV_HOURS,
	CSV_KV, CSV_NCOLS
};

static const char *const csv_header[CSV_NCOLS] = {
	"name", "kind", "model", "model_file", "precision", "tokens",
	"samples_per_epoch", "epochs", "seq_tokens", "global_batch_samples",
	"total_samples", "total_tokens", "steps", "optimizer", "zero_stage",
	"recompute", "max_gpus", "max_tp", "max_pp", "deadline_s",
	"budget_amount", "budget_currency", "spot", "decode_s_per_sample",
	"bytes_per_sample", "request_rate_per_s", "prompt_tokens",
	"output_tokens", "p99_latency_s", "hours_per_month", "kv_precision"};

static void num(char cell[][32], int col, double v)
{
	if (v > 0)
		snprintf(cell[col], 32, "%.15g", v);
}

static void csv_training(const struct training *t, char cell[][32])
{
	num(cell, CSV_TOKENS, t->tokens);
	num(cell, CSV_SAMPLES, t->samples);
	num(cell, CSV_EPOCHS, (double)t->epochs);
	num(cell, CSV_SEQ, (double)t->seq);
	num(cell, CSV_BATCH, (double)t->global_batch);
	num(cell, CSV_TOTAL_SAMPLES, t->total_samples);
	num(cell, CSV_TOTAL_TOKENS, t->total_tokens);
	num(cell, CSV_STEPS, t->steps);
	snprintf(cell[CSV_OPTIMIZER], 32, "%s", optimizer_name(t->optimizer));
	if (t->zero_auto)
		snprintf(cell[CSV_ZERO], 32, "auto");
	else
		snprintf(cell[CSV_ZERO], 32, "%d", t->zero);
	snprintf(cell[CSV_RECOMPUTE], 32, "%s",
		 t->recompute_auto ? "auto" : recompute_name(t->recompute));
	num(cell, CSV_MAX_GPUS, (double)t->max_gpus);
	num(cell, CSV_MAX_TP, (double)t->max_tp);
	num(cell, CSV_MAX_PP, (double)t->max_pp);
	num(cell, CSV_DEADLINE, t->deadline);
	if (t->has_budget) {
		num(cell, CSV_BUDGET, t->budget.amount);
		snprintf(cell[CSV_CURRENCY], 32, "%s", t->budget.currency);
	}
	snprintf(cell[CSV_SPOT], 32, "%s", t->spot ? "true" : "false");
	if (t->has_input) {
		num(cell, CSV_DECODE, t->decode_time_per_sample);
		num(cell, CSV_BYTES, t->bytes_per_sample);
	}
}

static void csv_inference(const struct inference *in, char cell[][32])
{
	num(cell, CSV_RATE, in->request_rate);
	if (in->has_kv) {
		snprintf(cell[CSV_PROMPT], 32, "%ld", in->prompt_tokens);
		snprintf(cell[CSV_OUTPUT], 32, "%ld", in->output_tokens);
		snprintf(cell[CSV_KV], 32, "%s", precision_name(in->kv_precision));
	}
	num(cell, CSV_P99, in->target[TARGET_P99]);
	num(cell, CSV_HOURS, in->serving_per_month / 3600);
}

static void list_csv(const struct workload_file *wf, FILE *out)
{
	struct table t;
	table_init(&t, CSV_NCOLS, csv_header);
	for (size_t i = 0; i < wf->n; i++) {
		const struct workload *w = &wf->v[i];
		char cell[CSV_NCOLS][32];
		memset(cell, 0, sizeof(cell));
		if (w->kind == WORKLOAD_TRAINING)
			csv_training(&w->train, cell);
		else
			csv_inference(&w->infer, cell);
		const char *row[CSV_NCOLS];
		for (int c = 0; c < CSV_NCOLS; c++)
			row[c] = cell[c];
		row[0] = w->name;
		row[1] = workload_kind_name(w->kind);
		row[2] = w->model->name;
		row[3] = w->model_file;
		row[4] = precision_name(w->precision);
		table_add_row(&t, row);
	}
	table_print_csv(&t, out);
	table_free(&t);
}

static void list_json(const struct workload_file *wf, FILE *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "schema",
			    json_text("gpuplan/workload-list/v1"));
	json_object_set_new(root, "file", json_text(wf->file));
	json_t *arr = json_array();
	for (size_t i = 0; i < wf->n; i++)
		json_array_append_new(arr, workload_to_json(&wf->v[i]));
	json_object_set_new(root, "workloads", arr);
	json_write(out, root);
	json_decref(root);
}

static int workload_list(int argc, char **argv)
{
	struct parsed p;
	struct workload_file wf = {0};
	enum out_format fmt = FORMAT_TABLE;
	int rc = opts_parse(&list_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = cli_format(&p, &list_spec, &fmt)) ||
	    (rc = cli_load_workloads(opt_value(&p, &list_spec, "workload"), &wf)))
		goto out;
	struct output o;
	if ((rc = output_open_to(&o, opt_value(&p, &list_spec, "output"))))
		goto out;
	if (fmt == FORMAT_TABLE)
		list_table(&wf, o.f);
	else if (fmt == FORMAT_CSV)
		list_csv(&wf, o.f);
	else
		list_json(&wf, o.f);
	rc = output_finish(&o, opt_value(&p, &list_spec, "output"));
out:
	workload_file_free(&wf);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

/* ---- validate ---- */

static const struct opt_spec validate_opts[] = {
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec validate_spec = {
	"workload validate", "FILE...",
	"Check workload files, and the model files they name, and report every problem.",
	validate_opts, 1, -1,
	"Each file is loaded on its own; a model path is relative to the folder\n"
	"of the workload file that names it.  Exit status 2 when any problem is\n"
	"found.",
};

struct tally {
	size_t training, inference, models;
};

static int workload_validate(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&validate_spec, argc, argv, &p);
	if (rc != OPTS_OK)
		goto out;
	struct gp_errors errs;
	gp_errors_init(&errs);
	struct tally n = {0};
	for (size_t i = 0; i < p.nargs; i++) {
		struct workload_file wf;
		workload_file_load(&wf, p.args[i], &errs);
		for (size_t k = 0; k < wf.n; k++)
			(*(wf.v[k].kind == WORKLOAD_TRAINING ? &n.training
							    : &n.inference))++;
		n.models += wf.n_models;
		workload_file_free(&wf);
	}
	if (gp_errors_count(&errs))
		rc = cli_report_problems(&errs);
	else
		printf("ok: %zu file%s, %zu workload%s (%zu training, %zu inference), %zu model file%s\n",
		       p.nargs, p.nargs == 1 ? "" : "s",
		       n.training + n.inference,
		       n.training + n.inference == 1 ? "" : "s", n.training,
		       n.inference, n.models, n.models == 1 ? "" : "s");
	gp_errors_free(&errs);
out:
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

/* ---- dispatch ---- */

static const struct command workload_commands[] = {
	{"list", workload_list, "list the workloads the planner will plan"},
	{"validate", workload_validate, "check workload files and their models, every problem"},
	{NULL, NULL, NULL},
};

int cmd_workload(int argc, char **argv)
{
	return run_subcommand("workload", workload_commands, argc, argv);
}
