/*
 * Workload loading: the shipped default workloads with every derived figure
 * computed by hand, the defaults and path rules on a small fixture written
 * here, and the JSON form.  Run from the source root (ctest does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "workload/workload.h"
#include "workload/workload_file.h"
#include "workload/workload_json.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static const struct workload *find(const struct workload_file *wf,
				   const char *name)
{
	const struct workload *w = workload_find(wf, name);
	if (!w)
		fprintf(stderr, "no workload '%s'\n", name);
	CHECK(w != NULL);
	return w;
}

/* inspect-train: 20K images x 100 epochs = 2e6 samples; / 64 = 31250
 * steps exactly.  The input figures are the file's: 20 ms and
 * 640 x 640 x 3 = 1228800 B. */
static void check_inspect(const struct workload_file *wf)
{
	const struct workload *w = find(wf, "inspect-train");
	if (!w)
		return;
	CHECK(w->kind == WORKLOAD_TRAINING);
	CHECK_STR(w->model->name, "yolo-inspect-640");
	CHECK_STR(w->model_file, "profiles/models/yolo-inspect-640.yaml");
	CHECK(w->precision == PREC_BF16);
	CHECK(!w->train.by_tokens);
	CHECK_NEAR(w->train.samples, 20e3, 0);
	CHECK(w->train.epochs == 100);
	CHECK(w->train.seq == 0);
	CHECK_NEAR(w->train.total_samples, 2e6, 0);
	CHECK_NEAR(w->train.total_tokens, 0, 0);
	CHECK_NEAR(w->train.steps, 31250, 0);
	CHECK(w->train.optimizer == OPTIMIZER_SGD);
	CHECK_NEAR(w->train.deadline, 24 * 3600.0, 0);
	CHECK(w->train.has_budget);
	CHECK_STR(w->train.budget.currency, "CNY");
	CHECK_NEAR(w->train.budget.amount, 5000, 0);
	CHECK(w->train.spot);
	CHECK(w->train.has_input);
	CHECK_NEAR(w->train.decode_time_per_sample, 0.020, 1e-12);
	CHECK_NEAR(w->train.bytes_per_sample, 640 * 640 * 3, 0);

	w = find(wf, "inspect-serve");
	if (!w)
		return;
	CHECK(w->kind == WORKLOAD_INFERENCE);
	CHECK(w->precision == PREC_INT8);
	CHECK_NEAR(w->infer.request_rate, 20, 1e-12);
	CHECK_NEAR(w->infer.target[TARGET_P99], 0.050, 1e-12);
	CHECK_NEAR(w->infer.serving_per_month, 730 * 3600.0, 0);
	CHECK(!w->infer.has_kv);
	CHECK(w->infer.prompt_tokens == 0 && w->infer.output_tokens == 0);
}

/* Llama-2-7B: 300M tokens / 4096 = 73242.1875 sequences, / 64 =
 * 1144.4 -> 1145 steps; 2T / 4096 = 488281250 sequences, / 1024 =
 * 476837.2 -> 476838 steps; 120/min = 2/s. */
static void check_llama(const struct workload_file *wf)
{
	const struct workload *w = find(wf, "llama7b-finetune");
	if (!w)
		return;
	CHECK_STR(w->model->name, "llama-2-7b");
	CHECK(w->train.by_tokens);
	CHECK_NEAR(w->train.tokens, 300e6, 0);
	CHECK(w->train.seq == 4096);
	CHECK(w->train.epochs == 1);
	CHECK_NEAR(w->train.total_samples, 73242.1875, 0);
	CHECK_NEAR(w->train.total_tokens, 300e6, 0);
	CHECK_NEAR(w->train.steps, 1145, 0);
	CHECK(w->train.optimizer == OPTIMIZER_ADAMW);
	CHECK(w->train.zero == 2);
	CHECK(w->train.recompute == RECOMPUTE_SELECTIVE);
	CHECK(w->train.max_gpus == 16 && w->train.max_tp == 0);
	CHECK_NEAR(w->train.deadline, 3 * 86400.0, 0);
	CHECK_STR(w->train.budget.currency, "USD");
	CHECK(!w->train.spot);
	CHECK(!w->train.has_input);

	w = find(wf, "llm-pretrain");
	if (!w)
		return;
	CHECK_NEAR(w->train.tokens, 2e12, 0);
	CHECK_NEAR(w->train.total_samples, 488281250, 0);
	CHECK_NEAR(w->train.steps, 476838, 0);
	CHECK(w->train.global_batch == 1024);
	CHECK(w->train.max_gpus == 2048 && w->train.max_tp == 8);
	CHECK_NEAR(w->train.deadline, 30 * 86400.0, 0);
	CHECK(!w->train.has_budget);

	w = find(wf, "llama7b-chat");
	if (!w)
		return;
	CHECK_NEAR(w->infer.request_rate, 2, 1e-12);
	CHECK(w->infer.has_kv);
	CHECK(w->infer.prompt_tokens == 1024 && w->infer.output_tokens == 256);
	CHECK(w->infer.kv_precision == PREC_BF16);
	CHECK_NEAR(w->infer.target[TARGET_P99], 10, 0);
	CHECK_NEAR(w->infer.serving_per_month, 308 * 3600.0, 0);
}

