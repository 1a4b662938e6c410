/*
 * findings.c - see findings.h.
 */
#include "findings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "core/sort_doubles.h"
#include "core/xalloc.h"

/*
 * The thresholds.  Each is an assumption, not a measurement: a value that
 * separates a GPU worth a look from one working as expected on the logs
 * people send, stated here so a reader can disagree with it.
 */
/* A training or inference job that feeds its GPU keeps utilization.gpu
 * near 90 % or more; under half the rented GPU time does no work. */
#define LOW_UTIL_MEAN 0.50
#define LOW_UTIL_CRITICAL 0.25
/* A sample at or under 5 % is idle: nvidia-smi reads a few percent from
 * monitoring and housekeeping kernels on a GPU with no job. */
#define IDLE_UTIL_PCT 5.0
/* An idle stretch shorter than 10 s is a step's pause (a heartbeat's
 * drop), not a gap; 10 s is ten periods of the documented `-l 1`. */
#define IDLE_GAP_MIN_S 10.0
/* Gaps worth reporting take at least 5 % of the time (critical: 25 %). */
#define IDLE_FRACTION_MIN 0.05
#define IDLE_FRACTION_CRITICAL 0.25
/* A drop is a sample under half the busy level (the 90th percentile of
 * utilisation); a heartbeat is at least 4 drops whose spacing varies by
 * at most 25 % (coefficient of variation): regular enough to be the
 * training loop's rhythm rather than chance. */
#define DROP_FRACTION 0.5
#define HEARTBEAT_MIN_DROPS 4
#define HEARTBEAT_MAX_CV 0.25
#define BUSY_MIN_PCT 20.0	/* under this busy level there is no rhythm to see */
/* Under half the memory used at its peak leaves room for a batch at
 * least ~1.8x larger; 90 % is the most a plan should fill (the rest for
 * the allocator's fragmentation and the CUDA context). */
#define MEM_USED_MAX 0.50
#define MEM_SAFE_FRACTION 0.90
/* Clocks under 90 % of the board's maximum while busy are held down;
 * a busy sample is one at 50 % utilisation or more (an idle GPU lowers
 * its clocks by design). */
#define CLOCK_DOWN_FRACTION 0.90
#define BUSY_PCT 50.0
/* Without reason fields: 83 C is taken as hot (data-centre boards begin
 * their thermal slowdown in the mid-80s C; `nvidia-smi -q` prints the
 * board's own "GPU Slowdown Temp"), and 95 % of power.limit as at the
 * limit. */
#define HOT_C 83.0
#define AT_POWER_LIMIT 0.95
/* Throttling worth reporting covers 5 % of the time and 3 samples;
 * critical when it costs 20 % of the clock. */
#define THROTTLE_MIN_FRACTION 0.05
#define THROTTLE_MIN_SAMPLES 3
#define THROTTLE_CRITICAL_LOSS 0.20

static const char *const kind_names[FIND_KINDS] = {
	"low_utilization", "heartbeat", "idle_gaps", "memory_headroom",
	"thermal_throttling", "power_throttling", "shared_gpu",
};

const char *finding_kind_name(enum finding_kind k)
{
	return kind_names[k];
}

const char *severity_name(enum severity s)
{
	return s == SEV_CRITICAL ? "critical" : s == SEV_WARNING ? "warning" : "info";
}

static const char *const reason_names[TR_COUNT] = {
	"sw_power_cap", "hw_slowdown", "sw_thermal", "hw_thermal", "hw_power_brake",
};
static const uint64_t reason_bits[TR_COUNT] = {
	GPU_THROTTLE_SW_POWER_CAP, GPU_THROTTLE_HW_SLOWDOWN,
	GPU_THROTTLE_SW_THERMAL, GPU_THROTTLE_HW_THERMAL,
	GPU_THROTTLE_HW_POWER_BRAKE,
};

char *diag_number(double v, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v) < 1e6 ? "%.1f" : "%.3g", v);
	return buf;
}

const char *throttle_reason_name(enum throttle_reason r)
{
	return reason_names[r];
}

/* What every detector reads: the samples, their period (which gives each
 * sample's weight, the time it stands for) and how times print. */
struct series {
	const struct sample_series *x;
	const double *t;	/* x->t_s */
	size_t n;
	double period;		/* median spacing, s */
	double duration;
	const struct diagnose_context *ctx;
};

