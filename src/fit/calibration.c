/*
 * calibration.c - a fitted file read as the sample device's rates; see
 * calibration.h.
 */
#include "calibration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "profile/profile.h"
#include "core/yaml_tree.h"
#include "core/sort_doubles.h"
#include "fit/fitted.h"

/* Whether path's `schema:` is the measured profile's (else it is read as
 * a fitted file, whose loader says what is wrong with it). */
static bool is_measured(const char *path, const char *shown)
{
	struct ytree t = {0};
	struct gp_errors quiet;
	gp_errors_init(&quiet);
	bool measured = false;
	if (ytree_load(&t, path, shown, &quiet) == 0 && t.root &&
	    t.root->kind == YNODE_MAP) {
		const struct ynode *s = ymap_get(t.root, "schema");
		measured = s && s->kind == YNODE_SCALAR &&
			   !strcmp(s->text, BENCH_PROFILE_SCHEMA);
	}
	ytree_free(&t);
	gp_errors_free(&quiet);
	return measured;
}

static int read_curves(struct curve_list *l, const char *path,
		       const char *shown, struct gp_errors *errs)
{
	if (!is_measured(path, shown))
		return fitted_load(l, path, shown, errs);
	struct bench_profile p;
	if (bench_profile_load(&p, path, errs) < 0) {
		bench_profile_free(&p);
		return -1;
	}
	curves_from_profile(&p, shown, l);
	bench_profile_free(&p);
	return 0;
}

/* The curve's words after `prefix` ("gemm ", "model "), or NULL. */
static const char *after(const struct scaling_curve *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s->name, prefix, n) ? NULL : s->name + n;
}

static void pick(struct calibration *c, const struct scaling_curve *s)
{
	const char *rest;
	if (s->kind == CURVE_GEMM && (rest = after(s, "gemm "))) {
		int p = precision_from_name(rest);
		if (p >= 0)
			c->gemm[p] = s;
	} else if (s->kind == CURVE_MEMBW || s->kind == CURVE_MEMBW_MEMORY) {
		/* triad (two reads, one write) is the usual streaming op */
		if (!c->memory || strstr(s->name, " triad"))
			c->memory = s;
	} else if (s->kind == CURVE_TRANSFER &&
		   !strcmp(s->name, "transfer h2d-pinned")) {
		c->host_link = s;
	} else if (s->kind == CURVE_COLLECTIVE) {
		/* the most GPUs: the rate a whole node's ring reaches */
		int gpus = 0;
		const char *x = strstr(s->name, " x ");
		if (x && sscanf(x, " x %d GPUs", &gpus) == 1 &&
		    gpus > c->collective_gpus) {
			c->collective = s;
			c->collective_gpus = gpus;
		}
	}
}

/* Each training term t gives, unless a later profile gave it already. */
static void pick_training(struct calibration *c, const struct train_terms *t)
{
	const struct {
		bool ok;
		const struct train_terms **slot;
	} terms[] = {
		{t->matmul.ok, &c->matmul}, {t->overlap.ok, &c->overlap},
		{t->spread.ok, &c->spread}, {t->layer.ok, &c->layer}};
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		if (terms[i].ok && (!*terms[i].slot ||
				    strcmp(t->measured, (*terms[i].slot)->measured) > 0))
			*terms[i].slot = t;
}

/* A fitted figure of `device`, measured `when`: the first device seen
 * into *first, the latest time into c->measured; -1 (said) when it is
 * another device than the first. */
static int one_device(struct calibration *c, const char *device,
		      const char *when, const char **first,
		      struct gp_errors *errs)
{
	if (!*first) {
		*first = device;
	} else if (strcmp(device, *first)) {
		gp_errors_add(errs, c->file, 0, 0,
			      "fit each device's profiles into a file of its own",
			      "curves of two devices ('%s' and '%s'): a calibration is of one sample device",
			      *first, device);
		return -1;
	}
	if (strcmp(when, c->measured) > 0)
		snprintf(c->measured, sizeof(c->measured), "%s", when);
	return 0;
}