static void test_default_file(void)
{
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = workload_file_load(&wf, "profiles/workloads/default.yaml",
				    &errs);
	gp_errors_print(&errs, stderr);
	CHECK(rc == 0);
	CHECK(errs.n == 0);
	CHECK(wf.n == 5);
	CHECK(wf.n_models == 2);	/* each model file loaded once */
	check_inspect(&wf);
	check_llama(&wf);
	/* workloads sharing a model file share the loaded model */
	const struct workload *a = workload_find(&wf, "llama7b-chat");
	const struct workload *b = workload_find(&wf, "LLM-PRETRAIN");
	CHECK(a && b && a->model == b->model);
	workload_file_free(&wf);
	gp_errors_free(&errs);
}

static const char *lm_model =
	"schema: gpuplan/model/v1\n"
	"name: fix-lm\n"
	"kind: transformer\n"
	"transformer: {architecture: decoder, layers: 2, hidden: 64, heads: 4,"
	" ffn: 256, ffn_kind: gelu, vocab: 1000, norm: layernorm,"
	" positions: learned, max_seq: 512}\n";

static const char *fixture =
	"schema: gpuplan/workload/v1\n"
	"workloads:\n"
	"  - name: defaults\n"
	"    kind: training\n"
	"    model: ../models/lm.yaml\n"
	"    precision: fp32\n"
	"    samples: 1000\n"
	"    global_batch: 30\n"
	"  - name: serve-int8\n"
	"    kind: inference\n"
	"    model: ./../models/lm.yaml\n"
	"    precision: int8\n"
	"    request_rate: 3000/min\n"
	"    prompt_tokens: {min: 50, max: 99}\n"
	"    output_tokens: 412\n"
	"    p99_latency: 1500ms\n"
	"  - name: serve-kv\n"
	"    kind: inference\n"
	"    model: ../models/lm.yaml\n"
	"    precision: fp16\n"
	"    request_rate: 1/s\n"
	"    prompt_tokens: 10\n"
	"    output_tokens: 0\n"
	"    p99_latency: 1s\n"
	"    hours_per_month: 744h\n"
	"    kv_precision: fp8\n";

/* Defaults (epochs 1, adamw, ZeRO 0, no recompute, seq = max_seq, 730 h,
 * KV cache in bf16 under int8 weights) and ../ paths shown cleanly. */
static void test_fixture(const char *dir)
{
	char models[256], wls[256], model[300], file[300];
	snprintf(models, sizeof(models), "%s/models", dir);
	snprintf(wls, sizeof(wls), "%s/workloads", dir);
	snprintf(model, sizeof(model), "%s/lm.yaml", models);
	snprintf(file, sizeof(file), "%s/w.yaml", wls);
	mkdir(models, 0700);
	mkdir(wls, 0700);
	write_file(model, lm_model);
	write_file(file, fixture);
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(workload_file_load_as(&wf, file, "w/w.yaml", &errs) == 0);
	gp_errors_print(&errs, stderr);
	CHECK(wf.n == 3 && wf.n_models == 1);
	const struct workload *w = find(&wf, "defaults");
	if (w) {
		CHECK_STR(w->model_file, "models/lm.yaml");
		CHECK(w->train.epochs == 1);
		CHECK(w->train.seq == 512);
		CHECK_NEAR(w->train.total_samples, 1000, 0);
		CHECK_NEAR(w->train.total_tokens, 512000, 0);
		CHECK_NEAR(w->train.steps, 34, 0);	/* 1000 / 30 = 33.3 */
		CHECK(w->train.optimizer == OPTIMIZER_ADAMW);
		CHECK(w->train.zero == 0);
		CHECK(w->train.recompute == RECOMPUTE_NONE);
		CHECK(w->train.deadline == 0 && !w->train.has_budget);
		CHECK(w->at.line == 3 && w->at.col == 5);
		CHECK(w->model_at.line == 5 && w->model_at.col == 12);
		CHECK_STR(w->at.file, "w/w.yaml");
	}
	w = find(&wf, "serve-int8");
	if (w) {
		CHECK_STR(w->model_file, "models/lm.yaml");
		CHECK_NEAR(w->infer.request_rate, 50, 1e-12);
		/* lengths drawn from 50..99: the mean 74.5 rounds up */
		CHECK(w->infer.prompt_range[0] == 50 && w->infer.prompt_range[1] == 99);
		CHECK(w->infer.prompt_tokens == 75);
		CHECK(w->infer.output_range[0] == 412 && w->infer.output_range[1] == 412);
		CHECK_NEAR(w->infer.target[TARGET_P99], 1.5, 1e-12);
		CHECK_NEAR(w->infer.serving_per_month, 730 * 3600.0, 0);
		CHECK(w->infer.kv_precision == PREC_BF16);
	}
	w = find(&wf, "serve-kv");
	if (w) {
		CHECK(w->infer.kv_precision == PREC_FP8);
		CHECK_NEAR(w->infer.serving_per_month, 744 * 3600.0, 0);
		json_t *j = workload_to_json(w);
		json_t *in = json_object_get(j, "inference");
		CHECK_STR(json_string_value(json_object_get(j, "model_file")),
			  "models/lm.yaml");
		CHECK_NEAR(json_number_value(json_object_get(in, "p99_latency_s")), 1, 0);
		CHECK_NEAR(json_number_value(json_object_get(in, "request_rate_per_s")), 1, 0);
		CHECK_NEAR(json_number_value(json_object_get(in, "hours_per_month")), 744, 0);
		CHECK_STR(json_string_value(json_object_get(in, "kv_precision")), "fp8");
		CHECK_STR(json_string_value(json_object_get(j, "defined_at")),
			  "w/w.yaml:17:5");
		json_decref(j);
	}
	workload_file_free(&wf);
	gp_errors_free(&errs);
	unlink(file);
	unlink(model);
	rmdir(wls);
	rmdir(models);
}

