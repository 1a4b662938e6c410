/*
 * training.c - a training workload's fields (the run's length, batch,
 * optimizer, ZeRO, recomputation, limits, cluster, deadline, budget,
 * input pipeline) and the checks that need its model.
 */
#include "training.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework.h"
#include "layout.h"
#include "read_common.h"

/* ---- training ---- */

static const struct yfield parallelism_fields[] = {
	{"max_gpus", false}, {"max_tp", false}, {"max_pp", false},
	{NULL, false},
};

static int read_parallelism(struct yread *r, const struct ynode *map,
			    const char *owner, struct training *t)
{
	const struct ynode *n = ymap_get(map, "parallelism");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'parallelism' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, parallelism_fields) > 0;
	bad |= yr_int(r, n, "max_gpus", 1, 1000000, &t->max_gpus) < 0;
	bad |= yr_int(r, n, "max_tp", 1, 1024, &t->max_tp) < 0;
	bad |= yr_int(r, n, "max_pp", 1, 1024, &t->max_pp) < 0;
	const char *keys[] = {"max_tp", "max_pp"};
	long vals[] = {t->max_tp, t->max_pp};
	for (int i = 0; i < 2 && !bad; i++)
		if (t->max_gpus && vals[i] > t->max_gpus) {
			yr_error(r, ymap_get(n, keys[i]), NULL,
				 "'%s' is %ld but 'max_gpus' is %ld", keys[i],
				 vals[i], t->max_gpus);
			bad = 1;
		}
	return bad ? -1 : 0;
}

static const struct yfield input_fields[] = {
	{"decode_time_per_sample", true}, {"bytes_per_sample", true},
	{NULL, false},
};

static int read_input(struct yread *r, const struct ynode *map,
		      const char *owner, struct training *t)
{
	const struct ynode *n = ymap_get(map, "input");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'input' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, input_fields) > 0;
	bad |= yr_quantity_in(r, n, "decode_time_per_sample", Q_DECODE_TIME,
			      &t->decode_time_per_sample, NULL) < 0;
	bad |= yr_quantity_in(r, n, "bytes_per_sample", Q_SAMPLE_BYTES,
			      &t->bytes_per_sample, NULL) < 0;
	t->has_input = !bad;
	return bad ? -1 : 0;
}

/* ---- goodput ---- */

static const struct yfield goodput_fields[] = {
	{"failure_rate", false}, {"checkpoint_write", false},
	{"checkpoint_interval", false}, {"restart", false}, {NULL, false},
};

/* The per-GPU spellings of a failure rate and the seconds each stands for. */
static const struct {
	const char *suffix;
	double seconds;
} per_gpu[] = {{"/GPU-h", 3600}, {"/GPU-d", 86400}};

/* `failure_rate: 2e-5/GPU-h` (or `4.7e-4/GPU-d`): failures per GPU per
 * hour or day of its running, into failures per GPU per s. */
static int read_failure_rate(struct yread *r, const struct ynode *map,
			     double *out)
{
	const struct ynode *n = ymap_get(map, "failure_rate");
	if (!n)
		return 0;
	const char *text = n->kind == YNODE_SCALAR ? n->text : "";
	size_t len = strlen(text);
	for (size_t i = 0; i < sizeof(per_gpu) / sizeof(per_gpu[0]); i++) {
		size_t k = strlen(per_gpu[i].suffix);
		if (len <= k || strcmp(text + len - k, per_gpu[i].suffix) != 0)
			continue;
		char count[64];
		struct unit_problem p;
		double v;
		snprintf(count, sizeof(count), "%.*s", (int)(len - k), text);
		if (len - k >= sizeof(count) ||
		    units_parse(UNIT_COUNT, count, &v, NULL, &p) < 0)
			break;
		v /= per_gpu[i].seconds;
		if (!quantity_in_range(Q_FAILURE_RATE, v)) {
			yr_error(r, n, NULL, "'failure_rate' must be from %s, found '%.60s'",
				 quantity_range(Q_FAILURE_RATE)->range, text);
			return -1;
		}
		*out = v;
		return 1;
	}
	yr_error(r, n, NULL,
		 "'failure_rate' is failures per GPU: expected a rate like '2e-5/GPU-h' or '4.7e-4/GPU-d', found '%.60s'",
		 text);
	return -1;
}