static void when(const struct series *s, double t, char *buf, size_t len)
{
	if (s->ctx->when)
		s->ctx->when(s->ctx->when_ctx, t, buf, len);
	else
		snprintf(buf, len, "+%.1f s", t);
}

static bool has(const struct series *s, enum series_column c, size_t i)
{
	return series_has(s->x, c, i);
}

static double get(const struct series *s, enum series_column c, size_t i)
{
	return series_get(s->x, c, i);
}

/* Sorts v in place for its median. */
static double median_of(double *v, size_t n)
{
	sort_doubles(v, n);
	return describe_median_sorted(v, n);
}

/* The time sample i stands for: to the next one (the last: the median
 * period); a pause in the log longer than ten periods counts as one
 * period, since nothing is known of it.  Worked out where it is needed
 * rather than kept, 8 bytes a sample saved. */
static double weight(const struct series *s, size_t i)
{
	double dt = i + 1 < s->n ? s->t[i + 1] - s->t[i] : s->period;
	return dt > 10 * s->period ? s->period : dt;
}

/*
 * The spacings of the samples repeat (nvidia-smi's -l period, to the
 * millisecond), so their median is found by counting each distinct
 * value: a few kilobytes whatever the log's length, where sorting them
 * took 8 bytes a sample.  A log with more distinct spacings than a table
 * holds falls back to the sort.  Either way the median is the same: the
 * middle value, or the mean of the middle two.
 */
#define SPACING_SLOTS 4096	/* a power of two */
#define SPACINGS_DISTINCT (SPACING_SLOTS / 2)

struct spacing {
	double v;
	size_t n;		/* 0: an empty slot */
};

static int by_spacing(const void *a, const void *b)
{
	double x = ((const struct spacing *)a)->v, y = ((const struct spacing *)b)->v;
	return (x > y) - (x < y);
}

/* Counts the spacings into slots; false when there are too many distinct. */
static bool count_spacings(const struct series *s, struct spacing *slot)
{
	size_t distinct = 0;
	for (size_t i = 1; i < s->n; i++) {
		double d = s->t[i] - s->t[i - 1];
		uint64_t bits;
		memcpy(&bits, &d, sizeof(bits));
		size_t h = (size_t)((bits * 0x9e3779b97f4a7c15ULL) >> 52) & (SPACING_SLOTS - 1);
		while (slot[h].n && memcmp(&slot[h].v, &d, sizeof(d)))
			h = (h + 1) & (SPACING_SLOTS - 1);
		if (!slot[h].n && ++distinct > SPACINGS_DISTINCT)
			return false;
		slot[h].v = d;
		slot[h].n++;
	}
	return true;
}

/* The k-th smallest (from 0) of the counted spacings, sorted by value. */
static double kth_spacing(const struct spacing *sorted, size_t k)
{
	for (size_t i = 0;; i++) {
		if (k < sorted[i].n)
			return sorted[i].v;
		k -= sorted[i].n;
	}
}

static double median_spacing(const struct series *s)
{
	size_t m = s->n - 1;
	struct spacing *slot = xcalloc(SPACING_SLOTS, sizeof(*slot));
	double median;
	if (count_spacings(s, slot)) {
		size_t used = 0;
		for (size_t i = 0; i < SPACING_SLOTS; i++)
			if (slot[i].n)
				slot[used++] = slot[i];
		qsort(slot, used, sizeof(*slot), by_spacing);
		median = m % 2 ? kth_spacing(slot, m / 2)
			       : (kth_spacing(slot, m / 2 - 1) + kth_spacing(slot, m / 2)) / 2;
	} else {
		double *d = xcalloc(m, sizeof(double));
		for (size_t i = 1; i < s->n; i++)
			d[i - 1] = s->t[i] - s->t[i - 1];
		median = median_of(d, m);
		free(d);
	}
	free(slot);
	return median;
}

/* The period (the median spacing) and the duration (the weights' sum). */
static void weigh(struct series *s)
{
	s->period = s->n > 1 ? median_spacing(s) : 1;
	if (!(s->period > 0))
		s->period = 1;
	s->duration = 0;
	for (size_t i = 0; i < s->n; i++)
		s->duration += weight(s, i);
}