/* A training workload's JSON: totals and null for what was not given. */
static void test_training_json(void)
{
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	if (workload_file_load(&wf, "profiles/workloads/default.yaml", &errs)) {
		CHECK(0);
		workload_file_free(&wf);
		gp_errors_free(&errs);
		return;
	}
	json_t *j = workload_to_json(workload_find(&wf, "llm-pretrain"));
	json_t *t = json_object_get(j, "training");
	CHECK_NEAR(json_number_value(json_object_get(t, "deadline_s")), 2592000, 0);
	CHECK_NEAR(json_number_value(json_object_get(t, "total_tokens")), 2e12, 0);
	CHECK_NEAR(json_number_value(json_object_get(t, "steps")), 476838, 0);
	CHECK(json_is_null(json_object_get(t, "budget")));
	CHECK(json_is_null(json_object_get(t, "samples_per_epoch")));
	CHECK(json_is_null(json_object_get(json_object_get(t, "parallelism"), "max_pp")));
	json_decref(j);
	workload_file_free(&wf);
	gp_errors_free(&errs);
}

/* A missing file is one located error, and the struct is safe to free. */
static void test_missing_file(void)
{
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(workload_file_load(&wf, "tests/no-such-workloads.yaml", &errs) == -1);
	CHECK(errs.n == 1);
	CHECK(wf.n == 0);
	workload_file_free(&wf);
	gp_errors_free(&errs);
}

/*
 * Names are unique case-blind, checked in one pass over a hash of them:
 * 5,000 workloads with two repeats (in other cases) give exactly two
 * problems, each at the repeat with the line of the first.
 */
static void test_many_names(const char *dir)
{
	char model[300], file[300];
	snprintf(model, sizeof(model), "%s/lm.yaml", dir);
	snprintf(file, sizeof(file), "%s/many.yaml", dir);
	write_file(model, lm_model);
	FILE *f = fopen(file, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	const int n = 5000;
	fprintf(f, "schema: gpuplan/workload/v1\nworkloads:\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "  - {name: %s-%d, kind: training, model: lm.yaml,"
			   " precision: bf16, samples: 1000, global_batch: 10}\n",
			i == 4000 ? "JOB" : i == 4999 ? "Job" : "job",
			i == 4000 ? 17 : i == 4999 ? 3999 : i);
	fclose(f);
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(workload_file_load_as(&wf, file, "many.yaml", &errs) == -1);
	CHECK(wf.n == (size_t)n && errs.n == 2);
	char msg[300];
	/* job-i is on line 3 + i */
	gp_error_format(&errs.v[0], msg, sizeof(msg));
	CHECK_STR(msg, "many.yaml:4003:5: duplicate workload name 'JOB-17' (first defined at many.yaml:20)");
	gp_error_format(&errs.v[1], msg, sizeof(msg));
	CHECK_STR(msg, "many.yaml:5002:5: duplicate workload name 'Job-3999' (first defined at many.yaml:4002)");
	CHECK(workload_find(&wf, "JOB-4321") == &wf.v[4321]);
	workload_file_free(&wf);
	gp_errors_free(&errs);
	unlink(file);
	unlink(model);
}

int main(void)
{
	char dir[] = "/tmp/gpuplan-wl.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	test_default_file();
	test_fixture(dir);
	test_training_json();
	test_missing_file();
	test_many_names(dir);
	rmdir(dir);
	return check_summary("workload");
}