/* `checkpoint_interval:` a duration, or `optimal` (Young/Daly: 0). */
static int read_checkpoint_interval(struct yread *r, const struct ynode *map,
				    double *out)
{
	const struct ynode *n = ymap_get(map, "checkpoint_interval");
	if (n && n->kind == YNODE_SCALAR && !n->quoted &&
	    strcmp(n->text, "optimal") == 0) {
		*out = 0;
		return 1;
	}
	if (n && n->kind == YNODE_SCALAR && strspn(n->text, "0123456789.eE+-") == strlen(n->text)) {
		yr_error(r, n, NULL,
			 "'checkpoint_interval' expects a duration like '2h' or 'optimal', found '%.60s'",
			 n->text);
		return -1;
	}
	return yr_quantity_in(r, map, "checkpoint_interval", Q_DEADLINE, out, NULL);
}

/* `goodput: none` and `goodput: 1` turn the model off: the cluster is
 * taken to lose nothing to failures and checkpoints. */
static bool goodput_off(const struct ynode *n)
{
	return n->kind == YNODE_SCALAR && !n->quoted &&
	       (strcmp(n->text, "none") == 0 || strcmp(n->text, "1") == 0);
}

/* `goodput:` the inputs the team knows of its cluster; what it leaves
 * out keeps the planner's default (train/goodput.h). */
static int read_goodput(struct yread *r, const struct ynode *map,
			const char *owner, struct goodput_inputs *g)
{
	const struct ynode *n = ymap_get(map, "goodput");
	if (!n)
		return 0;
	g->at = (struct origin){r->file, n->line, n->col};
	if (goodput_off(n)) {
		g->off = true;
		return 0;
	}
	char what[160];
	snprintf(what, sizeof(what), "'goodput' of %s", owner);
	if (n->kind == YNODE_SCALAR) {
		yr_error(r, n, NULL,
			 "%s expects a mapping of its inputs (failure_rate, checkpoint_write, checkpoint_interval, restart), none or 1, found '%.60s'",
			 what, n->text);
		return -1;
	}
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, goodput_fields) > 0;
	bad |= read_failure_rate(r, n, &g->failure_rate) < 0;
	bad |= yr_quantity_in(r, n, "checkpoint_write", Q_LATENCY,
			      &g->checkpoint_write, NULL) < 0;
	bad |= read_checkpoint_interval(r, n, &g->checkpoint_interval) < 0;
	bad |= yr_quantity_in(r, n, "restart", Q_LATENCY, &g->restart, NULL) < 0;
	return bad ? -1 : 0;
}

/* tokens or samples (x epochs), one of them, and a batch that fits. */
static int read_amount(struct yread *r, const struct ynode *map,
		       const char *what, bool optional, struct training *t)
{
	int has_tokens = wl_read_whole_count(r, map, "tokens", Q_TOKENS,
					     &t->tokens);
	int has_samples = wl_read_whole_count(r, map, "samples", Q_SAMPLES,
					      &t->samples);
	int has_epochs = yr_int(r, map, "epochs", 1, 100000, &t->epochs);
	int has_batch = yr_int(r, map, "global_batch", 1, 1000000000,
			       &t->global_batch);
	int bad = has_tokens < 0 || has_samples < 0 || has_epochs < 0 ||
		  has_batch < 0;
	t->by_tokens = ymap_get(map, "tokens") != NULL;
	if (ymap_get(map, "tokens") && ymap_get(map, "samples")) {
		yr_error(r, ymap_get(map, "samples"), NULL,
			 "%s gives both 'tokens' and 'samples': give one", what);
		bad = 1;
	} else if (!ymap_get(map, "tokens") && !ymap_get(map, "samples") &&
		   !optional) {
		yr_error(r, map, NULL,
			 "%s needs 'tokens' (sequence models) or 'samples' (with 'epochs')",
			 what);
		bad = 1;
	}
	if (t->by_tokens && ymap_get(map, "epochs")) {
		yr_error(r, ymap_get(map, "epochs"), NULL,
			 "'epochs' goes with 'samples': with 'tokens' the count is the whole run");
		bad = 1;
	}
	if (has_epochs == 0)
		t->epochs = 1;
	return bad ? -1 : 0;
}