static struct finding *add(const struct series *s, struct gpu_diagnosis *d,
			   enum finding_kind k, enum severity sev, double start,
			   double end)
{
	d->f = xrealloc(d->f, (d->n + 1) * sizeof(*d->f));
	struct finding *f = &d->f[d->n++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->severity = sev;
	f->start_s = start;
	f->end_s = end;
	f->unit = "";
	when(s, start, f->from, sizeof(f->from));
	when(s, end, f->to, sizeof(f->to));
	return f;
}

static void say(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static int by_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/* The rank-th smallest (from 0) reading, counted by whole percent; false
 * when a reading is not a whole percent (a log edited by hand). */
static bool whole_percentile(const float *u, size_t n, double p, double *r)
{
	size_t count[101] = {0}, m = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(u[i]))
			continue;
		if (!(u[i] >= 0 && u[i] <= 100) || u[i] != floorf(u[i]))
			return false;
		count[(int)u[i]]++;
		m++;
	}
	*r = NAN;
	if (!m)
		return true;
	size_t rank = (size_t)floor(p * (double)(m - 1) + 0.5);
	for (int pct = 0; pct <= 100; rank -= count[pct++])
		if (rank < count[pct]) {
			*r = pct;
			return true;
		}
	return true;
}

/* The p-th percentile (0..1) of the valid utilisation readings: counted
 * by whole percent as nvidia-smi writes them (no copy), else sorted as
 * the floats they are kept as (4 bytes a sample, the same order). */
static double util_percentile(const struct series *s, double p)
{
	const float *u = s->x->col[SC_UTIL];
	double whole;
	if (!u)
		return NAN;
	if (whole_percentile(u, s->n, p, &whole))
		return whole;
	float *v = xcalloc(s->n ? s->n : 1, sizeof(float));
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(u[i]))
			v[m++] = u[i];
	double r = NAN;
	if (m) {
		qsort(v, m, sizeof(float), by_float);
		r = (double)v[(size_t)floor(p * (double)(m - 1) + 0.5)] *
		    series_scale(SC_UTIL);
	}
	free(v);
	return r;
}

/* ---- utilisation ---- */

static void low_utilization(const struct series *s, struct gpu_diagnosis *d)
{
	double sum = 0, wsum = 0;
	for (size_t i = 0; i < s->n; i++)
		if (has(s, SC_UTIL, i)) {
			double w = weight(s, i);
			sum += w * get(s, SC_UTIL, i) / 100;
			wsum += w;
		}
	d->util_mean = wsum > 0 ? sum / wsum : NAN;
	if (!(d->util_mean < LOW_UTIL_MEAN))
		return;
	char a[48], b[48];
	when(s, s->t[0], a, sizeof(a));
	when(s, s->t[s->n - 1], b, sizeof(b));
	struct finding *f = add(s, d, FIND_LOW_UTILIZATION,
				d->util_mean < LOW_UTIL_CRITICAL ? SEV_CRITICAL : SEV_WARNING,
				s->t[0], s->t[s->n - 1]);
	f->figure = d->util_mean;
	f->unit = "ratio";
	f->lost_s = (1 - d->util_mean) * wsum;
	say(f->evidence, sizeof(f->evidence),
	    "mean utilization.gpu %.0f %% over %.0f s (median %.0f %%, 90th percentile %.0f %%), %s to %s; %.0f s of GPU time did no work",
	    100 * d->util_mean, wsum, util_percentile(s, 0.5),
	    util_percentile(s, 0.9), a, b, f->lost_s);
	say(f->suggestion, sizeof(f->suggestion),
	    "the job uses under half of this GPU: raise the batch size, run several jobs on it (MIG or MPS), or rent a smaller GPU; if the CPU or input pipeline is the limit, add data-loader workers first");
}

/* Runs of samples under `limit` percent: calls fn for each with its first
 * and last sample and its time. */
typedef void (*run_fn)(void *arg, size_t first, size_t last, double time);

static void runs_under(const struct series *s, double limit, run_fn fn,
		       void *arg)
{
	size_t i = 0;
	while (i < s->n) {
		if (!has(s, SC_UTIL, i) || get(s, SC_UTIL, i) > limit) {
			i++;
			continue;
		}
		size_t j = i;
		double t = 0;
		while (j < s->n && has(s, SC_UTIL, j) && get(s, SC_UTIL, j) <= limit)
			t += weight(s, j++);
		fn(arg, i, j - 1, t);
		i = j;
	}
}

#define GAPS_LISTED 4	/* gaps the evidence names one by one */

