/*
 * cmd_model.c - `gpuplan model list|show`: what a model costs, derived
 * from its description: parameters, FLOPs and bytes per step, arithmetic
 * intensity per op class, and memory per GPU line by line.
 *
 * `--ops` lists every op.  The listing is written row by row (the table
 * in two passes: widths, then rows; the JSON one op object at a time)
 * instead of through a table or a JSON tree of every op, and a model that
 * expands to more than SHOW_MAX_OPS ops is refused before it is built:
 * the output is gathered in memory to be written whole (core/output.h),
 * so what is listed must fit there.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/framework.h"
#include "commands.h"
#include "common.h"
#include "core/output.h"
#include "core/paths.h"
#include "core/table.h"
#include "core/term_safe.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "model/memory.h"

/* Ops `--ops` lists: more than every transformer the loader accepts
 * (10,000 layers of 12 ops), and about 100 MB of JSON (30 MB of table)
 * gathered before it is written. */
#define SHOW_MAX_OPS 200000

/* ---- the setup a `show` describes ---- */

struct show_setup {
	long batch, seq, context;
	enum precision precision, kv_precision;
	bool train, ops;
	struct train_setup t;
	struct serve_setup s;
};

static const struct opt_spec show_opts[] = {
	{"batch", 'b', OPT_VALUE, "N", "samples per step on one GPU (default 1)"},
	{"seq", 0, OPT_VALUE, "N", "tokens per sample (default: the model's maximum)"},
	{"precision", 0, OPT_VALUE, "P", "fp32, tf32, bf16, fp16, fp8 or int8 (default bf16; int8 serving only)"},
	{"train", 0, OPT_FLAG, NULL, "show training memory and FLOPs (default: serving)"},
	{"optimizer", 0, OPT_VALUE, "NAME", "adamw, adam or sgd (training; default adamw)"},
	{"zero", 0, OPT_VALUE, "N", "ZeRO stage 0-3 (training; default 0)"},
	{"dp", 0, OPT_VALUE, "N", "data-parallel degree (default 1)"},
	{"tp", 0, OPT_VALUE, "N", "tensor-parallel degree (default 1)"},
	{"pp", 0, OPT_VALUE, "N", "pipeline-parallel degree (default 1)"},
	{"recompute", 0, OPT_VALUE, "MODE", "none, selective or full (training; default none)"},
	{"context", 0, OPT_VALUE, "N", "tokens of KV cache per sequence when serving (default --seq)"},
	{"kv-precision", 0, OPT_VALUE, "P", "KV-cache precision (default: bf16 for int8, else --precision)"},
	{"ops", 0, OPT_FLAG, NULL, "list every op with its shapes and costs"},
	FORMAT_OPTION_NO_CSV,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec show_spec = {
	"model show", "PROFILE",
	"Parameters, FLOPs, bytes and memory per GPU of a model, derived from its description.",
	show_opts, 1, 1,
	"PROFILE is a model file, or the name of a shipped one (llama-2-7b).\n"
	"FLOPs count a multiply-add as 2; training is 3x the forward pass (4x with\n"
	"full recomputation).  Memory is per GPU; every line says how it was\n"
	"computed and where the formula comes from.",
};

static int read_long(const struct parsed *p, const char *name, long min,
		     long max, long dflt, long *out)
{
	const char *v = opt_value(p, &show_spec, name);
	*out = dflt;
	if (!v)
		return 0;
	if (!opt_whole(v, min, max, out))
		return usage_error(&show_spec, "--%s expects a whole number from %ld to %ld, found '%s'",
				   name, min, max, v);
	return 0;
}

static int read_precision(const struct parsed *p, const char *name,
			  enum precision dflt, enum precision *out)
{
	const char *v = opt_value(p, &show_spec, name);
	*out = dflt;
	if (!v)
		return 0;
	int k = precision_from_name(v);
	if (k < 0 || k == PREC_FP64_TENSOR || k == PREC_FP64)
		return usage_error(&show_spec, "--%s expects fp32, tf32, bf16, fp16, fp8 or int8, found '%s'",
				   name, v);
	*out = (enum precision)k;
	return 0;
}

static int read_choice(const struct parsed *p, const char *name,
		       int (*from)(const char *), int dflt, int *out)
{
	const char *v = opt_value(p, &show_spec, name);
	*out = dflt;
	if (!v)
		return 0;
	if ((*out = from(v)) < 0)
		return usage_error(&show_spec, "unknown --%s '%s'", name, v);
	return 0;
}

static int read_setup(const struct parsed *p, struct show_setup *s)
{
	int optim, rec;
	long zero;
	memset(s, 0, sizeof(*s));
	s->train = opt_flag(p, &show_spec, "train");
	s->ops = opt_flag(p, &show_spec, "ops");
	if (read_long(p, "batch", 1, 100000000, 1, &s->batch) ||
	    read_long(p, "seq", 1, 100000000, 0, &s->seq) ||
	    read_long(p, "context", 1, 100000000, 0, &s->context) ||
	    read_long(p, "zero", 0, 3, 0, &zero) ||
	    read_long(p, "dp", 1, 1000000, 1, &s->t.dp) ||
	    read_long(p, "tp", 1, 1024, 1, &s->t.tp) ||
	    read_long(p, "pp", 1, 1024, 1, &s->t.pp) ||
	    read_precision(p, "precision", PREC_BF16, &s->precision) ||
	    read_choice(p, "optimizer", optimizer_from_name, OPTIMIZER_ADAMW, &optim) ||
	    read_choice(p, "recompute", recompute_from_name, RECOMPUTE_NONE, &rec))
		return OPTS_USAGE_ERROR;
	enum precision kv_default = s->precision == PREC_INT8 ? PREC_BF16 : s->precision;
	if (read_precision(p, "kv-precision", kv_default, &s->kv_precision))
		return OPTS_USAGE_ERROR;
	if (s->train && s->precision == PREC_INT8)
		return usage_error(&show_spec, "training in int8 is not modelled: use bf16, fp16, fp8 or fp32");
	/* Options of the other mode would be silently ignored: refuse them. */
	static const char *const train_only[] = {"optimizer", "zero", "dp", "pp",
						 "recompute"};
	static const char *const serve_only[] = {"context", "kv-precision"};
	for (size_t i = 0; !s->train && i < 5; i++)
		if (opt_value(p, &show_spec, train_only[i]))
			return usage_error(&show_spec, "--%s applies to training: add --train",
					   train_only[i]);
	for (size_t i = 0; s->train && i < 2; i++)
		if (opt_value(p, &show_spec, serve_only[i]))
			return usage_error(&show_spec, "--%s applies to serving, not --train",
					   serve_only[i]);
	s->t = (struct train_setup){s->precision, (enum optimizer)optim, (int)zero,
				    s->t.dp, s->t.tp, s->t.pp, s->batch,
				    (enum recompute)rec, 1, true, true,
				    /* the planner's accounting when no
				     * framework is named */
				    framework_rules(NULL, s->precision, (int)zero)};
	return 0;
}

/* ---- finding and building the model ---- */

/* The listing's limit is checked on the description, before a single op
 * is built. */
static int load_and_build(const char *arg, struct show_setup *s,
			  struct model *m, struct model_graph *g)
{
	int rc = cli_load_model(arg, s->seq, s->ops ? SHOW_MAX_OPS : 0, m, g);
	if (rc == 0) {
		s->seq = g->seq;
		if (!s->context)
			s->context = g->seq ? g->seq : 1;
		s->s = (struct serve_setup){s->precision, s->kv_precision, s->batch,
					    s->context, s->t.tp};
	}
	return rc;
}

/* ---- the figures ---- */

struct figures {
	struct model_cost c;
	double step_flops;	/* training step with --train, else forward */
	double kv_per_token;	/* bytes */
	struct memory_breakdown mem;
};

static void compute(const struct model *m, const struct model_graph *g,
		    const struct show_setup *s, struct figures *f)
{
	model_cost(g, s->batch, precision_bytes(s->precision), &f->c);
	f->step_flops = s->train ? training_flops_per_step(g, &f->c, s->t.recompute,
							   s->batch)
				 : f->c.flops_per_step;
	f->kv_per_token = kv_cache_bytes_per_token(m, precision_bytes(s->kv_precision));
	if (s->train)
		memory_training(m, g, &s->t, &f->mem);
	else
		memory_serving(m, g, &s->s, &f->mem);
}

static const char *amount(double v, const char *unit, char *buf, size_t len)
{
	static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z"};
	int e = 0;
	while (e < 7 && v >= 1000) {
		v /= 1000;
		e++;
	}
	snprintf(buf, len, "%.4g %s%s", v, prefixes[e], unit);
	return buf;
}

/* "6.74 billion": counts read better in words than with SI prefixes. */
static const char *in_words(double v, char *buf, size_t len)
{
	static const struct { double scale; const char *word; } w[] = {
		{1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"},
		{1e3, "thousand"}};
	for (size_t i = 0; i < 4; i++)
		if (v >= w[i].scale) {
			snprintf(buf, len, "%.3g %s", v / w[i].scale, w[i].word);
			return buf;
		}
	snprintf(buf, len, "%.0f", v);
	return buf;
}

static const char *grouped(double v, char *buf, size_t len)
{
	char digits[40];
	snprintf(digits, sizeof(digits), "%.0f", v);
	size_t n = strlen(digits), k = 0;
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = '\0';
	return buf;
}

/* Bytes one op reads and writes in a step of `batch` samples: weights
 * once, activations per sample; attention scores are half written, half
 * read back. */
static void op_bytes(const struct op *o, int e, long batch, double *read,
		     double *written)
{
	*read = op_weight_reads(o) * e + (o->act_read + o->scratch / 2) * e * batch;
	*written = (o->act_written + o->scratch / 2) * e * batch;
}

/* ---- table ---- */

static void describe(FILE *out, const struct model *m)
{
	const struct transformer_config *tf = &m->tf;
	if (m->kind == MODEL_TRANSFORMER)
		fprintf(out, "  %-18s transformer %s: %ld layers, hidden %ld, %ld heads (%ld KV), %s FFN %ld, vocab %ld\n",
			"structure", tf->arch == TF_DECODER ? "decoder" : "encoder",
			tf->layers, tf->hidden, tf->heads, tf->kv_heads,
			tf->ffn_kind == FFN_SWIGLU ? "SwiGLU" : "GELU", tf->ffn,
			tf->vocab);
	else {
		char sh[64];
		fprintf(out, "  %-18s graph of ops, input %s\n", "structure",
			shape_format(&m->input, sh, sizeof(sh)));
	}
}

static void show_figures(FILE *out, const struct model *m,
			 const struct model_graph *g, const struct show_setup *s,
			 const struct figures *f)
{
	char a[48], b[48], c[48];
	fprintf(out, "model %s  (%s)\n", m->name, m->file);
	if (m->description)
		fprintf(out, "  %s\n", m->description);
	describe(out, m);
	fprintf(out, "  %-18s %s (%s)\n", "parameters", grouped(f->c.params, a, sizeof(a)),
		in_words(f->c.params, b, sizeof(b)));
	if (g->seq)
		fprintf(out, "  %-18s batch %ld x %ld tokens, %s\n", "step", s->batch,
			g->seq, precision_name(s->precision));
	else
		fprintf(out, "  %-18s batch %ld, %s\n", "step", s->batch,
			precision_name(s->precision));
	fprintf(out, "  %-18s %s per step; %s per sample", "forward FLOPs",
		amount(f->c.flops_per_step, "FLOP", a, sizeof(a)),
		amount(f->c.flops_per_sample, "FLOP", b, sizeof(b)));
	if (g->seq)
		fprintf(out, "; %s per token",
			amount(f->c.flops_per_sample / g->seq, "FLOP", c, sizeof(c)));
	fprintf(out, " (%s multiply-adds per sample)\n",
		amount(f->c.macs_per_sample, "", c, sizeof(c)));
	if (s->train)
		fprintf(out, "  %-18s %s per step (%s)\n", "training FLOPs",
			amount(f->step_flops, "FLOP", a, sizeof(a)),
			s->t.recompute == RECOMPUTE_FULL ? "4 x forward: full recomputation"
			: s->t.recompute == RECOMPUTE_SELECTIVE ? "3 x forward + the attention core again"
			: "3 x forward: backward is twice the forward");
	fprintf(out, "  %-18s %s per forward step (weights %s once, activations x batch)\n",
		"bytes moved", units_format(UNIT_BYTES, f->c.bytes_per_step, NULL, a, 32),
		units_format(UNIT_BYTES, f->c.weight_bytes, NULL, b, 32));
	fprintf(out, "  %-18s %.4g FLOP/byte\n", "intensity",
		f->c.bytes_per_step ? f->c.flops_per_step / f->c.bytes_per_step : 0);
	if (model_is_sequence(m) && f->kv_per_token > 0)
		fprintf(out, "  %-18s %s per token (%s)\n", "KV cache",
			units_format(UNIT_BYTES, f->kv_per_token, NULL, a, 32),
			precision_name(s->kv_precision));
}

static void show_classes(FILE *out, const struct figures *f)
{
	static const char *const header[] = {"OP CLASS", "FLOP/STEP", "SHARE",
					     "BYTES/STEP", "FLOP/BYTE"};
	struct table t;
	table_init(&t, 5, header);
	for (int i = 1; i < 5; i++)
		table_right_align(&t, (size_t)i);
	for (int k = 0; k < OPC_COUNT; k++) {
		const struct class_total *ct = &f->c.cls[k];
		if (ct->flops == 0 && ct->bytes == 0)
			continue;
		char fl[32], sh[16], by[32], in[32];
		amount(ct->flops, "", fl, sizeof(fl));
		snprintf(sh, sizeof(sh), "%.1f%%",
			 f->c.flops_per_step ? 100 * ct->flops / f->c.flops_per_step : 0);
		units_format(UNIT_BYTES, ct->bytes, NULL, by, sizeof(by));
		snprintf(in, sizeof(in), "%.3g", ct->bytes ? ct->flops / ct->bytes : 0);
		const char *row[] = {op_class_name(k), fl, sh, by, in};
		table_add_row(&t, row);
	}
	fputc('\n', out);
	table_print(&t, out);
	table_free(&t);
}

static void show_memory(FILE *out, const struct show_setup *s,
			const struct figures *f)
{
	if (s->train)
		fprintf(out, "\nmemory per GPU, training: %s, ZeRO-%d, dp %ld, tp %ld, pp %ld, recompute %s, micro-batch %ld, %s\n",
			optimizer_name(s->t.optimizer), s->t.zero, s->t.dp, s->t.tp,
			s->t.pp, recompute_name(s->t.recompute), s->batch,
			precision_name(s->precision));
	else
		fprintf(out, "\nmemory per GPU, serving: %s weights, batch %ld%s%.0ld, tp %ld\n",
			precision_name(s->precision), s->batch,
			s->seq ? ", context " : "", s->seq ? s->context : 0L,
			s->t.tp);
	for (int p = 0; p < MEM_PARTS; p++) {
		char q[32];
		fprintf(out, "  %-12s %10s  %s\n", memory_part_name(p),
			units_format(UNIT_BYTES, f->mem.bytes[p], NULL, q, sizeof(q)),
			f->mem.how[p]);
	}
	char q[32];
	fprintf(out, "  %-12s %10s\n", "total",
		units_format(UNIT_BYTES, f->mem.total, NULL, q, sizeof(q)));
}

/* One row of the --ops table, cells formatted and escaped as table.h
 * would store them, with their widths on a terminal. */
struct op_row {
	char cell[10][2000];	/* 320 bytes escaped: at most 6 x 320 */
	size_t width[10];
};

static const char *const ops_header[10] = {
	"#", "OP", "IN", "OUT", "PARAMS", "FLOP/SAMPLE", "BYTES/STEP",
	"FLOP/BYTE", "CLASS", "AT"};
static const bool ops_right[10] = {true, false, false, false, true, true,
				   true, true, false, false};

/* The label (names from the file) and the file name may hold anything a
 * terminal obeys; the other cells are numbers and words of gpuplan's. */
static void outside_text(struct op_row *r, int c, const char *text)
{
	if (term_needs_escape(text, 0))
		term_escape(text, r->cell[c], sizeof(r->cell[c]));
	else
		snprintf(r->cell[c], sizeof(r->cell[c]), "%s", text);
	r->width[c] = utf8_width(r->cell[c]);
}

static void op_row(struct op_row *r, const struct op *o, size_t i, int e,
		   long batch)
{
	char (*cell)[2000] = r->cell;
	snprintf(cell[0], sizeof(cell[0]), "%zu", i);
	shape_format(&o->in, cell[2], sizeof(cell[2]));
	shape_format(&o->out, cell[3], sizeof(cell[3]));
	snprintf(cell[4], sizeof(cell[4]), "%.0f", o->params);
	amount(o->flops, "", cell[5], sizeof(cell[5]));
	double rd, wr;
	op_bytes(o, e, batch, &rd, &wr);
	units_format(UNIT_BYTES, rd + wr, NULL, cell[6], sizeof(cell[6]));
	snprintf(cell[7], sizeof(cell[7]), "%.3g",
		 rd + wr > 0 ? o->flops * batch / (rd + wr) : 0);
	snprintf(cell[8], sizeof(cell[8]), "%s",
		 op_class_name(op_kind_class(o->kind)));
	for (int c = 0; c < 10; c++)
		r->width[c] = strlen(cell[c]);
	char at[320];
	snprintf(at, sizeof(at), "%.290s:%d", o->at.file ? o->at.file : "?",
		 o->at.line);
	outside_text(r, 1, o->label);
	outside_text(r, 9, at);
}

static void pad(FILE *out, size_t n)
{
	static const char spaces[] = "                                ";
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fwrite(spaces, 1, sizeof(spaces) - 1, out);
	fwrite(spaces, 1, n, out);
}

/* As table_print() lays a row out: columns two spaces apart, numbers
 * right-aligned, no padding after the last column. */
static void print_op_row(FILE *out, const char *const cells[10],
			 const size_t w[10], const size_t width[10])
{
	for (int c = 0; c < 10; c++) {
		bool last = c == 9;
		if (ops_right[c])
			pad(out, width[c] - w[c]);
		fputs(cells[c], out);
		if (!ops_right[c] && !last)
			pad(out, width[c] - w[c]);
		if (!last)
			fputs("  ", out);
	}
	fputc('\n', out);
}

/* Two passes over the ops, the first for the column widths, so no row is
 * kept: memory stays that of one row however many ops are listed. */
static void show_ops_table(FILE *out, const struct model_graph *g,
			   const struct show_setup *s)
{
	int e = precision_bytes(s->precision);
	struct op_row *r = xmalloc(sizeof(*r));
	size_t width[10], header_w[10];
	for (int c = 0; c < 10; c++)
		width[c] = header_w[c] = strlen(ops_header[c]);
	for (size_t i = 0; i < g->n; i++) {
		op_row(r, &g->ops[i], i, e, s->batch);
		for (int c = 0; c < 10; c++)
			width[c] = r->width[c] > width[c] ? r->width[c] : width[c];
	}
	fputc('\n', out);
	print_op_row(out, ops_header, header_w, width);
	for (size_t i = 0; i < g->n; i++) {
		op_row(r, &g->ops[i], i, e, s->batch);
		const char *cells[10];
		for (int c = 0; c < 10; c++)
			cells[c] = r->cell[c];
		print_op_row(out, cells, r->width, width);
	}
	free(r);
}

/* ---- json ---- */

static json_t *shape_json(const struct shape *s)
{
	json_t *a = json_array();
	int rank = s->kind == SHAPE_IMAGE ? 3 : s->kind == SHAPE_SEQ ? 2 : 1;
	for (int i = 0; i < rank; i++)
		json_array_append_new(a, json_integer(s->d[i]));
	return a;
}

static json_t *op_json(const struct op *o, int e, long batch)
{
	json_t *j = json_object();
	char at[300];
	snprintf(at, sizeof(at), "%s:%d:%d", o->at.file ? o->at.file : "?",
		 o->at.line, o->at.col);
	double rd, wr;
	op_bytes(o, e, batch, &rd, &wr);
	json_object_set_new(j, "label", json_text(o->label));
	json_object_set_new(j, "kind", json_text(op_kind_name(o->kind)));
	json_object_set_new(j, "class", json_text(op_class_name(op_kind_class(o->kind))));
	json_object_set_new(j, "in", shape_json(&o->in));
	json_object_set_new(j, "out", shape_json(&o->out));
	json_object_set_new(j, "params", json_number(o->params));
	json_object_set_new(j, "macs_per_sample", json_number(o->macs));
	json_object_set_new(j, "flops_per_sample", json_number(o->flops));
	json_object_set_new(j, "bytes_read_per_step", json_number(rd));
	json_object_set_new(j, "bytes_written_per_step", json_number(wr));
	json_object_set_new(j, "flop_per_byte",
			    json_real(rd + wr > 0 ? o->flops * batch / (rd + wr) : 0));
	json_object_set_new(j, "defined_at", json_text(at));
	return j;
}

static char *dump(const json_t *j)
{
	return json_dump_text(j);
}

/* Writes text with `indent` after every line break. */
static void put_indented(FILE *out, const char *text, const char *indent)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fputs(indent, out);
	}
}