/* `zero:` a ZeRO stage 0 to 3, or `auto` (the planner chooses). */
static int read_zero(struct yread *r, const struct ynode *map,
		     struct training *t)
{
	const struct ynode *n = ymap_get(map, "zero");
	if (n && n->kind == YNODE_SCALAR && !n->quoted &&
	    strcmp(n->text, "auto") == 0) {
		t->zero_auto = true;
		return 1;
	}
	if (n && n->kind == YNODE_SCALAR &&
	    strspn(n->text, "0123456789") != strlen(n->text)) {
		yr_error(r, n, NULL,
			 "'zero' is a ZeRO stage: expected 0, 1, 2, 3 or auto, found '%.60s'",
			 n->text);
		return -1;
	}
	long zero = 0;
	int rc = yr_int(r, map, "zero", 0, 3, &zero);
	t->zero = (int)zero;
	return rc;
}

/* `instance:`, and `gpus:` or `nodes:` (not both): the cluster a team
 * already has.  Whether the instance exists is checked with the catalog
 * (plan_check_instances()). */
static int read_cluster(struct yread *r, const struct ynode *map,
			const char *what, struct training *t)
{
	int bad = yr_name(r, map, "instance", &t->instance) < 0;
	const struct ynode *n = ymap_get(map, "instance");
	if (n)
		t->instance_at = (struct origin){r->file, n->line, n->col};
	int gpus = yr_int(r, map, "gpus", 1, 1000000, &t->fixed_gpus);
	int nodes = yr_int(r, map, "nodes", 1, 1000000, &t->fixed_nodes);
	bad |= gpus < 0 || nodes < 0;
	if (ymap_get(map, "gpus") && ymap_get(map, "nodes")) {
		yr_error(r, ymap_get(map, "nodes"), NULL,
			 "%s gives both 'gpus' and 'nodes': give one", what);
		bad = 1;
	}
	if (gpus == 1 && t->max_gpus && t->fixed_gpus > t->max_gpus) {
		yr_error(r, ymap_get(map, "gpus"), NULL,
			 "'gpus' is %ld but 'parallelism' allows at most %ld (max_gpus)",
			 t->fixed_gpus, t->max_gpus);
		bad = 1;
	}
	n = ymap_get(map, "layout");
	if (n) {
		char owner[160];
		snprintf(owner, sizeof(owner), "'layout' of %s", what);
		bad |= workload_read_layout(r, n, owner, &t->layout) < 0;
	}
	return bad ? -1 : 0;
}

/* `framework:` and what it does not offer: a ZeRO stage, tensor or
 * pipeline parallelism the workload fixes. */
static int read_framework(struct yread *r, const struct ynode *map,
			  const char *what, struct training *t)
{
	const char *names[FRAMEWORK_KINDS - 1];
	for (int k = FRAMEWORK_MEGATRON; k < FRAMEWORK_KINDS; k++)
		names[k - 1] = framework_get((enum framework_kind)k)->name;
	int k = -1;
	t->framework = framework_get(FRAMEWORK_GENERIC);
	if (wl_read_choice(r, map, "framework", names, FRAMEWORK_KINDS - 1,
			   framework_names(), &k) < 0)
		return -1;
	if (k < 0)
		return 0;
	const struct framework *f = framework_get((enum framework_kind)(k + 1));
	t->framework = f;
	t->framework_named = true;
	const struct ynode *n = ymap_get(map, "framework");
	if (!t->zero_auto && !f->zero_stage[t->zero]) {
		yr_error(r, ymap_get(map, "zero") ? ymap_get(map, "zero") : n, NULL,
			 "%s: framework '%s' has no ZeRO-%d (%s)", what,
			 f->name, t->zero, f->limits_from);
		return -1;
	}
	if (!f->model_parallel && (t->layout.tp > 1 || t->layout.pp > 1)) {
		bool tp = t->layout.tp > 1;
		yr_error(r, n, NULL,
			 "%s: framework '%s' has no tensor or pipeline parallelism, but the layout gives %s %ld",
			 what, f->name, tp ? "tp" : "pp",
			 tp ? t->layout.tp : t->layout.pp);
		return -1;
	}
	return 0;
}