struct gaps {
	size_t n;
	double total, longest;
	size_t first, last;	/* the first gap's first sample, the last's last */
	double at[GAPS_LISTED], len[GAPS_LISTED];
	const struct series *s;
};

static void gap_run(void *arg, size_t first, size_t last, double time)
{
	struct gaps *g = arg;
	if (time < IDLE_GAP_MIN_S)
		return;
	if (g->n == 0)
		g->first = first;
	if (g->n < GAPS_LISTED) {
		g->at[g->n] = g->s->t[first];
		g->len[g->n] = time;
	}
	g->n++;
	g->last = last;
	g->total += time;
	if (time > g->longest)
		g->longest = time;
}

/* "at 2026/.. (+20.0 s) for 15 s; at ..." for the first few gaps. */
static void list_gaps(const struct series *s, const struct gaps *g,
		      char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < g->n && i < GAPS_LISTED && used < len; i++) {
		char w[48];
		when(s, g->at[i], w, sizeof(w));
		int k = snprintf(buf + used, len - used, "%s%s for %.0f s",
				 i ? "; " : "", w, g->len[i]);
		used += k > 0 ? (size_t)k : 0;
	}
	if (g->n > GAPS_LISTED && used < len)
		snprintf(buf + used, len - used, "; and %zu more", g->n - GAPS_LISTED);
}

static void idle_gaps(const struct series *s, struct gpu_diagnosis *d)
{
	struct gaps g = {.s = s};
	runs_under(s, IDLE_UTIL_PCT, gap_run, &g);
	d->idle_s = g.total;
	double frac = s->duration > 0 ? g.total / s->duration : 0;
	if (g.n == 0 || frac < IDLE_FRACTION_MIN)
		return;
	double end = s->t[g.last] + weight(s, g.last);
	struct finding *f = add(s, d, FIND_IDLE_GAPS,
				frac >= IDLE_FRACTION_CRITICAL ? SEV_CRITICAL : SEV_WARNING,
				s->t[g.first], end);
	f->figure = g.total;
	f->unit = "s";
	f->lost_s = g.total;
	char list[400];
	list_gaps(s, &g, list, sizeof(list));
	say(f->evidence, sizeof(f->evidence),
	    "%zu gaps of %.0f s or more at or under %.0f %% utilisation, %.0f s in all (%.0f %% of %.0f s; the longest %.0f s): %s",
	    g.n, IDLE_GAP_MIN_S, IDLE_UTIL_PCT, g.total, 100 * frac,
	    s->duration, g.longest, list);
	say(f->suggestion, sizeof(f->suggestion),
	    "the GPU sits idle between stretches of work: look for evaluation, checkpointing or data preparation inside the training loop; overlap them (asynchronous checkpoints, evaluation as a separate job on its own instance) or run them on CPUs");
}

/* ---- heartbeat ---- */

struct drops {
	double *start;		/* the first sample time of each drop */
	size_t n, cap;
	double time, lost;	/* time in drops; GPU time the drops take */
	double busy;		/* the busy level, % */
	const struct series *s;
};

static void drop_run(void *arg, size_t first, size_t last, double time)
{
	struct drops *dr = arg;
	if (time >= IDLE_GAP_MIN_S)
		return;		/* a gap, not a beat */
	if (dr->n == dr->cap) {	/* as many as there are drops, not samples */
		dr->cap = dr->cap ? 2 * dr->cap : 64;
		dr->start = xrealloc(dr->start, dr->cap * sizeof(double));
	}
	dr->start[dr->n++] = dr->s->t[first];
	dr->time += time;
	for (size_t i = first; i <= last; i++)
		dr->lost += weight(dr->s, i) *
			    (dr->busy - get(dr->s, SC_UTIL, i)) / 100;
}

/* Median, standard deviation and coefficient of variation of the spacing
 * of drop starts. */
static void spacing(const struct drops *dr, double *median, double *cv,
		    double *sd)
{
	size_t m = dr->n - 1;
	double *iv = xcalloc(m, sizeof(double));
	for (size_t i = 0; i < m; i++)
		iv[i] = dr->start[i + 1] - dr->start[i];
	double mean = describe_mean(iv, m);
	*sd = describe_sd(iv, m, mean);
	*cv = mean > 0 ? *sd / mean : INFINITY;
	*median = median_of(iv, m);
	free(iv);
}