int calibration_load(struct calibration *c, const char *path,
		     const char *shown, struct gp_errors *errs)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->file, sizeof(c->file), "%s", shown);
	if (read_curves(&c->curves, path, shown, errs) < 0)
		return -1;
	const char *first = NULL;
	const struct curve_list *l = &c->curves;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ok && one_device(c, l->v[i].device, l->v[i].measured,
					     &first, errs) < 0)
			return -1;
	for (size_t i = 0; i < l->n_rates; i++)
		if (l->rates[i].ok && one_device(c, l->rates[i].device,
						 l->rates[i].measured, &first,
						 errs) < 0)
			return -1;
	for (size_t i = 0; i < l->n_train; i++)
		if (train_terms_any(&l->train[i]) &&
		    one_device(c, l->train[i].device, l->train[i].measured, &first,
			       errs) < 0)
			return -1;
	if (!first) {
		gp_errors_add(errs, shown, 0, 0,
			      "the file's left_out list says why each series was not fitted",
			      "no fitted curve to calibrate with");
		return -1;
	}
	snprintf(c->device, sizeof(c->device), "%s", first);
	c->gpu = strncmp(c->device, "cpu:", 4) != 0;
	for (size_t i = 0; i < c->curves.n; i++)
		if (c->curves.v[i].ok)
			pick(c, &c->curves.v[i]);
	for (size_t i = 0; i < l->n_rates; i++)
		if (l->rates[i].ok && !strcmp(l->rates[i].unit, "launch/s"))
			c->launch = &l->rates[i];
	for (size_t i = 0; i < l->n_train; i++)
		pick_training(c, &l->train[i]);
	return 0;
}

void calibration_free(struct calibration *c)
{
	curve_list_free(&c->curves);
	memset(c, 0, sizeof(*c));
}

const struct scaling_curve *calibration_step(const struct calibration *c,
					     const char *model, enum precision p)
{
	char name[96];
	snprintf(name, sizeof(name), "model %s %s step time", model,
		 precision_name(p));
	for (size_t i = 0; i < c->curves.n; i++) {
		const struct scaling_curve *s = &c->curves.v[i];
		if (s->ok && s->kind == CURVE_STEP_TIME && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

double calibration_memory_rate(const struct calibration *c, const double q[2])
{
	if (!c->memory)
		return 0;
	if (c->memory->kind == CURVE_MEMBW_MEMORY)
		return 1.0 / q[1];
	return q[0];
}

double calibration_link_rate(const double q[2])
{
	return 1.0 / q[1];
}

void calibration_values(const struct scaling_curve *s, double q[2])
{
	q[0] = s->fit.p[0].value;
	q[1] = s->fit.p[1].value;
}

void calibration_draw(const struct scaling_curve *s, gsl_rng *r, double q[2])
{
	const double (*v)[FIT_PARAMS] = s->fit.cov;
	double l00 = sqrt(fmax(v[0][0], 0));
	double l10 = l00 > 0 ? v[1][0] / l00 : 0;
	double l11 = sqrt(fmax(v[1][1] - l10 * l10, 0));
	double z0 = gsl_ran_ugaussian(r), z1 = gsl_ran_ugaussian(r);
	q[0] = s->fit.p[0].value + l00 * z0;
	q[1] = s->fit.p[1].value + l10 * z0 + l11 * z1;
	/* a draw past zero is not a device: held at a thousandth of the
	 * fitted value (a fixed cost may be 0 and stays so) */
	for (int i = 0; i < 2; i++)
		if (q[i] <= 0)
			q[i] = s->fit.p[i].value > 0 ? s->fit.p[i].value * 1e-3 : 0;
}

gsl_rng *calibration_rng(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 20261202);
	return r;
}

void calibration_percentiles(double *v, size_t n, double *low,
			     double *median, double *high)
{
	sort_doubles(v, n);
	*low = v[(size_t)floor(0.025 * (double)(n - 1) + 0.5)];
	*median = v[(size_t)floor(0.5 * (double)(n - 1) + 0.5)];
	*high = v[(size_t)floor(0.975 * (double)(n - 1) + 0.5)];
}