int wl_read_training(struct yread *r, const struct ynode *map,
		     const char *what, bool embedded, struct training *t)
{
	const char *optimizer_names[] = {optimizer_name(OPTIMIZER_ADAMW),
					 optimizer_name(OPTIMIZER_ADAM),
					 optimizer_name(OPTIMIZER_SGD)};
	const char *recompute_names[] = {recompute_name(RECOMPUTE_NONE),
					 recompute_name(RECOMPUTE_SELECTIVE),
					 recompute_name(RECOMPUTE_FULL), "auto"};
	int opt = OPTIMIZER_ADAMW, rec = RECOMPUTE_NONE;
	int bad = read_amount(r, map, what, embedded, t) < 0;
	bad |= yr_int(r, map, "seq", 1, 100000000, &t->seq) < 0;
	bad |= wl_read_choice(r, map, "optimizer", optimizer_names, 3,
			      "adamw, adam or sgd", &opt) < 0;
	bad |= read_zero(r, map, t) < 0;
	bad |= wl_read_choice(r, map, "recompute", recompute_names, 4,
			      "none, selective, full or auto", &rec) < 0;
	t->recompute_auto = rec == 3;
	if (t->recompute_auto)
		rec = RECOMPUTE_NONE;
	bad |= read_parallelism(r, map, what, t) < 0;
	if (!embedded)
		bad |= read_cluster(r, map, what, t) < 0;
	bad |= yr_quantity_in(r, map, "deadline", Q_DEADLINE, &t->deadline,
			      NULL) < 0;
	int budget = yr_money_in(r, map, "budget", MONEY_TOTAL, Q_BUDGET,
				 &t->budget);
	bad |= budget < 0;
	t->has_budget = budget == 1;
	const struct ynode *b = ymap_get(map, "budget");
	if (b)
		t->budget_at = (struct origin){r->file, b->line, b->col};
	bad |= yr_bool(r, map, "spot", &t->spot) < 0;
	t->fused_attention = true;
	bad |= yr_bool(r, map, "fused_attention", &t->fused_attention) < 0;
	bad |= read_input(r, map, what, t) < 0;
	bad |= read_framework(r, map, what, t) < 0;
	bad |= read_goodput(r, map, what, &t->goodput) < 0;
	t->optimizer = (enum optimizer)opt;
	t->recompute = (enum recompute)rec;
	return bad ? -1 : 0;
}

/* The checks that need the model: tokens and seq on sequence models only,
 * seq within the model's limit; then the run's totals. */
int wl_check_training(struct yread *r, const struct ynode *map,
		      const char *what, const struct model *m,
		      bool fields_ok, struct training *t)
{
	long limit = wl_seq_limit(m);
	int bad = 0;
	if (!model_is_sequence(m)) {
		const char *keys[] = {"tokens", "seq"};
		for (int i = 0; i < 2; i++)
			if (ymap_get(map, keys[i])) {
				yr_error(r, ymap_get(map, keys[i]), NULL,
					 "'%s' needs a sequence model, but model '%s' of %s takes images: count 'samples'",
					 keys[i], wl_model_label(m), what);
				bad = 1;
			}
		t->seq = 0;
	} else if (t->seq > limit) {
		yr_error(r, ymap_get(map, "seq"), NULL,
			 "'seq' is %ld tokens but model '%s' takes at most %ld",
			 t->seq, wl_model_label(m), limit);
		bad = 1;
	} else if (t->seq == 0)
		t->seq = limit;
	if (bad || !fields_ok)
		return bad ? -1 : 0;
	if (t->tokens == 0 && t->samples == 0)
		return 0;	/* an outcome's run of unstated length */
	t->total_samples = t->by_tokens ? t->tokens / (double)t->seq
					: t->samples * (double)t->epochs;
	t->total_tokens = t->total_samples * (double)t->seq;
	t->steps = ceil(t->total_samples / (double)t->global_batch);
	if ((double)t->global_batch > t->total_samples) {
		yr_error(r, ymap_get(map, "global_batch"), NULL,
			 "'global_batch' of %ld samples is more than the whole run (%.15g samples)",
			 t->global_batch, t->total_samples);
		return -1;
	}
	return 0;
}