static void heartbeat(const struct series *s, struct gpu_diagnosis *d)
{
	d->heartbeat_period_s = NAN;
	struct drops dr = {.s = s};
	dr.busy = util_percentile(s, 0.9);
	if (!(dr.busy >= BUSY_MIN_PCT))
		return;
	runs_under(s, DROP_FRACTION * dr.busy, drop_run, &dr);
	double period = 0, cv = INFINITY, sd = 0;
	if (dr.n >= HEARTBEAT_MIN_DROPS)
		spacing(&dr, &period, &cv, &sd);
	if (dr.n < HEARTBEAT_MIN_DROPS || cv > HEARTBEAT_MAX_CV ||
	    period < 2 * s->period) {
		free(dr.start);
		return;
	}
	d->heartbeat_period_s = period;
	char a[48], b[48];
	when(s, dr.start[0], a, sizeof(a));
	when(s, dr.start[dr.n - 1], b, sizeof(b));
	struct finding *f = add(s, d, FIND_HEARTBEAT, SEV_WARNING, dr.start[0],
				dr.start[dr.n - 1]);
	f->figure = period;
	f->unit = "s";
	f->lost_s = dr.lost;
	say(f->evidence, sizeof(f->evidence),
	    "%zu drops under %.0f %% utilisation (half the busy level of %.0f %%) every %.1f s (standard deviation %.1f s), from %s to %s; each lasts %.1f s on average, %.0f %% of the time",
	    dr.n, DROP_FRACTION * dr.busy, dr.busy, period, sd, a, b,
	    dr.time / (double)dr.n, 100 * dr.time / s->duration);
	say(f->suggestion, sizeof(f->suggestion),
	    "the GPU waits for its next batch at every step: the input pipeline is slower than the model; add data-loader workers and prefetch (PyTorch: num_workers, prefetch_factor), pin host memory (pin_memory=True) so copies overlap compute, and move decoding and augmentation out of the training process");
	free(dr.start);
}

/* ---- memory ---- */

static void memory_headroom(const struct series *s, struct gpu_diagnosis *d)
{
	d->mem_peak_bytes = NAN;
	d->mem_total_bytes = NAN;
	size_t at = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!has(s, SC_MEM_USED, i))
			continue;
		double used = get(s, SC_MEM_USED, i);
		if (isnan(d->mem_peak_bytes) || used > d->mem_peak_bytes) {
			d->mem_peak_bytes = used;
			at = i;
		}
		double total = has(s, SC_MEM_TOTAL, i) ? get(s, SC_MEM_TOTAL, i) : 0;
		if (total > 0 && (isnan(d->mem_total_bytes) || total > d->mem_total_bytes))
			d->mem_total_bytes = total;
	}
	if (!(d->mem_peak_bytes >= 0 && d->mem_total_bytes > 0) ||
	    d->mem_peak_bytes >= MEM_USED_MAX * d->mem_total_bytes)
		return;
	char a[48];
	when(s, s->t[at], a, sizeof(a));
	double factor = d->mem_peak_bytes > 0
		? MEM_SAFE_FRACTION * d->mem_total_bytes / d->mem_peak_bytes : INFINITY;
	struct finding *f = add(s, d, FIND_MEMORY_HEADROOM, SEV_INFO, s->t[at],
				s->t[at]);
	f->figure = d->mem_total_bytes - d->mem_peak_bytes;
	f->unit = "bytes";
	char peak[24], total[24], unused[24], times[24];
	say(f->evidence, sizeof(f->evidence),
	    "peak memory.used %s GiB of %s GiB (%.0f %%) at %s; %s GiB never used",
	    diag_number(d->mem_peak_bytes / DIAG_GIB, peak, sizeof(peak)),
	    diag_number(d->mem_total_bytes / DIAG_GIB, total, sizeof(total)),
	    100 * d->mem_peak_bytes / d->mem_total_bytes, a,
	    diag_number(f->figure / DIAG_GIB, unused, sizeof(unused)));
	say(f->suggestion, sizeof(f->suggestion),
	    "room for a larger batch: if all the memory used grows with the batch (an assumption: weights and optimizer state do not, so the real room is larger), a batch %sx larger fits in %.0f %% of the memory; a larger batch gives the GPU more work per step, or rent a GPU with less memory",
	    diag_number(factor, times, sizeof(times)), 100 * MEM_SAFE_FRACTION);
}

/* ---- throttling ---- */

/* The clock a busy, unthrottled GPU runs at: clocks.max.sm where the log
 * has it, else the highest SM clock read (NAN: no clocks). */
