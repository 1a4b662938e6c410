/*
 * calibrate.c - measured fractions of the sample device's datasheet,
 * carried to the catalog; see calibrate.h.
 */
#include "hwmodel/calibrate.h"

#include "catalog/device_match.h"
#include "profile/samples.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/*
 * The catalog's entry for the device (catalog_match_device), or NULL
 * with why in note.
 */
static const struct accelerator *match(const struct calibration *c,
				       const struct catalog *cat, char *note,
				       size_t len)
{
	const char *name = strchr(c->device, ':');
	name = name ? name + 1 : c->device;
	char names[400];
	int n;
	const struct accelerator *a =
		catalog_match_device(cat, name, names, sizeof(names), &n);
	if (a)
		return a;
	if (n > 1)
		snprintf(note, len, "the sample device (%s) could be any of %s: name it with --profile-accelerator to carry its measured fractions to the catalog",
			 c->device, names);
	else
		snprintf(note, len, "the sample device (%s) is not a catalog accelerator: its measured rates are its own (the sample_device figures); the catalog's options keep the assumed efficiencies",
			 c->device);
	return NULL;
}

/* The measured precision with the highest datasheet peak on a. */
static int compute_precision(const struct calibration *c,
			     const struct accelerator *a)
{
	int best = -1;
	for (int p = 0; p < PREC_COUNT; p++)
		if (c->gemm[p] && a->has_peak[p] &&
		    (best < 0 || a->peak[p] > a->peak[best]))
			best = p;
	return best;
}

/*
 * A measured rate above the datasheet's (by more than the 5% a boost
 * clock or a rounded datasheet figure may explain) is not of this part,
 * or not measured well: it is not carried, and the note says so.
 */
static bool above_datasheet(struct carried *k, const struct scaling_curve *s,
			    double datasheet, const char *unit)
{
	double v = s->fit.p[0].value;
	if (v <= 1.05 * datasheet)
		return false;
	size_t at = strlen(k->refused);
	snprintf(k->refused + at, sizeof(k->refused) - at,
		 "; '%s' not carried: %.4g %s is %.2fx %s's datasheet %.4g",
		 s->name, v, unit, v / datasheet, k->acc->name, datasheet);
	return true;
}

/* A curve's peak as a fraction of the datasheet's figure: *fraction,
 * *half (its 95% half-width) and from.  false when refused. */
struct fraction_out {
	double *fraction, *half;
	char *from;
	size_t len;
	const char *what;	/* "peak" or "bandwidth", in the sentence */
};

static bool carry_fraction(const struct calibration *c, struct carried *k,
			   const struct scaling_curve *s, double datasheet,
			   const char *unit, const struct fraction_out *o)
{
	if (above_datasheet(k, s, datasheet, unit))
		return false;
	const struct fit_param *peak = &s->fit.p[0];
	*o->fraction = peak->value / datasheet;
	*o->half = (peak->hi - peak->value) / datasheet;
	snprintf(o->from, o->len,
		 "measured on %s, %s (%s, '%s'): %.4g %s of %s's datasheet %.4g, carried to every accelerator as that fraction of its own %s (assumption)",
		 c->device, c->measured, c->file, s->name, peak->value, unit,
		 k->acc->name, datasheet, o->what);
	return true;
}

static void carry_compute(const struct calibration *c, struct carried *k,
			  struct efficiency *e)
{
	int p = compute_precision(c, k->acc);
	const struct fraction_out o = {&e->compute, &k->compute_half,
				       k->compute_from, sizeof(k->compute_from),
				       "peak; the tile model still shapes each matrix op"};
	/* of the peak the part sustains, which is what roofline.c scales:
	 * a power-limited part's measured GEMM already runs at its held
	 * clock, and must not be scaled down by it a second time */
	if (p >= 0 && carry_fraction(c, k, c->gemm[p],
				     accelerator_sustained_peak(k->acc, p),
				     "FLOP/s", &o)) {
		k->compute = true;
		e->compute_from = k->compute_from;
	}
}

/* The rows, output and input features of the product a train-gemm point
 * belongs to, from its role (bench/train_shapes.h: forward m = out,
 * n = rows, k = in; dgrad m = in, n = rows, k = out; wgrad m = in,
 * n = out, k = rows). */