/*
 * The document with an "ops" array last, written an op at a time: the
 * rest of the document is dumped, its closing brace taken off, and each
 * op object dumped and indented into place.  The bytes are those
 * json_write() prints for the whole tree (held by tests/cli against the
 * jansson tree), without a tree of every op in memory.
 */
static void write_with_ops(FILE *out, const json_t *root,
			   const struct model_graph *g, int e, long batch)
{
	char *text = dump(root);
	size_t len = strlen(text);
	fwrite(text, 1, len - 2, out);	/* all but "\n}" */
	free(text);
	fputs(",\n  \"ops\": [", out);
	for (size_t i = 0; i < g->n; i++) {
		json_t *j = op_json(&g->ops[i], e, batch);
		char *t = dump(j);
		fputs(i ? ",\n    " : "\n    ", out);
		put_indented(out, t, "    ");
		free(t);
		json_decref(j);
	}
	fputs(g->n ? "\n  ]\n}\n" : "]\n}\n", out);
}

static json_t *setup_json(const struct model_graph *g, const struct show_setup *s)
{
	json_t *j = json_object();
	json_object_set_new(j, "mode", json_text(s->train ? "training" : "serving"));
	json_object_set_new(j, "batch", json_integer(s->batch));
	json_object_set_new(j, "seq", g->seq ? json_integer(g->seq) : json_null());
	json_object_set_new(j, "precision", json_text(precision_name(s->precision)));
	json_object_set_new(j, "dp", json_integer(s->t.dp));
	json_object_set_new(j, "tp", json_integer(s->t.tp));
	json_object_set_new(j, "pp", json_integer(s->t.pp));
	if (s->train) {
		json_object_set_new(j, "optimizer", json_text(optimizer_name(s->t.optimizer)));
		json_object_set_new(j, "zero", json_integer(s->t.zero));
		json_object_set_new(j, "recompute", json_text(recompute_name(s->t.recompute)));
	} else {
		json_object_set_new(j, "context",
				    g->seq ? json_integer(s->context) : json_null());
		json_object_set_new(j, "kv_precision", json_text(precision_name(s->kv_precision)));
	}
	return j;
}