static double clock_top(const struct series *s)
{
	double top = s->ctx->sm_clock_max_hz;
	if (top > 0)
		return top;
	top = NAN;
	for (size_t i = 0; i < s->n; i++)
		if (has(s, SC_SM_CLOCK, i) && (isnan(top) || get(s, SC_SM_CLOCK, i) > top))
			top = get(s, SC_SM_CLOCK, i);
	return top;
}

/* Whether sample i is held below its clocks while busy (true when the
 * log has no clocks: the reasons alone then tell). */
static bool held_down(const struct series *s, size_t i, double top)
{
	if (!has(s, SC_SM_CLOCK, i) || !(top > 0))
		return true;
	bool busy = !has(s, SC_UTIL, i) || get(s, SC_UTIL, i) >= BUSY_PCT;
	return busy && get(s, SC_SM_CLOCK, i) < CLOCK_DOWN_FRACTION * top;
}

/* The power limit in force at sample i: its own reading, else the log's. */
static double limit_at(const struct series *s, size_t i)
{
	return has(s, SC_POWER_LIMIT, i) ? get(s, SC_POWER_LIMIT, i)
					 : s->ctx->power_limit_w;
}

/* Thermal (1), power (2) or neither (0) for sample i. */
static int throttle_kind(const struct series *s, size_t i, double top)
{
	const uint64_t thermal = GPU_THROTTLE_SW_THERMAL | GPU_THROTTLE_HW_THERMAL;
	const uint64_t power = GPU_THROTTLE_SW_POWER_CAP | GPU_THROTTLE_HW_POWER_BRAKE;
	double limit = limit_at(s, i);
	bool at_limit = has(s, SC_POWER, i) && limit > 0 &&
			get(s, SC_POWER, i) >= AT_POWER_LIMIT * limit;
	bool hot = has(s, SC_TEMP, i) && get(s, SC_TEMP, i) >= HOT_C;
	if (series_has_throttle(s->x, i) && s->ctx->reasons_read) {
		uint64_t r = series_throttle(s->x, i);
		if (!(r & GPU_THROTTLE_SLOWING) || !held_down(s, i, top))
			return 0;
		if (r & thermal)
			return 1;
		if (r & power)
			return 2;
		return at_limit && !hot ? 2 : 1;	/* hw_slowdown: either */
	}
	if (!has(s, SC_SM_CLOCK, i) || !held_down(s, i, top))
		return 0;
	return hot ? 1 : at_limit ? 2 : 0;
}

struct throttle {
	size_t n;
	double time, lost, clock_sum;
	size_t first, last;
	/* the first sample with this kind's reason active, whatever the
	 * clock then (reasons can lead the clock's fall) */
	bool reason_seen;
	size_t reason_first;
};

static void note_reason(struct throttle *t, const struct series *s, size_t i,
			uint64_t bits)
{
	if (!t->reason_seen && series_has_throttle(s->x, i) &&
	    (series_throttle(s->x, i) & bits)) {
		t->reason_seen = true;
		t->reason_first = i;
	}
}

