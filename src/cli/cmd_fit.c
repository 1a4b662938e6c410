/*
 * cmd_fit.c - `gpuplan fit MEASURED...`: the scaling curves of measured
 * profiles (src/fit/curves.h), each with its parameters' intervals and the
 * quality of the fit, as a table, JSON or the fitted file
 * (gpuplan/fitted/v1, src/fit/fitted.h).
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "core/atomic_file.h"
#include "core/output.h"
#include "core/table.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "fit/fitted.h"
#include "out_dirs.h"
#include "profile/profile.h"
#include "report/fit_chart.h"
#include "report/report.h"
#include "report/text.h"

static const struct opt_spec fit_opts[] = {
	{"format", 'f', OPT_VALUE, "FMT",
	 "table, json or yaml (the fitted file); default: yaml with -o, else table"},
	{"plot", 0, OPT_VALUE, "DIR",
	 "also draw each fitted curve as a PNG into DIR: points, curve, 95% band, residuals"},
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec fit_spec = {
	"fit", "MEASURED...",
	"Fit scaling curves to measured profiles, with their uncertainty.",
	fit_opts, 1, -1,
	"Each MEASURED file is a profile `gpuplan bench` wrote (schema\n"
	"gpuplan/measured/v1).  From its figures: transfer time against bytes\n"
	"(latency and bandwidth), the model sweep's step time and memory against\n"
	"batch (a fixed part and a part per sample), GEMM and GPU memory rates\n"
	"against size (a saturating curve); from the training suites, the\n"
	"model's sustained matmul rate, the GEMM's slowdown beside a collective,\n"
	"the spread of its rate across GPUs and a layer's time.  Each curve gets its parameters with\n"
	"standard errors and 95% intervals, R^2, the root mean square relative\n"
	"residual and the leave-one-out error (lines: exact, by the hat\n"
	"matrix; the saturating curve: refitted up to 50 points, 10-fold\n"
	"cross-validation above).  Figures marked disturbed,\n"
	"throttled or with too few repetitions are left out and counted; a curve\n"
	"with too few points, a non-physical or a poor fit is left out, saying\n"
	"why, and the others are still written.  --plot DIR draws each fitted\n"
	"curve (NN-NAME.png); the PNGs and -o are written together or not at all.\n"
	"Exit status: 0; 1 when no curve could be fitted (nothing is written);\n"
	"2 for bad input.",
};

enum fit_format { FIT_TABLE, FIT_JSON, FIT_YAML };

static int read_format(const struct parsed *p, enum fit_format *fmt)
{
	const char *v = opt_value(p, &fit_spec, "format");
	*fmt = opt_value(p, &fit_spec, "output") ? FIT_YAML : FIT_TABLE;
	if (!v)
		return 0;
	static const char *const names[] = {"table", "json", "yaml"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			*fmt = (enum fit_format)i;
			return 0;
		}
	return usage_error(&fit_spec, "--format expects table, json or yaml, found '%s'", v);
}

/* ---- output ---- */

/* The training terms (fit/train_terms.h), a line each. */
static void print_training(FILE *out, const struct train_terms *t)
{
	const struct train_matmul *m = &t->matmul;
	if (m->ok)
		fprintf(out, "training: %s (%s): matmul %s at its own shapes, sustained %.3g s: %.4g FLOP/s [%.4g, %.4g] over %zu GEMMs\n",
			t->model, t->source, m->precision, t->sustain_s, m->rate,
			m->low, m->high, m->n);
	const struct train_overlap *o = &t->overlap;
	if (o->ok)
		fprintf(out, "training: %s (%s): overlap: the GEMM %.2f%% slower beside %s [%.2f%%, %.2f%%]\n",
			t->model, t->source, 100 * o->slowdown, o->beside,
			100 * o->low, 100 * o->high);
	const struct train_spread *sp = &t->spread;
	if (sp->ok)
		fprintf(out, "training: %s (%s): spread over %d GPUs: coefficient of variation %.2f%% [%.2f%%, %.2f%%], slowest GPU %d\n",
			t->model, t->source, sp->n, 100 * sp->cv, 100 * sp->low,
			100 * sp->high, sp->slowest);
	const struct train_layer *y = &t->layer;
	if (y->ok)
		fprintf(out, "training: %s (%s): layer forward and backward, %s, micro-batch %ld x %ld: %.4g s [%.4g, %.4g]\n",
			t->model, t->source, y->precision, y->batch, y->seq,
			y->seconds, y->low, y->high);
	const struct { bool ok; const char *term, *why; } no[] = {
		{m->ok, "matmul", m->why}, {o->ok, "overlap", o->why},
		{sp->ok, "spread", sp->why}, {y->ok, "layer", y->why}};
	for (size_t i = 0; i < 4; i++)
		if (!no[i].ok)
			fprintf(out, "training: %s (%s): no %s term: %s\n", t->model,
				t->source, no[i].term, no[i].why);
}