static void product_dims(const struct train_point *p, double *rows,
			 double *out, double *in)
{
	if (!strcmp(p->role, "forward")) {
		*rows = (double)p->n, *out = (double)p->m, *in = (double)p->k;
	} else if (!strcmp(p->role, "dgrad")) {
		*rows = (double)p->n, *out = (double)p->k, *in = (double)p->m;
	} else {
		*rows = (double)p->k, *out = (double)p->n, *in = (double)p->m;
	}
}

/* sum(W / shape) over the points: the time at the ceiling 1, x peak. */
static double shaped_work(const struct train_matmul *m, const struct efficiency *e,
			  long sms)
{
	double w = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct train_point *p = &m->v[i];
		double rows, out, in;
		product_dims(p, &rows, &out, &in);
		double work = 2.0 * (double)p->m * (double)p->n * (double)p->k *
			      (double)p->occurrences;
		w += work / matrix_eff_gemm(&e->matrix, MATRIX_GEMM, rows, out, in,
					    1, sms, NULL);
	}
	return w;
}

/* The median SM clock of the points' steady parts, Hz; 0: none sampled. */
static double median_clock(const struct train_matmul *m)
{
	double v[TRAIN_TERMS_MAX_POINTS];
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].clock_hz > 0)
			v[n++] = m->v[i].clock_hz;
	return gpu_median(v, n);
}

/* The compute ceiling from the model's own GEMMs (calibrate.h), in place
 * of the square GEMM curve's; false when the part has no peak at their
 * precision or the ceiling is above the datasheet. */
static bool carry_matmul(const struct calibration *c, struct carried *k,
			 struct efficiency *e)
{
	const struct train_terms *t = c->matmul;
	int p = t ? precision_from_name(t->matmul.precision) : -1;
	if (!t || p < 0 || !k->acc->has_peak[p])
		return false;
	const struct train_matmul *m = &t->matmul;
	double peak = accelerator_sustained_peak(k->acc, (enum precision)p);
	long sms = matrix_eff_sms(&e->matrix, k->acc, 1.0);
	double shaped = shaped_work(m, e, sms), work = 0;
	for (size_t i = 0; i < m->n; i++)
		work += 2.0 * (double)m->v[i].m * m->v[i].n * m->v[i].k * m->v[i].occurrences;
	/* the measured time of the work is work / rate */
	double ceiling = shaped * m->rate / (work * peak);
	if (ceiling > 1.05) {
		size_t at = strlen(k->refused);
		snprintf(k->refused + at, sizeof(k->refused) - at,
			 "; the matmul of %s's GEMMs not carried: a ceiling of %.2f of %s's sustained %s peak",
			 t->model, ceiling, k->acc->name, m->precision);
		return false;
	}
	e->compute = ceiling;
	k->compute_half = fmax(ceiling * (m->high / m->rate - 1),
			       ceiling * (1 - m->low / m->rate));
	char clock[200] = "";
	double hz = median_clock(m);
	if (hz > 0) {
		char names[96] = "none";
		if (m->throttle)
			gpu_throttle_names(m->throttle, names, sizeof(names));
		snprintf(clock, sizeof(clock), "; median SM clock %.0f MHz, throttle reasons: %s",
			 hz / 1e6, names);
	}
	snprintf(k->compute_from, sizeof(k->compute_from),
		 "measured on %.80s, %.40s (%.200s, train-gemm): %.60s's %zu forward, data- and weight-gradient GEMMs at micro-batch %ld, tp %ld, %.8s, random data, %.3g s sustained each: %.4g FLOP/s [%.4g, %.4g]%.200s; a ceiling of %.3f of %.60s's sustained %.8s peak once the tile model's factor at each product's shape is divided out; carried to every accelerator as that fraction of its own peak (assumption)",
		 c->device, t->measured, c->file, t->model, m->n, t->micro_batch,
		 t->tp, m->precision, t->sustain_s, m->rate, m->low, m->high, clock,
		 ceiling, k->acc->name, m->precision);
	e->compute_from = k->compute_from;
	k->compute = k->matmul = true;
	return true;
}

/* The overlap slowdown and the straggler spread, as measured, to every
 * instance (calibrate.h). */