static void throttle_finding(const struct series *s, struct gpu_diagnosis *d,
			     const struct throttle *t, int kind, double top)
{
	if (t->n < THROTTLE_MIN_SAMPLES ||
	    t->time < THROTTLE_MIN_FRACTION * s->duration)
		return;
	size_t a = t->first, z = 0;
	double loss = t->time > 0 ? t->lost / t->time : 0;
	struct finding *f = add(s, d, kind == 1 ? FIND_THERMAL_THROTTLING : FIND_POWER_THROTTLING,
				loss >= THROTTLE_CRITICAL_LOSS ? SEV_CRITICAL : SEV_WARNING,
				s->t[a], s->t[t->last] + weight(s, t->last));
	f->figure = t->time;
	f->unit = "s";
	f->lost_s = t->lost;
	char w[48], clocks[160] = "", rise[160] = "", lead[128] = "";
	when(s, s->t[a], w, sizeof(w));
	if (t->reason_seen && t->reason_first < t->first) {
		char r[48];
		when(s, s->t[t->reason_first], r, sizeof(r));
		say(lead, sizeof(lead), "; its reason was first active at %s, before the clock fell",
		    r);
	}
	if (top > 0 && t->clock_sum > 0)
		say(clocks, sizeof(clocks), "; SM clock %.0f MHz on average while throttled, against %.0f MHz (%.0f %% lost)",
		    t->clock_sum / t->time / 1e6, top / 1e6, 100 * loss);
	if (kind == 1 && has(s, SC_TEMP, z) && has(s, SC_TEMP, a))
		say(rise, sizeof(rise), "; temperature %.0f C at the start, %.0f C when it began",
		    get(s, SC_TEMP, z), get(s, SC_TEMP, a));
	double limit = limit_at(s, a), highest = s->ctx->power_limit_w;
	bool power = kind == 2 && has(s, SC_POWER, a);
	if (power && !(limit > 0))
		say(rise, sizeof(rise), "; power %.0f W when it began", get(s, SC_POWER, a));
	else if (power && highest > limit)
		say(rise, sizeof(rise), "; power %.0f W of a %.0f W limit when it began (the log's highest power.limit is %.0f W: the limit was changed during the log)",
		    get(s, SC_POWER, a), limit, highest);
	else if (power)
		say(rise, sizeof(rise), "; power %.0f W of a %.0f W limit when it began",
		    get(s, SC_POWER, a), limit);
	say(f->evidence, sizeof(f->evidence),
	    "%s throttling began at %s and held %.0f s in all (%.0f %% of %.0f s, %zu samples)%s%s%s",
	    kind == 1 ? "thermal" : "power", w, t->time,
	    100 * t->time / s->duration, s->duration, t->n, clocks, rise, lead);
	if (kind == 1)
		say(f->suggestion, sizeof(f->suggestion),
		    "the GPU lowers its clocks to stay within temperature: check the cooling (fans, airflow, a blocked inlet); on a rented instance report it to the provider or move to an instance type with better cooling");
	else
		say(f->suggestion, sizeof(f->suggestion),
		    "the GPU lowers its clocks to stay within its power limit: if the limit was lowered (nvidia-smi -pl), restore the default; otherwise rent an instance whose GPUs have a higher power limit, and plan with this clock");
}

static void throttling(const struct series *s, struct gpu_diagnosis *d)
{
	double top = clock_top(s);
	struct throttle t[2];
	memset(t, 0, sizeof(t));
	for (size_t i = 0; i < s->n; i++) {
		double w = weight(s, i);
		if (series_has_throttle(s->x, i))
			for (int r = 0; r < TR_COUNT; r++)
				if (series_throttle(s->x, i) & reason_bits[r])
					d->throttled_s[r] += w;
		note_reason(&t[0], s, i, GPU_THROTTLE_SW_THERMAL | GPU_THROTTLE_HW_THERMAL);
		note_reason(&t[1], s, i, GPU_THROTTLE_SW_POWER_CAP | GPU_THROTTLE_HW_POWER_BRAKE);
		int k = throttle_kind(s, i, top);
		if (!k)
			continue;
		struct throttle *u = &t[k - 1];
		if (u->n++ == 0)
			u->first = i;
		u->last = i;
		u->time += w;
		if (has(s, SC_SM_CLOCK, i) && top > 0) {
			double clock = get(s, SC_SM_CLOCK, i);
			u->clock_sum += w * clock;
			u->lost += w * (1 - clock / top);
		}
	}
	d->reasons_known = s->ctx->reasons_read != 0;
	throttle_finding(s, d, &t[0], 1, top);
	throttle_finding(s, d, &t[1], 2, top);
}

/* ---- a second process ---- */

static void shared_gpu(const struct series *s, struct gpu_diagnosis *d)
{
	size_t n = 0, first = 0;
	unsigned most = 0;
	double time = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!series_has_processes(s->x, i) || s->x->processes[i] < 2)
			continue;
		if (n++ == 0)
			first = i;
		time += weight(s, i);
		if (s->x->processes[i] > most)
			most = s->x->processes[i];
	}
	if (!n)
		return;
	char a[48];
	when(s, s->t[first], a, sizeof(a));
	struct finding *f = add(s, d, FIND_SHARED_GPU, SEV_WARNING, s->t[first],
				s->t[s->n - 1]);
	f->figure = most;
	f->unit = "processes";
	say(f->evidence, sizeof(f->evidence),
	    "up to %u compute processes on the GPU, the first second one at %s, %.0f s of %.0f s shared",
	    most, a, time, s->duration);
	say(f->suggestion, sizeof(f->suggestion),
	    "another process shares this GPU and its time: split training and inference (or the two jobs) onto different instances, or partition the GPU with MIG so each gets a fixed share");
}