static json_t *interval_json(double lo, double hi)
{
	return json_pack("[f, f]", lo, hi);
}

static json_t *training_json(const struct train_terms *t)
{
	json_t *j = json_pack("{s:o, s:o, s:s, s:o, s:I, s:I, s:f}", "source",
			      json_text(t->source), "device", json_text(t->device),
			      "measured", t->measured, "model", json_text(t->model),
			      "micro_batch", (json_int_t)t->micro_batch, "tp",
			      (json_int_t)t->tp, "sustain_s", t->sustain_s);
	const struct train_matmul *m = &t->matmul;
	json_object_set_new(j, "matmul", !m->ok ? json_pack("{s:o}", "why", json_text(m->why))
		: json_pack("{s:s, s:f, s:o, s:I}", "precision", m->precision, "rate",
			    m->rate, "ci95", interval_json(m->low, m->high), "gemms",
			    (json_int_t)m->n));
	const struct train_overlap *o = &t->overlap;
	json_object_set_new(j, "overlap", !o->ok ? json_pack("{s:o}", "why", json_text(o->why))
		: json_pack("{s:o, s:f, s:o}", "beside", json_text(o->beside),
			    "slowdown", o->slowdown, "ci95", interval_json(o->low, o->high)));
	const struct train_spread *sp = &t->spread;
	json_object_set_new(j, "spread", !sp->ok ? json_pack("{s:o}", "why", json_text(sp->why))
		: json_pack("{s:i, s:f, s:o, s:i}", "gpus", sp->n, "cv", sp->cv,
			    "ci95", interval_json(sp->low, sp->high), "slowest_gpu",
			    sp->slowest));
	const struct train_layer *y = &t->layer;
	json_object_set_new(j, "layer", !y->ok ? json_pack("{s:o}", "why", json_text(y->why))
		: json_pack("{s:s, s:I, s:I, s:f, s:o}", "precision", y->precision,
			    "batch", (json_int_t)y->batch, "seq", (json_int_t)y->seq,
			    "seconds", y->seconds, "ci95", interval_json(y->low, y->high)));
	return j;
}

static void param_text(const struct scaling_curve *c, int i, char *buf, size_t len)
{
	const struct fit_param *p = &c->fit.p[i];
	if (p->held)
		snprintf(buf, len, "%s held at 0 (free fit %.4g [%.4g, %.4g])",
			 curve_form(c->kind)->param[i], p->free_value, p->free_lo,
			 p->free_hi);
	else
		snprintf(buf, len, "%s %.4g [%.4g, %.4g]",
			 curve_form(c->kind)->param[i], p->value, p->lo, p->hi);
}

static void print_table(FILE *out, const struct curve_list *l)
{
	static const char *const head[] = {"CURVE", "SOURCE", "POINTS",
		"PARAMETERS (95% INTERVAL)", "R2", "RMS", "LOO", "LEFT OUT"};
	struct table t;
	size_t fitted = 0;
	for (size_t i = 0; i < l->n; i++)
		fitted += l->v[i].ok;
	table_init(&t, 8, head);
	for (size_t i = 0; i < l->n; i++) {
		const struct scaling_curve *c = &l->v[i];
		if (!c->ok)
			continue;
		char pts[16], params[260], a[128], b[128], r2[16], rms[16], loo[16], left[16];
		param_text(c, 0, a, sizeof(a));
		param_text(c, 1, b, sizeof(b));
		snprintf(params, sizeof(params), "%s; %s", a, b);
		snprintf(pts, sizeof(pts), "%zu", c->n);
		snprintf(r2, sizeof(r2), "%.4f", c->fit.r2);
		snprintf(rms, sizeof(rms), "%.1f%%", 100 * c->fit.rms_rel);
		if (c->fit.loo >= 0)
			snprintf(loo, sizeof(loo), "%.1f%%", 100 * c->fit.loo);
		else
			snprintf(loo, sizeof(loo), "-");
		snprintf(left, sizeof(left), "%zu", c->left_out);
		const char *row[] = {c->name, c->source, pts, params, r2, rms, loo, left};
		table_add_row(&t, row);
	}
	if (fitted)
		table_print(&t, out);
	table_free(&t);
	for (size_t i = 0; i < l->n; i++)
		if (!l->v[i].ok)
			fprintf(out, "left out: %s (%s): %s\n", l->v[i].name,
				l->v[i].source, l->v[i].why);
	for (size_t i = 0; i < l->n_rates; i++) {
		const struct measured_rate *m = &l->rates[i];
		if (m->ok)
			fprintf(out, "rate: %s (%s): %.4g %s [%.4g, %.4g]\n", m->name,
				m->source, m->value, m->unit, m->low, m->high);
		else
			fprintf(out, "left out: %s (%s): %s\n", m->name, m->source,
				m->why);
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ok && l->v[i].left_out)
			fprintf(out, "note: %s: %zu figure%s not used: %s\n",
				l->v[i].name, l->v[i].left_out,
				l->v[i].left_out == 1 ? "" : "s", l->v[i].left_out_why);
	for (size_t i = 0; i < l->n_train; i++)
		print_training(out, &l->train[i]);
}