static void carry_training(const struct calibration *c, struct carried *k,
			   struct efficiency *e)
{
	if (!c->gpu)
		return;
	const struct train_terms *t = c->overlap;
	if (t) {
		const struct train_overlap *o = &t->overlap;
		bool copy = strstr(o->beside, "allreduce") == NULL;
		e->overlap_slowdown = fmax(o->slowdown, 0);
		k->overlap_low = fmax(o->low, 0);
		k->overlap_high = fmax(o->high, 0);
		snprintf(k->overlap_from, sizeof(k->overlap_from),
			 "measured on %s, %s (%s, overlap): %s's largest GEMM %.2f%% slower beside %s [%.2f%%, %.2f%%]%s%s; taken to hold on every instance (assumption)",
			 c->device, t->measured, c->file, t->model, 100 * o->slowdown,
			 o->beside, 100 * o->low, 100 * o->high,
			 o->slowdown < 0 ? ", a speed-up within the noise held at 0" : "",
			 copy ? " (a copy stands in for the collective: memory traffic, not NCCL's SMs, so a lower bound)" : "");
		e->overlap_from = k->overlap_from;
		k->overlap = true;
	}
	t = c->spread;
	if (t) {
		const struct train_spread *s = &t->spread;
		e->straggler_cv = s->cv;
		k->straggler_low = s->low;
		k->straggler_high = s->high;
		snprintf(k->straggler_from, sizeof(k->straggler_from),
			 "measured on %s, %s (%s, spread): %s's largest GEMM on %d GPUs of the node, coefficient of variation %.2f%% [%.2f%%, %.2f%%] (a chi-square interval over %d degrees of freedom), slowest GPU %d; taken to hold on every node (assumption)",
			 c->device, t->measured, c->file, t->model, s->n, 100 * s->cv,
			 100 * s->low, 100 * s->high, s->n - 1, s->slowest);
		e->straggler_from = k->straggler_from;
		k->straggler = true;
	}
}

static void carry_memory(const struct calibration *c, struct carried *k,
			 struct efficiency *e)
{
	if (!c->memory || c->memory->kind != CURVE_MEMBW ||
	    k->acc->memory_bandwidth <= 0)
		return;
	const struct fraction_out o = {&e->memory, &k->memory_half,
				       k->memory_from, sizeof(k->memory_from),
				       "bandwidth"};
	if (carry_fraction(c, k, c->memory, k->acc->memory_bandwidth, "B/s", &o)) {
		k->memory = true;
		e->memory_from = k->memory_from;
	}
}

/*
 * A line's rate (1 / s_per_byte) over one way of a link the datasheet
 * gives both ways of: the fraction into *fraction and its provenance into
 * from, or false when there is no such figure or the rate is above it by
 * more than 5% (said in k->refused, as above_datasheet).
 */
static bool carry_rate(const struct calibration *c, struct carried *k,
		       const struct scaling_curve *s, double both_ways,
		       const char *what, double *fraction, char *from, size_t len)
{
	double one_way = both_ways / 2;
	if (!s || one_way <= 0)
		return false;
	double q[2];
	calibration_values(s, q);
	double rate = calibration_link_rate(q);
	if (rate > 1.05 * one_way) {
		size_t at = strlen(k->refused);
		snprintf(k->refused + at, sizeof(k->refused) - at,
			 "; '%s' not carried: %.4g B/s is %.2fx %s's %s %.4g one way",
			 s->name, rate, rate / one_way, k->acc->name, what, one_way);
		return false;
	}
	*fraction = rate / one_way;
	snprintf(from, len,
		 "measured on %s, %s (%s, '%s'): %.4g B/s of %s's %s %.4g one way, carried to every accelerator as that fraction of its own (assumption)",
		 c->device, c->measured, c->file, s->name, rate, k->acc->name,
		 what, one_way);
	return true;
}

static void carry_links(const struct calibration *c, struct carried *k,
			struct efficiency *e)
{
	if (carry_rate(c, k, c->host_link, k->acc->host_interface.bandwidth,
		       "host interface", &e->host_link, k->host_link_from,
		       sizeof(k->host_link_from))) {
		k->host_link = true;
		e->host_link_from = k->host_link_from;
	}
	if (carry_rate(c, k, c->collective, k->acc->interconnect.bandwidth,
		       "GPU interconnect", &e->link, k->link_from,
		       sizeof(k->link_from))) {
		k->link = true;
		e->link_from = k->link_from;
	}
}

static void carry_launch(const struct calibration *c, struct carried *k,
			 struct efficiency *e)
{
	const struct measured_rate *m = c->launch;
	if (!c->gpu || !m || !(m->value > 0))
		return;
	e->stream_floor = 1 / m->value;
	k->launch = true;
	snprintf(k->launch_from, sizeof(k->launch_from),
		 "measured on %s, %s (%s, '%s'): %.4g launches/s [%.4g, %.4g], so %.3g us per kernel launched from the host, taken to hold on every instance's host (assumption); the gaps per kernel stay NVIDIA's (CUDA Graphs blog, 2019)",
		 c->device, c->measured, c->file, m->name, m->value, m->low,
		 m->high, 1e6 / m->value);
	e->launch_from = k->launch_from;
}

