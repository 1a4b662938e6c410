/*
 * sample_device.c - a workload's figures on the measured device, with
 * their ranges; see sample_device.h.
 */
#include "hwmodel/sample_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmodel/efficiency.h"
#include "model/graph.h"
#include "hwmodel/roofline.h"

/* The parameters of one draw of every curve the estimate uses. */
struct draw {
	double gemm[PREC_COUNT][2];
	double memory[2];
	double step[2];
};

static void draw_all(const struct calibration *c,
		     const struct scaling_curve *step, gsl_rng *r, bool fitted,
		     struct draw *d)
{
	for (int p = 0; p < PREC_COUNT; p++)
		if (c->gemm[p]) {
			if (fitted)
				calibration_values(c->gemm[p], d->gemm[p]);
			else
				calibration_draw(c->gemm[p], r, d->gemm[p]);
		}
	const struct scaling_curve *m[2] = {c->memory, step};
	double *q[2] = {d->memory, d->step};
	for (int i = 0; i < 2; i++)
		if (m[i]) {
			if (fitted)
				calibration_values(m[i], q[i]);
			else
				calibration_draw(m[i], r, q[i]);
		}
}

/* The device as drawn: its measured peaks and memory rate. */
static void device_of(const struct calibration *c, const struct draw *d,
		      struct accelerator *a)
{
	memset(a, 0, sizeof(*a));
	a->name = (char *)c->device;
	a->memory_bandwidth = calibration_memory_rate(c, d->memory);
	a->sms = 1;
	for (int p = 0; p < PREC_COUNT; p++)
		if (c->gemm[p]) {
			a->peak[p] = d->gemm[p][0];
			a->has_peak[p] = true;
		}
}

/* The forward pass by the measured kernels, s. */
static double kernels_forward(const struct calibration *c,
			      const struct model_graph *g, long batch,
			      enum precision p, bool fused,
			      const struct draw *d)
{
	struct accelerator a;
	device_of(c, d, &a);
	enum precision used;
	roofline_matrix_peak(&a, p, &used);
	struct efficiency e;
	efficiency_default(&e);
	e.compute = 1;
	e.memory = 1;
	e.fused_attention = fused;
	e.matrix.measured_half_n = d->gemm[used][1];
	struct roofline out;
	roofline_forward_tp(g, 0, batch, &a, p, 1, false, &e, &out);
	return out.time;
}

static struct sample_range range_of(double *v, size_t n)
{
	struct sample_range r;
	calibration_percentiles(v, n, &r.low, &r.median, &r.high);
	return r;
}

static struct sample_range scaled(struct sample_range r, double k, bool invert)
{
	if (invert)
		return (struct sample_range){k / r.high, k / r.median, k / r.low};
	return (struct sample_range){r.low * k, r.median * k, r.high * k};
}

/* Why the kernels cannot time p, or NULL. */
static const char *kernels_missing(const struct calibration *c,
				   enum precision p, enum precision *used)
{
	struct draw d = {0};
	draw_all(c, NULL, NULL, true, &d);
	struct accelerator a;
	device_of(c, &d, &a);
	if (roofline_matrix_peak(&a, p, used) <= 0)
		return "no GEMM curve at this precision or a wider one";
	if (!c->memory)
		return c->gpu ? "no membw curve"
			      : "no membw curve in memory (a full bench's membw suite measures one)";
	return NULL;
}

int sample_estimate(const struct calibration *c, const struct workload *w,
		    struct sample_estimate *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	bool training = w->kind == WORKLOAD_TRAINING;
	out->batch = training ? w->train.global_batch : 1;
	out->seq = training ? w->train.seq : w->infer.prompt_tokens;
	out->precision_used = w->precision;
	const char *missing = kernels_missing(c, w->precision, &out->precision_used);
	const struct scaling_curve *step = NULL;
	if (!model_is_sequence(w->model)) {
		step = calibration_step(c, w->model->name, w->precision);
		if (!step && !missing)
			step = calibration_step(c, w->model->name, out->precision_used);
	}
	if (!step && missing) {
		snprintf(why, len, "the profile has no step curve of %s and %s",
			 w->model->name, missing);
		return -1;
	}
	struct model_graph g;
	struct gp_errors errs;
	gp_errors_init(&errs);
	int built = model_build(w->model, out->seq, &g, &errs);
	if (built < 0) {
		snprintf(why, len, "%s", errs.n ? errs.v[0].msg : "cannot build the model");
		gp_errors_free(&errs);
		return -1;
	}
	gp_errors_free(&errs);
	bool fused = training ? w->train.fused_attention : true;
	double *kv = calloc(CALIBRATION_DRAWS, sizeof(double));
	double *sv = calloc(CALIBRATION_DRAWS, sizeof(double));
	gsl_rng *r = calibration_rng();
	for (size_t i = 0; i < CALIBRATION_DRAWS; i++) {
		struct draw d = {0};
		draw_all(c, step, r, false, &d);
		if (!missing)
			kv[i] = kernels_forward(c, &g, out->batch, w->precision,
						fused, &d);
		if (step)
			sv[i] = d.step[0] + (double)out->batch * d.step[1];
	}
	gsl_rng_free(r);
	model_graph_free(&g);
	out->present = true;
	out->has_kernels = !missing;
	if (missing)
		snprintf(out->kernels_why, sizeof(out->kernels_why), "%s", missing);
	else
		out->kernels_forward_s = range_of(kv, CALIBRATION_DRAWS);
	out->from_step = step != NULL;
	out->forward_s = step ? range_of(sv, CALIBRATION_DRAWS) : out->kernels_forward_s;
	free(kv);
	free(sv);
	if (training) {
		out->step_s = scaled(out->forward_s, 3.0, false);
		out->run_s = scaled(out->step_s, w->train.steps, false);
	} else {
		out->per_s = scaled(out->forward_s, 1.0, true);
	}
	return 0;
}