static json_t *memory_json(const struct memory_breakdown *mem)
{
	json_t *j = json_object(), *how = json_object();
	for (int p = 0; p < MEM_PARTS; p++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_bytes", memory_part_name(p));
		json_object_set_new(j, key, json_number(mem->bytes[p]));
		json_object_set_new(how, memory_part_name(p), json_text(mem->how[p]));
	}
	json_object_set_new(j, "total_bytes", json_number(mem->total));
	json_object_set_new(j, "explain", how);
	return j;
}

static json_t *classes_json(const struct figures *f)
{
	json_t *j = json_object();
	for (int k = 0; k < OPC_COUNT; k++) {
		const struct class_total *ct = &f->c.cls[k];
		json_t *c = json_object();
		json_object_set_new(c, "flops_per_step", json_number(ct->flops));
		json_object_set_new(c, "bytes_per_step", json_number(ct->bytes));
		json_object_set_new(c, "flop_per_byte",
				    json_real(ct->bytes ? ct->flops / ct->bytes : 0));
		json_object_set_new(j, op_class_name(k), c);
	}
	return j;
}

static void show_json(FILE *out, const struct model *m, const struct model_graph *g,
		      const struct show_setup *s, const struct figures *f)
{
	json_t *root = json_object(), *mj = json_object();
	static const char *const kinds[] = {"transformer", "graph", "block"};
	json_object_set_new(root, "schema", json_text("gpuplan/model-show/v1"));
	json_object_set_new(mj, "name", json_text(m->name));
	json_object_set_new(mj, "file", json_text(m->file));
	json_object_set_new(mj, "kind", json_text(kinds[m->kind]));
	json_object_set_new(mj, "description", json_string_or_null(m->description));
	json_object_set_new(mj, "source", sources_to_json(&m->sources));
	json_object_set_new(root, "model", mj);
	json_object_set_new(root, "setup", setup_json(g, s));
	json_object_set_new(root, "params", json_number(f->c.params));
	json_object_set_new(root, "macs_per_sample", json_number(f->c.macs_per_sample));
	json_object_set_new(root, "flops_per_sample", json_number(f->c.flops_per_sample));
	if (g->seq)
		json_object_set_new(root, "flops_per_token",
				    json_real(f->c.flops_per_sample / g->seq));
	json_object_set_new(root, "forward_flops_per_step", json_number(f->c.flops_per_step));
	json_object_set_new(root, "flops_per_step", json_number(f->step_flops));
	json_object_set_new(root, "bytes_per_step", json_number(f->c.bytes_per_step));
	json_object_set_new(root, "weight_bytes", json_number(f->c.weight_bytes));
	if (model_is_sequence(m))
		json_object_set_new(root, "kv_cache_bytes_per_token",
				    json_number(f->kv_per_token));
	json_object_set_new(root, "classes", classes_json(f));
	json_object_set_new(root, "memory", memory_json(&f->mem));
	if (s->ops)
		write_with_ops(out, root, g, precision_bytes(s->precision), s->batch);
	else
		json_write(out, root);
	json_decref(root);
}