/* "compute, memory, host link": the fractions carried. */
static void carried_list(const struct carried *k, char *out, size_t len)
{
	const struct { bool on; const char *name; } parts[] = {
		{k->compute, k->matmul ? "compute (the model's own GEMMs)" : "compute"},
		{k->memory, "memory"}, {k->host_link, "host link"},
		{k->link, "GPU link"}};
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].on) {
			size_t at = strlen(out);
			snprintf(out + at, len - at, "%s%s", at ? ", " : "",
				 parts[i].name);
		}
}

int calibrate_carry(const struct calibration *c, const struct catalog *cat,
		    const char *acc_name, struct efficiency *e,
		    struct carried *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->cal = c;
	if (acc_name) {
		out->acc = catalog_find_accelerator(cat, acc_name);
		if (!out->acc) {
			snprintf(why, len, "--profile-accelerator: no accelerator '%s' in the catalog (gpuplan catalog list shows them)",
				 acc_name);
			return -1;
		}
	} else if (c->gpu) {
		out->acc = match(c, cat, out->note, sizeof(out->note));
	} else {
		snprintf(out->note, sizeof(out->note),
			 "the sample device (%s) is a CPU: its measured rates are its own (the sample_device figures); a CPU's fraction of its own peak says nothing of a GPU's, so the catalog's options keep the assumed efficiencies",
			 c->device);
	}
	carry_launch(c, out, e);
	carry_training(c, out, e);
	if (!out->acc) {
		size_t at = strlen(out->note);
		if (out->launch)
			snprintf(out->note + at, sizeof(out->note) - at,
				 "; its host's launch floor is carried to every instance as it is");
		if (out->overlap || out->straggler)
			snprintf(out->note + strlen(out->note), sizeof(out->note) - strlen(out->note),
				 "; its overlap slowdown and straggler spread are carried to every instance as they are");
		return 0;
	}
	if (!carry_matmul(c, out, e))
		carry_compute(c, out, e);
	carry_memory(c, out, e);
	carry_links(c, out, e);
	char list[200];
	carried_list(out, list, sizeof(list));
	snprintf(out->note, sizeof(out->note),
		 "measured on %s, %s, as catalog accelerator %s: %s carried to the catalog as fractions of each datasheet",
		 c->device, c->measured, out->acc->name, list);
	if (!list[0] && (out->overlap || out->straggler))
		snprintf(out->note, sizeof(out->note),
			 "measured on %s, %s, as catalog accelerator %s: no datasheet fraction carried",
			 c->device, c->measured, out->acc->name);
	else if (!list[0])
		snprintf(out->note, sizeof(out->note),
			 "the sample device (%s) is catalog accelerator %s, but %s",
			 c->device, out->acc->name,
			 out->refused[0] ? "none of its measured fractions could be carried"
					 : "the profile has no GEMM, membw, pinned-transfer or all-reduce curve to carry");
	size_t at = strlen(out->note);
	snprintf(out->note + at, sizeof(out->note) - at, "%s%s%s",
		 out->launch ? "; its host's launch floor is carried to every instance as it is" : "",
		 out->overlap || out->straggler
			 ? "; its overlap slowdown and straggler spread are carried to every instance as they are" : "",
		 out->refused);
	return 0;
}

void calibrate_time_factors(const struct carried *k, const struct efficiency *e,
			    double compute, double memory, double total,
			    double *low, double *high)
{
	*low = *high = 1;
	if (!k || total <= 0)
		return;
	double rest = fmax(total - compute - memory, 0);
	double c_lo = 1, c_hi = 1, m_lo = 1, m_hi = 1;
	if (k->compute && k->compute_half > 0) {
		/* a time at fraction f' is the time at f times f / f' */
		c_lo = e->compute / (e->compute + k->compute_half);
		c_hi = e->compute / fmax(e->compute - k->compute_half, 1e-3 * e->compute);
	}
	if (k->memory && k->memory_half > 0) {
		m_lo = e->memory / (e->memory + k->memory_half);
		m_hi = e->memory / fmax(e->memory - k->memory_half, 1e-3 * e->memory);
	}
	*low = (compute * c_lo + memory * m_lo + rest) / total;
	*high = (compute * c_hi + memory * m_hi + rest) / total;
}