static json_t *param_json(const struct fit_param *p)
{
	json_t *j = json_pack("{s:f, s:f, s:[f, f]}", "value", p->value,
			      "se", p->se, "ci95", p->lo, p->hi);
	if (p->held)
		json_object_set_new(j, "held_at_zero",
				    json_pack("{s:f, s:[f, f]}", "free_value",
					      p->free_value, "free_ci95",
					      p->free_lo, p->free_hi));
	return j;
}

static json_t *curves_json(const struct curve_list *l)
{
	json_t *curves = json_array(), *left = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct scaling_curve *c = &l->v[i];
		const struct curve_form *form = curve_form(c->kind);
		json_t *j = json_object();
		json_object_set_new(j, "name", json_text(c->name));
		json_object_set_new(j, "kind", json_text(form->kind));
		json_object_set_new(j, "source", json_text(c->source));
		json_object_set_new(j, "device", json_text(c->device));
		json_object_set_new(j, "measured", json_string(c->measured));
		if (!c->ok) {
			json_object_set_new(j, "why", json_text(c->why));
			json_array_append_new(left, j);
			continue;
		}
		json_object_set_new(j, "equation", json_text(form->equation));
		json_t *params = json_object();
		for (int k = 0; k < FIT_PARAMS; k++)
			json_object_set_new(params, form->param[k], param_json(&c->fit.p[k]));
		json_object_set_new(j, "parameters", params);
		json_object_set_new(j, "r2", json_real(c->fit.r2));
		json_object_set_new(j, "rms_relative_residual", json_real(c->fit.rms_rel));
		json_object_set_new(j, "leave_one_out_error",
				    c->fit.loo >= 0 ? json_real(c->fit.loo) : json_null());
		json_t *pts = json_array();
		for (size_t k = 0; k < c->n; k++)
			json_array_append_new(pts, json_pack("[f, f]", c->x[k], c->y[k]));
		json_object_set_new(j, "points", pts);
		json_t *res = json_array();
		for (size_t k = 0; k < c->n; k++)
			json_array_append_new(res, json_real(fit_residual(&c->fit, c->x[k], c->y[k])));
		json_object_set_new(j, "relative_residuals", res);
		json_object_set_new(j, "figures_left_out", json_integer((json_int_t)c->left_out));
		if (c->kind == CURVE_SCALING) {
			/* the parallel efficiency at each measured rank count */
			json_t *eff = json_array();
			for (size_t k = 0; k < c->n; k++)
				json_array_append_new(eff, json_pack("[f, f]", c->x[k],
					curve_scaling_efficiency(&c->fit, c->x[k])));
			json_object_set_new(j, "efficiency", eff);
		}
		json_array_append_new(curves, j);
	}
	json_t *rates = json_array();
	for (size_t i = 0; i < l->n_rates; i++) {
		const struct measured_rate *m = &l->rates[i];
		json_t *j = json_pack("{s:o, s:s, s:o, s:o, s:s}", "name",
				      json_text(m->name), "kind", "rate", "source",
				      json_text(m->source), "device",
				      json_text(m->device), "measured", m->measured);
		if (m->ok) {
			json_object_set_new(j, "unit", json_string(m->unit));
			json_object_set_new(j, "value", json_real(m->value));
			json_object_set_new(j, "ci95", json_pack("[f, f]", m->low, m->high));
			json_array_append_new(rates, j);
		} else {
			json_object_set_new(j, "why", json_text(m->why));
			json_array_append_new(left, j);
		}
	}
	json_t *training = json_array();
	for (size_t i = 0; i < l->n_train; i++)
		json_array_append_new(training, training_json(&l->train[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "schema", "gpuplan/fit/v1",
			 "curves", curves, "rates", rates, "training", training,
			 "left_out", left);
}

/* ---- plots ---- */

/* The result (data, len) and every fitted curve's PNG, staged and
 * committed together: to `out` (NULL or "-": standard output, after the
 * files) and DIR/NN-NAME.png.  0, or 1 after saying why (nothing of the
 * set is left, nor the folders made). */
static int write_with_plots(const struct curve_list *l, const char *dir,
			    const char *out, const char *data, size_t len)
{
	char why[600];
	struct report_font font;
	if (report_font_find(LANG_EN, &font, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan fit: %s\n", why);
		report_fonts_shutdown();
		return 1;
	}
	struct out_dirs dirs = {0};
	struct atomic_set set;
	atomic_set_init(&set);
	int rc = out_dirs_make(&dirs, dir, why, sizeof(why)) < 0 ? 1 : 0;
	for (size_t i = 0, k = 0; rc == 0 && i < l->n; i++) {
		if (!l->v[i].ok)
			continue;
		size_t png_len;
		unsigned char *png = fit_chart_png(&l->v[i], &font, &png_len, why,
						   sizeof(why));
		char slug[128];
		report_file_slug(l->v[i].name, slug, sizeof(slug));
		char *path = xasprintf("%s/%02zu-%s.png", dir, ++k, slug);
		if (!png || atomic_set_add(&set, path, png, png_len, why, sizeof(why)) != ATOMIC_OK)
			rc = 1;
		free(path);
		free(png);
	}
	bool to_file = out && strcmp(out, "-");
	if (rc == 0 && to_file &&
	    atomic_set_add(&set, out, data, len, why, sizeof(why)) != ATOMIC_OK)
		rc = 1;
	if (rc == 0 && atomic_set_commit(&set, why, sizeof(why)) != ATOMIC_OK)
		rc = 1;
	else if (rc != 0)
		atomic_set_abort(&set);
	if (rc != 0)
		fprintf(stderr, "gpuplan fit: %s\n", why);
	out_dirs_release(&dirs, rc != 0);
	report_font_free(&font);
	report_fonts_shutdown();
	if (rc == 0 && !to_file && fwrite(data, 1, len, stdout) != len)
		rc = 1;
	return rc;
}

/* ---- loading ---- */

/* Every profile's own curves, then the scaling series across them (the
 * same CPU at several thread counts). */
static int load_all(const struct parsed *p, struct curve_list *l)
{
	int rc = 0;
	struct bench_profile *prof = xcalloc(p->nargs + 1, sizeof(*prof));
	const struct bench_profile **loaded = xcalloc(p->nargs + 1, sizeof(*loaded));
	const char **names = xcalloc(p->nargs + 1, sizeof(*names));
	size_t n = 0;
	for (size_t i = 0; i < p->nargs; i++) {
		struct gp_errors errs;
		gp_errors_init(&errs);
		if (bench_profile_load(&prof[i], p->args[i], &errs) < 0) {
			rc = cli_report_problems(&errs);
		} else {
			curves_from_profile(&prof[i], p->args[i], l);
			loaded[n] = &prof[i];
			names[n++] = p->args[i];
		}
		gp_errors_free(&errs);
	}
	if (rc == 0)
		curves_scaling(loaded, names, n, l);
	for (size_t i = 0; i < p->nargs; i++)
		bench_profile_free(&prof[i]);
	free(prof);
	free(loaded);
	free(names);
	return rc;
}

int cmd_fit(int argc, char **argv)
{
	struct parsed p;
	enum fit_format fmt = FIT_TABLE;
	struct curve_list l = {0};
	int rc = opts_parse(&fit_spec, argc, argv, &p);
	const char *plot = rc == OPTS_OK ? opt_value(&p, &fit_spec, "plot") : NULL;
	if (rc != OPTS_OK || (rc = read_format(&p, &fmt)) ||
	    (rc = cli_one_stdin_of(&p, &fit_spec, (const char *const[]){NULL}, true)) ||
	    (plot && (rc = out_dir_usable("--plot", plot))) ||
	    (rc = load_all(&p, &l)))
		goto out;
	size_t fitted = 0;
	for (size_t i = 0; i < l.n; i++)
		fitted += l.v[i].ok;
	for (size_t i = 0; i < l.n_rates; i++)
		fitted += l.rates[i].ok;
	for (size_t i = 0; i < l.n_train; i++)
		fitted += train_terms_any(&l.train[i]);
	if (fitted == 0) {
		print_table(stderr, &l);
		fprintf(stderr, "gpuplan fit: no curve could be fitted; nothing written\n");
		rc = 1;
		goto out;
	}
	struct output o;
	output_open(&o);
	if (fmt == FIT_JSON) {
		json_t *j = curves_json(&l);
		json_write(o.f, j);
		json_decref(j);
	} else if (fmt == FIT_YAML)
		fitted_emit(&l, o.f);
	else
		print_table(o.f, &l);
	if (plot) {
		fflush(o.f);
		rc = write_with_plots(&l, plot, opt_value(&p, &fit_spec, "output"),
				      o.data, o.len);
		output_discard(&o);
	} else
		rc = output_finish(&o, opt_value(&p, &fit_spec, "output"));
out:
	curve_list_free(&l);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}