/* What the log holds readings of, and the hottest reading: what a
 * verdict without findings may claim (diag_out.c). */
static void readings(const struct series *s, struct gpu_diagnosis *d)
{
	static const struct {
		enum series_column c;
		unsigned bit;
	} map[] = {
		{SC_UTIL, GPU_SAMPLE_UTILIZATION}, {SC_SM_CLOCK, GPU_SAMPLE_SM_CLOCK},
		{SC_TEMP, GPU_SAMPLE_TEMPERATURE}, {SC_POWER, GPU_SAMPLE_POWER},
		{SC_MEM_USED, GPU_SAMPLE_MEMORY},
	};
	d->temperature_max_c = NAN;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
			if (has(s, map[k].c, i))
				d->readings |= map[k].bit;
		if (series_has_throttle(s->x, i))
			d->readings |= GPU_SAMPLE_THROTTLE;
		if (has(s, SC_TEMP, i) && !(get(s, SC_TEMP, i) <= d->temperature_max_c))
			d->temperature_max_c = get(s, SC_TEMP, i);
	}
}

void diagnose_series(const struct sample_series *x,
		     const struct diagnose_context *ctx, struct gpu_diagnosis *d)
{
	memset(d, 0, sizeof(*d));
	struct series s = {.x = x, .t = x->t_s, .n = x->n, .ctx = ctx};
	d->samples = x->n;
	d->temperature_max_c = NAN;
	d->util_mean = NAN;
	d->heartbeat_period_s = NAN;
	d->mem_peak_bytes = d->mem_total_bytes = NAN;
	if (x->n == 0)
		return;
	weigh(&s);
	readings(&s, d);
	d->duration_s = s.duration;
	d->period_s = s.period;
	low_utilization(&s, d);
	heartbeat(&s, d);
	idle_gaps(&s, d);
	memory_headroom(&s, d);
	throttling(&s, d);
	if (ctx->live)
		shared_gpu(&s, d);
	/* the utilisation lost covers drops and gaps; throttling adds to it */
	double lost = isnan(d->util_mean) ? d->idle_s
					  : (1 - d->util_mean) * d->duration_s;
	for (size_t i = 0; i < d->n; i++)
		if (d->f[i].kind == FIND_THERMAL_THROTTLING ||
		    d->f[i].kind == FIND_POWER_THROTTLING)
			lost += d->f[i].lost_s;
	d->lost_s = lost < d->duration_s ? lost : d->duration_s;
}

void diagnose_gpu(const struct gpu_samples *gs,
		  const struct diagnose_context *ctx, struct gpu_diagnosis *d)
{
	struct sample_series x;
	series_from_samples(&x, gs);
	diagnose_series(&x, ctx, d);
	series_free(&x);
}

/* Appends "; " (or the opening) and a clause to buf. */
static void clause(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s%s",
			 strchr(buf, ':') ? "; " : ": ", text);
}

void diagnosis_verdict(const struct gpu_diagnosis *d, char *buf, size_t len)
{
	bool util = d->readings & GPU_SAMPLE_UTILIZATION;
	bool temp = d->readings & GPU_SAMPLE_TEMPERATURE;
	bool hot = temp && d->temperature_max_c >= HOT_C;
	if (util && temp && !hot) {
		snprintf(buf, len, "no finding: the GPU looks busy, cool and well used");
		return;
	}
	snprintf(buf, len, "no finding in what the log shows");
	char text[240];
	clause(buf, len, util ? "busy and well used"
			      : "utilisation: not in the log, so how busy the GPU was cannot be told");
	if (!temp)
		clause(buf, len, "temperature: not in the log");
	if (hot) {
		bool can_tell = d->readings & (GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_THROTTLE);
		snprintf(text, sizeof(text), "hot, %.0f C at its hottest (%.0f C or more is hot)%s",
			 d->temperature_max_c, HOT_C,
			 can_tell ? ", though its clocks were not held down"
				  : ", and with no SM clock or throttle reason in the log nothing tells whether it throttled");
		clause(buf, len, text);
	} else if (temp) {
		snprintf(text, sizeof(text), "cool, %.0f C at its hottest",
			 d->temperature_max_c);
		clause(buf, len, text);
	}
}

void gpu_diagnosis_free(struct gpu_diagnosis *d)
{
	free(d->f);
	memset(d, 0, sizeof(*d));
}