static int model_show(int argc, char **argv)
{
	struct parsed p;
	struct show_setup s;
	enum out_format fmt = FORMAT_TABLE;
	struct model m;
	struct model_graph g;
	memset(&m, 0, sizeof(m));
	memset(&g, 0, sizeof(g));
	int rc = opts_parse(&show_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = cli_format(&p, &show_spec, &fmt)) ||
	    (rc = read_setup(&p, &s)))
		goto out;
	if ((rc = load_and_build(p.args[0], &s, &m, &g)))
		goto out;
	struct figures f;
	compute(&m, &g, &s, &f);
	struct output o;
	if ((rc = output_open_to(&o, opt_value(&p, &show_spec, "output"))))
		goto out;
	if (fmt == FORMAT_JSON)
		show_json(o.f, &m, &g, &s, &f);
	else {
		show_figures(o.f, &m, &g, &s, &f);
		show_classes(o.f, &f);
		show_memory(o.f, &s, &f);
		if (s.ops)
			show_ops_table(o.f, &g, &s);
	}
	rc = output_finish(&o, opt_value(&p, &show_spec, "output"));
out:
	model_graph_free(&g);
	model_free(&m);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

/* ---- list ---- */

static const struct opt_spec list_opts[] = {
	FORMAT_OPTION,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec list_spec = {
	"model list", NULL, "List the shipped models with their size.",
	list_opts, 0, 0, NULL,
};

static void list_row(struct table *t, json_t *arr, const struct model *m,
		     const struct model_graph *g)
{
	static const char *const kinds[] = {"transformer", "graph", "block"};
	struct model_cost c;
	model_cost(g, 1, 2, &c);
	char pa[32], fl[32], seq[32], desc[80] = "";
	in_words(c.params, pa, sizeof(pa));
	if (m->description)
		snprintf(desc, sizeof(desc), "%.66s%s", m->description,
			 strlen(m->description) > 66 ? "..." : "");
	amount(c.flops_per_sample, "FLOP", fl, sizeof(fl));
	snprintf(seq, sizeof(seq), "%ld", g->seq);
	const char *row[] = {m->name, kinds[m->kind], pa, fl,
			     g->seq ? seq : "-", desc};
	table_add_row(t, row);
	json_t *j = json_object();
	json_object_set_new(j, "name", json_text(m->name));
	json_object_set_new(j, "kind", json_text(kinds[m->kind]));
	json_object_set_new(j, "file", json_text(m->file));
	json_object_set_new(j, "params", json_number(c.params));
	json_object_set_new(j, "flops_per_sample", json_number(c.flops_per_sample));
	json_object_set_new(j, "seq", g->seq ? json_integer(g->seq) : json_null());
	json_array_append_new(arr, j);
}

static int model_list(int argc, char **argv)
{
	struct parsed p;
	enum out_format fmt = FORMAT_TABLE;
	int rc = opts_parse(&list_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = cli_format(&p, &list_spec, &fmt)))
		goto out;
	char *data = data_dir_require("models");
	if (!data) {
		rc = 1;
		goto out;
	}
	size_t n;
	char **files = model_shipped_files(data, &n);
	static const char *const header[] = {"MODEL", "KIND", "PARAMS",
					     "FORWARD/SAMPLE", "SEQ", "DESCRIPTION"};
	struct table t;
	table_init(&t, 6, header);
	json_t *arr = json_array();
	struct gp_errors errs;
	gp_errors_init(&errs);
	for (size_t i = 0; i < n; i++) {
		struct model m;
		struct model_graph g;
		memset(&g, 0, sizeof(g));
		struct gp_errors quiet;
		gp_errors_init(&quiet);
		/* blocks are parts of models, not models: skip them */
		char *path = xasprintf("%s/profiles/models/%s", data, files[i]);
		char *shown = xasprintf("profiles/models/%s", files[i]);
		int loaded = model_load_named(&m, path, shown, &quiet);
		free(path);
		free(shown);
		if (loaded == 0 &&
		    model_build(&m, 0, &g, &errs) == 0)
			list_row(&t, arr, &m, &g);
		else if (m.kind != MODEL_BLOCK)
			for (size_t k = 0; k < quiet.n; k++)
				gp_errors_add(&errs, quiet.v[k].file, quiet.v[k].line,
					      quiet.v[k].col, quiet.v[k].hint, "%s",
					      quiet.v[k].msg);
		gp_errors_free(&quiet);
		model_graph_free(&g);
		model_free(&m);
		free(files[i]);
	}
	free(files);
	free(data);
	if (gp_errors_count(&errs)) {
		gp_errors_print(&errs, stderr);
		rc = 2;
	} else {
		struct output o;
		output_open(&o);
		if (fmt == FORMAT_JSON) {
			json_t *root = json_object();
			json_object_set_new(root, "schema", json_text("gpuplan/model-list/v1"));
			json_object_set_new(root, "models", json_incref(arr));
			json_write(o.f, root);
			json_decref(root);
		} else if (fmt == FORMAT_CSV)
			table_print_csv(&t, o.f);
		else
			table_print(&t, o.f);
		rc = output_finish(&o, opt_value(&p, &list_spec, "output"));
	}
	json_decref(arr);
	table_free(&t);
	gp_errors_free(&errs);
out:
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

static const struct command model_commands[] = {
	{"list", model_list, "list the shipped models with their size"},
	{"show", model_show, "parameters, FLOPs, bytes and memory of a model"},
	{NULL, NULL, NULL},
};

int cmd_model(int argc, char **argv)
{
	return run_subcommand("model", model_commands, argc, argv);
}
