/*
 * compare_profiles.c - two measured profiles, figure by figure; see
 * compare_profiles.h.
 */
#include "compare/compare_profiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_runs.h"
#include "core/output.h"
#include "core/xalloc.h"

/* A figure's identity: "gemm fp32 m=n=k=2048 [sgemm fp32]".  The thread
 * count is left out, so that a bench at --threads 1 and one at 2 compare
 * figure by figure; the comparison then says the counts differ. */
static void identity(const struct bench_figure *f, char *buf, size_t len)
{
	char label[BENCH_LABEL_MAX];
	bench_figure_label(f, label, sizeof(label));
	snprintf(buf, len, "%s [%s%s%s]", label, f->kernel,
		 f->precision[0] ? " " : "", f->precision);
}

static const struct bench_figure *find(const struct bench_profile *p,
				       const char *id)
{
	char other[256];
	for (size_t i = 0; i < p->figures.n; i++) {
		identity(&p->figures.v[i], other, sizeof(other));
		if (strcmp(other, id) == 0)
			return &p->figures.v[i];
	}
	return NULL;
}

/* Each repetition's rate, work / its time. */
static double *rates(const struct bench_figure *f, size_t *n)
{
	double *v = xcalloc(f->time.n + 1, sizeof(double));
	*n = 0;
	for (size_t i = 0; i < f->time.n; i++)
		if (f->time.samples[i] > 0)
			v[(*n)++] = f->work / f->time.samples[i];
	return v;
}

static json_t *side(const struct bench_profile *p, const char *file)
{
	json_t *j = json_object();
	json_object_set_new(j, "file", json_text(file));
	json_object_set_new(j, "command", json_pack("[s]", "gpuplan bench"));
	json_object_set_new(j, "when", json_text(p->when));
	json_object_set_new(j, "host", json_text(p->hostname));
	json_object_set_new(j, "device", json_text(p->device.name));
	json_object_set_new(j, "runs", json_integer((json_int_t)p->figures.n));
	json_object_set_new(j, "counted", json_integer((json_int_t)p->figures.n));
	json_object_set_new(j, "warmup", json_integer(0));
	json_object_set_new(j, "failed", json_integer(0));
	json_object_set_new(j, "gpu", json_null());
	return j;
}

static json_t *only_in(const struct bench_profile *p,
		       const struct bench_profile *other)
{
	json_t *a = json_array();
	char id[256];
	for (size_t i = 0; i < p->figures.n; i++) {
		identity(&p->figures.v[i], id, sizeof(id));
		if (!find(other, id))
			json_array_append_new(a, json_text(id));
	}
	return a;
}

json_t *compare_profiles(const struct bench_profile *before,
			 const char *before_file,
			 const struct bench_profile *after,
			 const char *after_file)
{
	json_t *metrics = json_array(), *notes = json_array();
	char id[256];
	size_t other_threads = 0;
	for (size_t i = 0; i < before->figures.n; i++) {
		const struct bench_figure *fb = &before->figures.v[i];
		identity(fb, id, sizeof(id));
		const struct bench_figure *fa = find(after, id);
		if (!fa)
			continue;
		other_threads += fb->threads != fa->threads;
		size_t nb, na;
		double *vb = rates(fb, &nb), *va = rates(fa, &na);
		json_array_append_new(metrics, compare_metric_json(id,
			BETTER_HIGHER, fb->unit, vb, nb, 0, va, na, 0));
		free(vb);
		free(va);
	}
	if (other_threads)
		json_array_append_new(notes, json_sprintf(
			"%zu figures ran on other thread counts (%d before, %d after): the change includes that",
			other_threads, before->threads, after->threads));
	return compare_measured_json("profiles",
		"Welch's t-test on each figure's raw repetitions as rates (work / time of the repetition; higher is better); 95% interval of the difference of means with Welch-Satterthwaite degrees of freedom; ratio after/before with a delta-method 95% interval; verdict at p < 0.05",
		side(before, before_file), side(after, after_file), metrics,
		only_in(before, after), only_in(after, before), notes);
}
