/*
 * Charts: the tick tables (linear 1-2-5, log decades with 2 and 5 between
 * when few) and every chart drawn with realistic data into a 1600 x 1000
 * PNG-sized surface and an A4 page, each checked to draw something and to
 * stay inside its rect.  With GPUPLAN_KEEP_PNG set each chart is also
 * written to /tmp/gpuplan-chart-NAME-SIZE.png for a person to look at.
 * The 10,000-point scatter's drawing time is printed, not asserted: it
 * depends on the machine.
 */
#include <cairo.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "report/chart.h"
#include "report/chart_frame.h"
#include "report/chart_ticks.h"
#include "report/text.h"

/* ---- ticks ---- */

struct tick_case {
	double min, max;
	bool log;
	size_t max_ticks;
	size_t n;			/* expected ticks */
	double t[12];
};

static const struct tick_case tick_cases[] = {
	/* linear: the smallest 1-2-5 step that gives at most max_ticks */
	{0, 7.3, false, 5, 5, {0, 2, 4, 6, 8}},
	{0, 7.3, false, 10, 9, {0, 1, 2, 3, 4, 5, 6, 7, 8}},
	{0, 7.3, false, 3, 3, {0, 5, 10}},
	{-3.2, 4.1, false, 8, 6, {-4, -2, 0, 2, 4, 6}},
	{0.013, 0.087, false, 6, 6, {0, 0.02, 0.04, 0.06, 0.08, 0.1}},
	{1200, 9800, false, 6, 6, {0, 2000, 4000, 6000, 8000, 10000}},
	{98, 102, false, 6, 5, {98, 99, 100, 101, 102}},
	{0.1, 0.7, false, 7, 7, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}},
	/* a single value gets a span around it; zero gets [0, 1] */
	{5, 5, false, 6, 4, {2, 4, 6, 8}},
	{0, 0, false, 6, 6, {0, 0.2, 0.4, 0.6, 0.8, 1}},
	/* log: 1, 2, 5 within fewer than three decades, when they fit */
	{1, 100, true, 10, 7, {1, 2, 5, 10, 20, 50, 100}},
	{1, 100, true, 5, 3, {1, 10, 100}},
	{3, 40, true, 10, 5, {2, 5, 10, 20, 50}},
	{0.02, 0.9, true, 10, 6, {0.02, 0.05, 0.1, 0.2, 0.5, 1}},
	/* log: decades, every k-th when too many */
	{0.5, 2000, true, 10, 6, {0.1, 1, 10, 100, 1000, 10000}},
	{1, 1e12, true, 6, 5, {1, 1e3, 1e6, 1e9, 1e12}},
	{1e-3, 1e3, true, 4, 3, {1e-3, 1, 1e3}},
	{0.1, 10, true, 2, 2, {0.1, 10}},
	{1e12, 2e15, true, 8, 5, {1e12, 1e13, 1e14, 1e15, 1e16}},
};

static void ticks_table(void)
{
	for (size_t i = 0; i < sizeof(tick_cases) / sizeof(tick_cases[0]); i++) {
		const struct tick_case *c = &tick_cases[i];
		double t[32], min = c->min, max = c->max;
		size_t n = axis_ticks(&min, &max, c->log, t, c->max_ticks);
		CHECK(n == c->n);
		CHECK(n <= c->max_ticks);
		if (n != c->n) {
			fprintf(stderr, "  case %zu [%g, %g]: %zu ticks:", i,
				c->min, c->max, n);
			for (size_t k = 0; k < n; k++)
				fprintf(stderr, " %g", t[k]);
			fprintf(stderr, "\n");
			continue;
		}
		for (size_t k = 0; k < n; k++)
			CHECK_NEAR(t[k], c->t[k], 1e-12);
		/* widened to the outer ticks, and still covering the range */
		CHECK(min == t[0] && max == t[n - 1]);
		CHECK(min <= c->min && max >= c->max);
	}
}

/* Edge cases: swapped bounds, too few ticks allowed, non-finite input,
 * and the log axis that was handed a non-positive minimum. */
static void ticks_edges(void)
{
	double t[32], min = 4.1, max = 0;
	CHECK(axis_ticks(&min, &max, false, t, 5) == 4);	/* 0 2 4 6 */
	CHECK(min == 0 && max == 6);
	min = 0, max = 7.3;
	CHECK(axis_ticks(&min, &max, false, t, 1) == 0);
	CHECK(min == 0 && max == 7.3);
	min = NAN, max = 1;
	CHECK(axis_ticks(&min, &max, false, t, 5) == 0);
	min = 0, max = 1000;
	size_t n = axis_ticks(&min, &max, true, t, 10);
	CHECK(n >= 2 && min > 0 && max == 1000);
	/* never more than max_ticks, whatever the span */
	for (size_t m = 2; m <= 12; m++) {
		min = -123.4, max = 98765;
		CHECK(axis_ticks(&min, &max, false, t, m) <= m);
		min = 3e-7, max = 4e11;
		CHECK(axis_ticks(&min, &max, true, t, m) <= m);
	}
}

/*
 * Hostile spans, as a hand-edited plan or a private price list gives
 * them: zero, subnormal, 1e-307 to 1e308, equal bounds, huge ratios,
 * negative, and NaN or infinities (refused: 0 ticks, bounds untouched).
 * The expected tick sets are worked by hand below; "n 0" means no tick
 * set can be finite.  pow2 counts GPUs: [1, 2] when nothing is >= 1.
 */
enum axis_kind { LINEAR, LOG, POW2 };

static size_t ticks_of(enum axis_kind k, double *min, double *max, double *t,
		       size_t m)
{
	if (k == POW2)
		return pow2_ticks(min, max, t, m);
	return axis_ticks(min, max, k == LOG, t, m);
}

struct hostile_case {
	enum axis_kind kind;
	double min, max;
	size_t max_ticks;
	size_t n;
	double t[8];
};

static const struct hostile_case hostile_cases[] = {
	/* magnitudes under 1e-290 count as zero: [0, 1] on their side */
	{LINEAR, 0, 5e-324, 6, 6, {0, 0.2, 0.4, 0.6, 0.8, 1}},
	{LINEAR, 5e-324, 5e-324, 6, 6, {0, 0.2, 0.4, 0.6, 0.8, 1}},
	{LINEAR, -5e-324, 0, 6, 6, {-1, -0.8, -0.6, -0.4, -0.2, 0}},
	{LINEAR, -5e-324, 5e-324, 5, 5, {-1, -0.5, 0, 0.5, 1}},
	{LINEAR, 1e-307, 3e-307, 6, 6, {0, 0.2, 0.4, 0.6, 0.8, 1}},
	/* normal tiny values keep their own scale */
	{LINEAR, 0, 3e-280, 4, 4, {0, 1e-280, 2e-280, 3e-280}},
	/* equal bounds: half the magnitude either side */
	{LINEAR, 7, 7, 6, 6, {2, 4, 6, 8, 10, 12}},
	{LINEAR, -5, -5, 6, 4, {-8, -6, -4, -2}},
	{LINEAR, 1e308, 1e308, 6, 3, {5e307, 1e308, 1.5e308}},
	/* the largest spans: max - min itself overflows */
	{LINEAR, 0, 1e308, 6, 6, {0, 2e307, 4e307, 6e307, 8e307, 1e308}},
	{LINEAR, -1e308, 1e308, 5, 5, {-1e308, -5e307, 0, 5e307, 1e308}},
	{LINEAR, 1e-307, 1e308, 6, 6, {0, 2e307, 4e307, 6e307, 8e307, 1e308}},
	/* no finite tick covers DBL_MAX widened, nor 1.7e308 */
	{LINEAR, DBL_MAX, DBL_MAX, 6, 0, {0}},
	{LINEAR, 0, 1.7e308, 11, 0, {0}},
	{LINEAR, -1e300, -1e-300, 3, 3, {-1e300, -5e299, 0}},
	/* log: non-positive bounds fall back to a decade */
	{LOG, 0, 0, 6, 4, {1, 2, 5, 10}},
	{LOG, -5, -1, 6, 4, {1, 2, 5, 10}},
	{LOG, 5, 5, 6, 2, {1, 10}},
	/* log: clamped to 1e-300 .. 1e300 */
	{LOG, DBL_MAX, DBL_MAX, 6, 2, {1e299, 1e300}},
	{LOG, 5e-324, 5e-324, 6, 2, {1e-300, 1e-299}},
	{LOG, 1e-307, 1e308, 2, 2, {1e-300, 1e300}},
	{LOG, 1e-307, 1e308, 3, 3, {1e-300, 1, 1e300}},
	{LOG, 1e-300, 1e300, 7, 7, {1e-300, 1e-200, 1e-100, 1, 1e100,
				    1e200, 1e300}},
	/* pow2: GPU counts from one */
	{POW2, 0, 0, 6, 2, {1, 2}},
	{POW2, 5e-324, 3, 6, 3, {1, 2, 4}},
	{POW2, -8, -1, 6, 2, {1, 2}},
	{POW2, 1, 1, 6, 2, {1, 2}},
	{POW2, 1, 1e308, 2, 2, {1, 0x1p1000}},
	{POW2, 1, 1e308, 3, 3, {1, 0x1p500, 0x1p1000}},
};

static void ticks_hostile_table(void)
{
	for (size_t i = 0; i < sizeof(hostile_cases) / sizeof(hostile_cases[0]); i++) {
		const struct hostile_case *c = &hostile_cases[i];
		double t[32], min = c->min, max = c->max;
		size_t n = ticks_of(c->kind, &min, &max, t, c->max_ticks);
		CHECK(n == c->n);
		if (n != c->n) {
			fprintf(stderr, "  hostile case %zu [%g, %g]: %zu ticks:",
				i, c->min, c->max, n);
			for (size_t k = 0; k < n; k++)
				fprintf(stderr, " %g", t[k]);
			fprintf(stderr, "\n");
			continue;
		}
		for (size_t k = 0; k < n; k++)
			CHECK_NEAR(t[k], c->t[k], 1e-12);
		if (n)
			CHECK(min == t[0] && max == t[n - 1]);
		else
			CHECK(min == c->min && max == c->max);
	}
}

/*
 * Every hostile bound against every other, for each kind of axis and
 * every tick budget from 0 to 24, into a buffer of exactly max_ticks
 * (ASan sees a write past it): the count never passes the budget; ticks
 * are finite and strictly increasing, log and pow2 ones positive; the
 * range comes back widened to them, or untouched when there are none;
 * NaN and infinities always give none.
 */
static void ticks_hostile_sweep(void)
{
	static const double v[] = {
		0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-307, 1e-300,
		1e-290, 3e-7, 1, 7, 1e15, 1e300, 1e308, DBL_MAX, -1, -1e308,
		-DBL_MAX, NAN, INFINITY, -INFINITY,
	};
	size_t nv = sizeof(v) / sizeof(v[0]);
	int bad = 0;
	for (int kind = LINEAR; kind <= POW2; kind++)
		for (size_t a = 0; a < nv; a++)
			for (size_t b = 0; b < nv; b++)
				for (size_t m = 0; m <= 24; m++) {
					double *t = malloc((m ? m : 1) * sizeof(double));
					double min = v[a], max = v[b];
					size_t n = ticks_of(kind, &min, &max, t, m);
					bool ok = n <= m && n != 1;
					bool finite = isfinite(v[a]) && isfinite(v[b]);
					if (!finite || m < 2)
						ok &= n == 0;
					for (size_t k = 0; ok && k < n; k++)
						ok = isfinite(t[k]) &&
						     (k == 0 || t[k] > t[k - 1]) &&
						     (kind == LINEAR || t[k] > 0);
					if (ok && n)
						ok = min == t[0] && max == t[n - 1];
					if (ok && !n)
						ok = (min == v[a] || (isnan(min) && isnan(v[a]))) &&
						     (max == v[b] || (isnan(max) && isnan(v[b])));
					if (!ok && bad++ < 10)
						fprintf(stderr, "  kind %d [%g, %g] max %zu: %zu ticks, [%g, %g]\n",
							kind, v[a], v[b], m, n, min, max);
					CHECK(ok);
					free(t);
				}
}

/* The finite spans a report can meet all get ticks: from the loader's
 * limits (1e100) down to a subnormal, linear and log. */
static void ticks_always_for_plan_values(void)
{
	static const double v[] = {0, 5e-324, 1e-307, 1e-100, 1e-3, 1, 7,
				   1e9, 1e100};
	size_t nv = sizeof(v) / sizeof(v[0]);
	for (size_t a = 0; a < nv; a++)
		for (size_t b = a; b < nv; b++)
			for (int log = 0; log <= 1; log++) {
				double t[11], min = v[a], max = v[b];
				size_t n = axis_ticks(&min, &max, log, t, 11);
				CHECK(n >= 2);
				if (n < 2)
					fprintf(stderr, "  no ticks for [%g, %g] %s\n", v[a],
						v[b], log ? "log" : "linear");
			}
}

struct log_case {
	double min, max;
	bool want;
};

static void wants_log(void)
{
	static const struct log_case cases[] = {
		{1, 100, false},	/* exactly 100x: linear */
		{1, 100.5, true},
		{0.01, 10, true},
		{5, 5, false},
		{0, 1e6, false},	/* zero cannot go on a log axis */
		{-1, 1000, false},
		{2.5, 40000, true},
		/* only within what a log axis shows */
		{5e-324, 1, false},
		{1e-300, 1, true},
		{1, 1e300, true},
		{1, 1e308, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(axis_wants_log(cases[i].min, cases[i].max) ==
		      cases[i].want);
}

/* ---- rendering ---- */

/*
 * A page in its own units (pixels, or points of A4) drawn at `scale`
 * pixels per unit: at 1 scatter points go through the pixel stamp, at 2
 * (an A4 page at 144 dpi) through vector circles, as on a PDF page.
 */
struct canvas {
	const char *size;
	int w, h;		/* the page, in its units */
	double scale;
	struct rect area;	/* whole pixels at any scale: exact edge test */
	struct chart_style st;
};

#define N_CANVASES 3
static const struct canvas canvases[N_CANVASES] = {
	{"png", 1600, 1000, 1, {40, 30, 1520, 940}, {"DejaVu Sans", 22, 2}},
	{"a4", 595, 842, 1, {48, 120, 500, 300}, {"DejaVu Sans", 8.5, 0.75}},
	{"a4x2", 595, 842, 2, {48, 120, 500, 300}, {"DejaVu Sans", 8.5, 0.75}},
};

static struct rect scaled(const struct canvas *cv)
{
	return (struct rect){cv->area.x * cv->scale, cv->area.y * cv->scale,
			     cv->area.w * cv->scale, cv->area.h * cv->scale};
}

static cairo_surface_t *page(const struct canvas *cv, cairo_t **cr)
{
	cairo_surface_t *s = cairo_image_surface_create(
		CAIRO_FORMAT_ARGB32, (int)(cv->w * cv->scale),
		(int)(cv->h * cv->scale));
	*cr = cairo_create(s);
	cairo_set_source_rgb(*cr, 1, 1, 1);
	cairo_paint(*cr);
	cairo_scale(*cr, cv->scale, cv->scale);
	return s;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Non-white pixels inside the area; *outside gets those outside it. */
static long count_ink(cairo_surface_t *s, struct rect a, long *outside)
{
	cairo_surface_flush(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	int w = cairo_image_surface_get_width(s);
	int h = cairo_image_surface_get_height(s);
	long in = 0;
	*outside = 0;
	for (int y = 0; y < h; y++) {
		const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
		for (int x = 0; x < w; x++) {
			if (row[x] == 0xffffffffu)
				continue;
			bool inside = x >= a.x && x < a.x + a.w && y >= a.y &&
				      y < a.y + a.h;
			if (inside)
				in++;
			else
				(*outside)++;
		}
	}
	return in;
}

typedef void (*draw_fn)(cairo_t *cr, struct rect area,
			const struct chart_style *st);

/*
 * Draws one chart on a white page of the canvas's size and checks it:
 * at least 2% of its rect inked, nothing outside the rect, cairo still
 * without error.  Returns the milliseconds the drawing took.
 */
static double render(const char *name, draw_fn draw, const struct canvas *cv)
{
	cairo_t *cr;
	cairo_surface_t *s = page(cv, &cr);
	struct rect px = scaled(cv);
	double t0 = now_ms();
	draw(cr, cv->area, &cv->st);
	cairo_surface_flush(s);
	double ms = now_ms() - t0;
	CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
	long outside, in = count_ink(s, px, &outside);
	CHECK(in > (long)(px.w * px.h * 0.02));
	CHECK(outside == 0);
	if (outside || in <= (long)(px.w * px.h * 0.02))
		fprintf(stderr, "  %s/%s: %ld pixels inside, %ld outside\n",
			name, cv->size, in, outside);
	if (getenv("GPUPLAN_KEEP_PNG")) {
		char path[256];
		snprintf(path, sizeof(path), "/tmp/gpuplan-chart-%s-%s.png",
			 name, cv->size);
		CHECK(cairo_surface_write_to_png(s, path) ==
		      CAIRO_STATUS_SUCCESS);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return ms;
}

/* A reproducible uniform number in [0, 1). */
static double rnd(unsigned long *state)
{
	*state = *state * 6364136223846793005ul + 1442695040888963407ul;
	return (double)(*state >> 11) / 9007199254740992.0;
}

static void fmt_hours(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g h", v);
}

/* 12,345 -> "12,345 USD" (values here are whole dollars). */
static void fmt_usd(double v, char *buf, size_t len)
{
	char digits[32], out[48];
	size_t n, o = 0;
	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0 && digits[i - 1] != '-')
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	if (v < 1)
		snprintf(out, sizeof(out), "%g", v);
	snprintf(buf, len, "%s USD", out);
}

/* ---- the charts, with data like a plan's ---- */

struct pt {
	double x, y;
};

static int by_x(const void *a, const void *b)
{
	double xa = ((const struct pt *)a)->x, xb = ((const struct pt *)b)->x;
	return (xa > xb) - (xa < xb);
}

/* The feasible points no other beats on both time and cost, by time. */
static size_t pareto_front(const double *x, const double *y,
			   const bool *muted, size_t n, double *fx, double *fy)
{
	static struct pt p[10000];
	size_t m = 0, nf = 0;
	for (size_t i = 0; i < n && m < 10000; i++)
		if (!muted[i])
			p[m++] = (struct pt){x[i], y[i]};
	qsort(p, m, sizeof(p[0]), by_x);
	double best = HUGE_VAL;
	for (size_t i = 0; i < m; i++) {
		if (p[i].y >= best)
			continue;
		best = p[i].y;
		fx[nf] = p[i].x;
		fy[nf++] = best;
	}
	return nf;
}

#define N_SCATTER 10000
#define N_SERIES 5

/*
 * 10,000 training options of five accelerators: time falls and cost
 * rises with cluster size, with scatter; 30% infeasible (muted), one
 * recommended (ringed); the Pareto front, a deadline and a budget.
 */
static void draw_scatter_big(cairo_t *cr, struct rect area,
			     const struct chart_style *st)
{
	static double xs[N_SCATTER], ys[N_SCATTER];
	static bool muted[N_SCATTER], hi[N_SCATTER];
	static const char *names[N_SERIES] = {"H100 SXM", "A100 80GB", "L40S",
					      "L4", "MI300X"};
	static const double speed[N_SERIES] = {1, 2.2, 3.5, 9, 1.1};
	static const double price[N_SERIES] = {1, 0.7, 0.5, 0.3, 0.9};
	struct point_series ser[N_SERIES];
	unsigned long state = 42;
	size_t per = N_SCATTER / N_SERIES;
	for (size_t i = 0; i < N_SCATTER; i++) {
		size_t k = i / per;
		double gpus = ldexp(1, (int)(rnd(&state) * 10));
		double t = 2000 * speed[k] / gpus * (0.6 + rnd(&state));
		xs[i] = t;
		ys[i] = t * gpus * 4.0 * price[k] * (0.8 + 0.6 * rnd(&state));
		muted[i] = rnd(&state) < 0.3;
		hi[i] = i == 1234;
	}
	for (size_t k = 0; k < N_SERIES; k++)
		ser[k] = (struct point_series){names[k], xs + k * per, ys + k * per,
					       muted + k * per, hi + k * per,
					       per, chart_colour(k)};
	static double fx[N_SCATTER], fy[N_SCATTER];
	size_t nf = pareto_front(xs, ys, muted, N_SCATTER, fx, fy);
	struct ref_line refs[] = {{true, 168, "deadline 168 h"},
				  {false, 20000, "budget 20,000 USD"}};
	struct axis x = {0, 0, true, "training time (h)", fmt_hours};
	struct axis y = {0, 0, true, "total cost (USD)", fmt_usd};
	chart_scatter(cr, area, "Training options: time against cost",
		      &x, &y, ser, N_SERIES, fx, fy, nf, refs, 2,
		      &(struct scatter_words){"Pareto front", "recommended",
					      "infeasible"}, st);
}

/* The same plot with a Chinese title and labels in a CJK family that may
 * not be installed (fontconfig then falls back). */
static void draw_scatter_zh(cairo_t *cr, struct rect area,
			    const struct chart_style *st)
{
	static const double xs[] = {12, 30, 55, 90, 160, 300, 700, 1100};
	static const double ys[] = {52000, 26000, 14000, 9500, 6100, 4300,
				    2600, 2100};
	static const bool muted[] = {true, false, false, false, false, false,
				     false, true};
	static const bool hi[] = {false, false, false, true, false, false,
				  false, false};
	struct chart_style zh = *st;
	zh.font_family = "WenQuanYi Micro Hei";
	struct point_series ser = {"H100 训练", xs, ys, muted, hi, 8,
				   chart_colour(0)};
	struct ref_line ref = {true, 168, "截止 168 小时"};
	struct axis x = {0, 0, true, "训练时间 (小时)", NULL};
	struct axis y = {0, 0, true, "总成本 (美元)", NULL};
	chart_scatter(cr, area, "训练方案：时间与成本", &x, &y, &ser, 1,
		      xs + 1, ys + 1, 6, &ref, 1,
		      &(struct scatter_words){"帕累托前沿", "推荐", "不可行"}, &zh);
}

/* Points in every corner: the legend must go outside, to the right. */
static void draw_scatter_full(cairo_t *cr, struct rect area,
			      const struct chart_style *st)
{
	static double xs[400], ys[400];
	unsigned long state = 7;
	for (size_t i = 0; i < 400; i++) {
		xs[i] = rnd(&state) * 100;
		ys[i] = rnd(&state) * 50;
	}
	struct point_series ser[2] = {
		{"on-demand instances in us-east-1", xs, ys, NULL, NULL, 200,
		 chart_colour(0)},
		{"spot", xs + 200, ys + 200, NULL, NULL, 200, chart_colour(1)},
	};
	struct axis x = {0, 100, false, "utilisation (%)", NULL};
	struct axis y = {0, 50, false, "queue wait (ms)", NULL};
	chart_scatter(cr, area, "Serving replicas: utilisation and wait", &x,
		      &y, ser, 2, NULL, NULL, 0, NULL, 0, NULL, st);
}

/* Memory per GPU by part for twelve setups with long names, stacked, and
 * the 80 GiB the GPU has. */
static void draw_bars_memory(cairo_t *cr, struct rect area,
			     const struct chart_style *st)
{
	static const char *labels[] = {
		"H100 SXM x8 (p5.48xlarge) tp1 pp1", "H100 SXM x8 tp2 pp1",
		"H100 SXM x8 tp4 pp1", "A100 80GB x8 (p4de.24xlarge)",
		"A100 80GB x8 tp2", "A100 40GB x8 (p4d.24xlarge)",
		"L40S x8 (g6e.48xlarge)", "L4 x8 (g6.48xlarge)",
		"MI300X x8 (ND MI300X v5)", "H200 x8 (p5e.48xlarge)",
		"A10G x4 (g5.12xlarge)", "on-prem DGX H100"};
	static const double v[12][4] = {
		{13.5, 13.5, 27, 18}, {6.7, 6.7, 13.5, 12}, {3.4, 3.4, 6.7, 9},
		{13.5, 13.5, 27, 22}, {6.7, 6.7, 13.5, 14}, {13.5, 13.5, 27, 30},
		{13.5, 13.5, 27, 20}, {13.5, 13.5, 27, 25}, {13.5, 13.5, 27, 12},
		{13.5, 13.5, 27, 16}, {13.5, 13.5, 27, 35}, {13.5, 13.5, 27, 18}};
	static const char *segs[] = {"weights", "gradients",
				     "optimizer state", "activations"};
	struct bar_group g[12];
	struct rgb colours[4];
	for (size_t k = 0; k < 4; k++)
		colours[k] = chart_colour(k);
	for (size_t i = 0; i < 12; i++)
		g[i] = (struct bar_group){labels[i], v[i], i == 5 || i == 10, 80, 0, 0};
	struct axis y = {0, 0, false, "memory per GPU (GiB)", NULL};
	chart_bars(cr, area, "Llama-2-7B fine-tune: memory per GPU", &y, g, 12,
		   segs, colours, 4, false, "GPU memory 80 GiB", st);
}

/* The same setups against each one's own GPU memory (80, 40, 48, 24,
 * 192, 141, 24 GiB...): a dash per bar and a legend entry. */
static void draw_bars_memory_mixed(cairo_t *cr, struct rect area,
				   const struct chart_style *st)
{
	static const char *labels[] = {"p5.48xlarge", "p4d.24xlarge",
				       "g6e.48xlarge", "g6.48xlarge",
				       "ND MI300X v5", "p5e.48xlarge"};
	static const double v[6][2] = {{40, 20}, {30, 12}, {30, 14},
				       {20, 9}, {40, 30}, {40, 25}};
	static const double cap[6] = {80, 40, 48, 24, 192, 141};
	static const char *segs[] = {"weights and state", "activations"};
	struct bar_group g[6];
	for (size_t i = 0; i < 6; i++)
		g[i] = (struct bar_group){labels[i], v[i], i == 3, cap[i], 0, 0};
	struct axis y = {0, 0, false, "memory per GPU (GiB)", NULL};
	chart_bars(cr, area, "Memory per GPU against each GPU's memory", &y, g,
		   6, segs, NULL, 2, false, "GPU memory", st);
	/* the axis reaches the largest capacity, not only the largest bar */
	CHECK(y.max >= 192);
}

/* On-demand against spot cost for six instances, side by side. */
static void draw_bars_cost(cairo_t *cr, struct rect area,
			   const struct chart_style *st)
{
	static const char *labels[] = {"p5.48xlarge", "p4de.24xlarge",
				       "a3-highgpu-8g", "ND H100 v5",
				       "g6e.48xlarge", "ecs.gn8is"};
	static const double v[6][2] = {{98.3, 39.5}, {40.9, 16.2},
				       {88.2, 29.4}, {98.3, 42.1},
				       {30.1, 12.4}, {63.0, 25.1}};
	static const char *segs[] = {"on demand", "spot"};
	struct bar_group g[6];
	for (size_t i = 0; i < 6; i++)
		g[i] = (struct bar_group){labels[i], v[i], false, 0,
					  v[i][0] * 0.9, v[i][0] * 1.1};
	struct axis y = {0, 0, false, "price per hour (USD/h)", NULL};
	chart_bars(cr, area, "Instance prices: on demand and spot", &y, g, 6,
		   segs, NULL, 2, true, NULL, st);
}

/* Time, cost and parallel efficiency against cluster size, 1 to 512
 * GPUs: the scaling chart with an axis each. */
static void draw_lines(cairo_t *cr, struct rect area,
		       const struct chart_style *st)
{
	double gpus[10], hours[10], cost[10], eff[10];
	for (int i = 0; i < 10; i++) {
		gpus[i] = ldexp(1, i);
		eff[i] = 100 * (1 - 0.045 * i);
		hours[i] = 2400 / (gpus[i] * eff[i] / 100);
		cost[i] = hours[i] * gpus[i] * 4.1;
	}
	struct axis x = {0, 0, true, "GPUs", NULL};
	struct axis yt = {0, 0, true, "training time (h)", fmt_hours};
	struct axis yc = {0, 0, false, "total cost (USD)", fmt_usd};
	struct axis ye = {0, 100, false, "scaling efficiency (%)", NULL};
	struct line_series lines[] = {
		{"time", hours, &yt},
		{"cost on demand", cost, &yc},
		{"scaling efficiency", eff, &ye},
	};
	chart_lines(cr, area, "Pre-training: time and cost by cluster size",
		    &x, gpus, 10, lines, 3, st);
}

/* Latency against load for two options of a 7B chat service: end-to-end,
 * TTFT and TPOT p99 on one log axis, each option's line stopping where
 * it saturates (NaN), the targets and the planned load as reference
 * lines. */
static void draw_curves(cairo_t *cr, struct rect area,
			const struct chart_style *st)
{
	static const double rate[] = {0.5, 1, 2, 3, 4, 5, 6, 7};
	static const double e2e[2][8] = {
		{3.62, 3.91, 4.59, 5.42, 6.58, 8.35, 12.4, NAN},
		{4.71, 5.13, 6.08, 7.49, 9.96, 15.8, NAN, NAN}};
	static const double ttft[2][8] = {
		{0.118, 0.131, 0.174, 0.236, 0.341, 0.552, 1.21, NAN},
		{0.125, 0.142, 0.185, 0.268, 0.447, 1.05, NAN, NAN}};
	static const double tpot[2][8] = {
		{0.0139, 0.0149, 0.0177, 0.0206, 0.0241, 0.029, 0.0368, NAN},
		{0.0181, 0.0196, 0.0234, 0.0279, 0.0342, 0.0451, NAN, NAN}};
	struct curve curves[6];
	for (int k = 0; k < 2; k++) {
		curves[3 * k] = (struct curve){rate, e2e[k], 8, chart_colour((size_t)k), 0, k > 0, false};
		curves[3 * k + 1] = (struct curve){rate, ttft[k], 8, chart_colour((size_t)k), 1, k > 0, false};
		curves[3 * k + 2] = (struct curve){rate, tpot[k], 8, chart_colour((size_t)k), 2, k > 0, false};
	}
	struct curve_key keys[] = {
		{"1 x Standard_NC24ads_A100_v4 (recommended)", chart_colour(0), -1, false},
		{"1 x a2-highgpu-1g (runner-up)", chart_colour(1), -1, false},
		{"end-to-end p99", chart_ink(), 0, true},
		{"TTFT p99", chart_ink(), 1, false},
		{"TPOT p99", chart_ink(), 2, false},
	};
	struct curve_stop stops[] = {{7, "saturated at 7/s", chart_colour(0)},
				     {6, "saturated at 6/s", chart_colour(1)}};
	struct ref_line refs[] = {{false, 10, "p99 target 10 s"},
				  {false, 0.5, "TTFT p99 target 500 ms"},
				  {false, 0.05, "TPOT p99 target 50 ms"},
				  {true, 2, "planned load 2/s"}};
	struct axis x = {0, 0, false, "request rate (requests/s)", NULL};
	struct axis y = {0, 0, true, "p99 latency (s)", NULL};
	struct curve_chart cc = {curves, 6, keys, 5, refs, 4, stops, 2};
	chart_curves(cr, area, "p99 latency against load", &x, &y, &cc, st);
}

/* H100 SXM (989 TFLOP/s dense BF16, 3.35 TB/s) with the op classes of a
 * transformer step, two of them close together to test the nudging. */
static void draw_roofline(cairo_t *cr, struct rect area,
			  const struct chart_style *st)
{
	static const struct roof_point pts[] = {
		{"GEMM", 310, 593e12},
		{"attention", 85, 170e12},
		{"norm", 1.1, 2.4e12},
		{"softmax", 1.25, 2.7e12},
		{"element-wise", 0.33, 0.8e12},
		{"pooling", 0.5, 1.1e12},
		{"embedding", 0.9, 1.9e12},
	};
	chart_roofline(cr, area, "H100 SXM roofline (BF16)", 989e12, 3.35e12,
		       pts, sizeof(pts) / sizeof(pts[0]), NULL, st);
}

/* Nothing to draw and awkward strings: invalid UTF-8, a very long title,
 * empty series.  Must not fail, and must stay inside. */
static void draw_awkward(cairo_t *cr, struct rect area,
			 const struct chart_style *st)
{
	struct axis x = {0, 0, false, "bad \xff\xfe label (\xe4\xb8)", NULL};
	struct axis y = {0, 0, true, NULL, NULL};
	struct point_series empty = {"empty", NULL, NULL, NULL, NULL, 0,
				     chart_colour(2)};
	chart_scatter(cr, area,
		      "A title far too long to fit on one line of any chart, "
		      "which must be cut with an ellipsis rather than run off "
		      "the edge of its rectangle into the page margin",
		      &x, &y, &empty, 1, NULL, NULL, 0, NULL, 0, NULL, st);
}

/* ---- hostile data: every chart must draw without a cairo error ---- */

/* U+FDD0, U+FFFE and U+FFFF (noncharacters cairo refuses) and a byte that
 * is not UTF-8, in names, titles and labels. */
#define NONCHAR "\xef\xb7\x90"
#define NONCHAR2 "\xef\xbf\xbe\xef\xbf\xbf"

/* Subnormal, tiny and huge values on both axes, a reference line far
 * outside the data, names cairo would refuse. */
static void draw_hostile_scatter(cairo_t *cr, struct rect area,
				 const struct chart_style *st)
{
	static const double xs[] = {5e-324, 1e-307, 1, 1e100, 0};
	static const double ys[] = {0, 5e-324, 1e-300, 1e100, 7};
	static const bool muted[] = {false, true, false, false, false};
	static const bool hi[] = {true, false, false, true, false};
	struct point_series ser[2] = {
		{"H100" NONCHAR, xs, ys, muted, hi, 5, chart_colour(0)},
		{NONCHAR2 "\xff", ys, xs, NULL, NULL, 5, chart_colour(1)},
	};
	struct ref_line refs[] = {{true, 1e300, "deadline" NONCHAR},
				  {false, 5e-324, NONCHAR2}};
	for (int log = 0; log <= 1; log++) {
		struct rect half = {area.x, area.y + log * area.h / 2, area.w, area.h / 2};
		struct axis x = {0, 0, log, "time" NONCHAR, NULL};
		struct axis y = {0, 0, log, NONCHAR2, NULL};
		chart_scatter(cr, half, "Time" NONCHAR2 " against cost", &x, &y, ser,
			      2, xs, ys, 5, refs, 2,
			      &(struct scatter_words){NONCHAR, NONCHAR2, "grey"}, st);
	}
}

static void draw_hostile_bars(cairo_t *cr, struct rect area,
			      const struct chart_style *st)
{
	static const double v[4][2] = {{1e100, 5e-324}, {5e-324, 0},
				       {1e-307, 1e99}, {0, 0}};
	static const char *segs[] = {"on demand" NONCHAR, NONCHAR2};
	struct bar_group g[4];
	for (size_t i = 0; i < 4; i++)
		g[i] = (struct bar_group){i % 2 ? NONCHAR2 "\xff" : "p5" NONCHAR,
					  v[i], i == 1, i == 2 ? 1e99 : 5e-324 * (double)i, 0, 0};
	struct axis y = {0, 0, false, "memory" NONCHAR, NULL};
	struct rect half = {area.x, area.y, area.w, area.h / 2};
	chart_bars(cr, half, NONCHAR2, &y, g, 4, segs, NULL, 2, false,
		   "capacity" NONCHAR, st);
	struct axis y2 = {0, 0, false, "cost", NULL};
	half.y += area.h / 2;
	chart_bars(cr, half, "side by side", &y2, g, 4, segs, NULL, 2, true,
		   NULL, st);
}

static void draw_hostile_lines(cairo_t *cr, struct rect area,
			       const struct chart_style *st)
{
	double g[] = {0, 1, 1e9, 1e300}, t[] = {5e-324, 1e100, NAN, 1};
	double cost[] = {1e100, 0, 1e-307, 5e-324}, eff[] = {INFINITY, 100, -5, 0};
	struct axis x = {0, 0, true, "GPUs" NONCHAR, NULL};
	struct axis yt = {0, 0, true, NONCHAR2, NULL};
	struct axis yc = {0, 0, false, "cost", NULL};
	struct axis ye = {0, 100, false, "eff", NULL};
	struct line_series lines[] = {{"time" NONCHAR, t, &yt},
				      {NONCHAR2, cost, &yc}, {"eff", eff, &ye}};
	chart_lines(cr, area, "scaling" NONCHAR, &x, g, 4, lines, 3, st);
}

/* Curves with values no axis can show, out-of-range markers, stops and
 * reference lines far off the data, more legend entries than shown, a
 * curve with no points; linear and log. */
static void draw_hostile_curves(cairo_t *cr, struct rect area,
				const struct chart_style *st)
{
	static const double x[] = {0, 5e-324, 1, 1e100, INFINITY};
	static const double y[] = {5e-324, 1e300, NAN, -1, 0};
	struct curve curves[] = {
		{x, y, 5, chart_colour(0), 0, false, false},
		{y, x, 5, chart_colour(1), 7, true, false},
		{x, NULL, 5, chart_colour(2), -3, false, false},
		{NULL, NULL, 0, chart_colour(3), 1, false, false},
	};
	struct curve_key keys[20];
	for (size_t i = 0; i < 20; i++)
		keys[i] = (struct curve_key){i % 2 ? NONCHAR2 "\xff" : "key" NONCHAR,
					     chart_colour(i), (int)i - 2, i == 5};
	struct curve_stop stops[] = {{1e300, NONCHAR, chart_colour(0)},
				     {5e-324, "at zero", chart_colour(1)},
				     {NAN, "nowhere", chart_colour(2)}};
	struct ref_line refs[] = {{true, -1e100, "far" NONCHAR},
				  {false, 1e-300, NONCHAR2}};
	struct curve_chart cc = {curves, 4, keys, 20, refs, 2, stops, 3};
	for (int log = 0; log <= 1; log++) {
		struct rect half = {area.x, area.y + log * area.h / 2, area.w, area.h / 2};
		struct axis ax = {0, 0, log, "rate" NONCHAR, NULL};
		struct axis ay = {0, 0, log, NONCHAR2, NULL};
		chart_curves(cr, half, "load" NONCHAR2, &ax, &ay, &cc, st);
	}
	struct curve_chart none = {NULL, 0, NULL, 0, NULL, 0, NULL, 0};
	struct axis ax = {0, 0, false, "rate", NULL}, ay = {0, 0, true, "s", NULL};
	chart_curves(cr, (struct rect){area.x, area.y, area.w / 3, area.h / 3},
		     "empty", &ax, &ay, &none, st);
}

/* Roofs no log axis can show (a subnormal bandwidth puts the ridge at
 * infinity; a subnormal peak has no unit) draw their title only; a roof
 * within range with points off its axes draws whole. */
static void draw_hostile_roofline(cairo_t *cr, struct rect area,
				  const struct chart_style *st)
{
	static const struct roof_point pts[] = {
		{"gemm" NONCHAR, 5e-324, 1e-307}, {NONCHAR2, 1e300, 1e300},
		{"norm", 1, 1e12}, {"nan", NAN, INFINITY},
	};
	static const double roofs[][2] = {{989e12, 5e-324}, {5e-324, 3.35e12},
					  {1e300, 1e-300}, {989e12, 3.35e12}};
	for (size_t i = 0; i < 4; i++) {
		struct rect q = {area.x + (double)(i % 2) * area.w / 2,
				 area.y + (double)(i / 2) * area.h / 2, area.w / 2,
				 area.h / 2};
		CHECK(roofline_drawable(roofs[i][0], roofs[i][1]) == (i == 3));
		chart_roofline(cr, q, "roof" NONCHAR2, roofs[i][0], roofs[i][1],
			       pts, 4, NULL, st);
	}
}

struct chart_case {
	const char *name;
	draw_fn draw;
};

static const struct chart_case hostile_charts[] = {
	{"hostile-scatter", draw_hostile_scatter},
	{"hostile-bars", draw_hostile_bars},
	{"hostile-lines", draw_hostile_lines},
	{"hostile-roofline", draw_hostile_roofline},
	{"hostile-curves", draw_hostile_curves},
};

/* Each hostile chart on every canvas: cairo without error (a refused
 * string or coordinate would put the context in error and blank the rest
 * of a page), something drawn, nothing outside the rect.  With
 * GPUPLAN_KEEP_PNG each is kept for a person to look at. */
static void render_hostile(void)
{
	for (size_t i = 0; i < sizeof(hostile_charts) / sizeof(hostile_charts[0]); i++)
		for (size_t k = 0; k < N_CANVASES; k++) {
			cairo_t *cr;
			cairo_surface_t *s = page(&canvases[k], &cr);
			long outside;
			hostile_charts[i].draw(cr, canvases[k].area, &canvases[k].st);
			CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
			if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
				fprintf(stderr, "  %s/%s: %s\n", hostile_charts[i].name,
					canvases[k].size,
					cairo_status_to_string(cairo_status(cr)));
			CHECK(count_ink(s, scaled(&canvases[k]), &outside) > 0);
			CHECK(outside == 0);
			if (getenv("GPUPLAN_KEEP_PNG")) {
				char path[256];
				snprintf(path, sizeof(path), "/tmp/gpuplan-chart-%s-%s.png",
					 hostile_charts[i].name, canvases[k].size);
				cairo_surface_write_to_png(s, path);
			}
			cairo_destroy(cr);
			cairo_surface_destroy(s);
		}
}

static const struct chart_case charts[] = {
	{"scatter", draw_scatter_big},
	{"scatter-zh", draw_scatter_zh},
	{"scatter-full", draw_scatter_full},
	{"bars-memory", draw_bars_memory},
	{"bars-memory-mixed", draw_bars_memory_mixed},
	{"bars-cost", draw_bars_cost},
	{"lines", draw_lines},
	{"curves", draw_curves},
	{"roofline", draw_roofline},
};

static void render_all(void)
{
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		for (size_t k = 0; k < N_CANVASES; k++)
			render(charts[i].name, charts[i].draw, &canvases[k]);
	/* the awkward chart may draw little: only check it stays inside */
	for (size_t k = 0; k < N_CANVASES; k++) {
		cairo_t *cr;
		cairo_surface_t *s = page(&canvases[k], &cr);
		draw_awkward(cr, canvases[k].area, &canvases[k].st);
		CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
		long outside;
		CHECK(count_ink(s, scaled(&canvases[k]), &outside) > 0);
		CHECK(outside == 0);
		cairo_destroy(cr);
		cairo_surface_destroy(s);
	}
}

/* The axes come back widened to their outer ticks. */
static void axes_written_back(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
							400, 300);
	cairo_t *cr = cairo_create(s);
	double xs[] = {0.5, 2000}, ys[] = {3, 40};
	struct point_series ser = {"a", xs, ys, NULL, NULL, 2, chart_colour(0)};
	struct axis x = {0, 0, true, "x", NULL}, y = {0, 0, true, "y", NULL};
	struct chart_style st = {"DejaVu Sans", 9, 1};
	chart_scatter(cr, (struct rect){0, 0, 400, 300}, "t", &x, &y, &ser, 1,
		      NULL, NULL, 0, NULL, 0, NULL, &st);
	CHECK_NEAR(x.min, 0.1, 1e-12);
	CHECK_NEAR(x.max, 1e4, 1e-12);
	CHECK(y.min <= 3 && y.max >= 40);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/* The columns [lo, hi] of pixels within 3 of colour c in every channel
 * (opaque pixels on the white page); lo > hi when there are none. */
static void colour_columns(cairo_surface_t *s, struct rgb c, int *lo, int *hi)
{
	cairo_surface_flush(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	int w = cairo_image_surface_get_width(s);
	int h = cairo_image_surface_get_height(s);
	int want[3] = {(int)(c.r * 255 + 0.5), (int)(c.g * 255 + 0.5),
		       (int)(c.b * 255 + 0.5)};
	*lo = w;
	*hi = -1;
	for (int y = 0; y < h; y++) {
		const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
		for (int x = 0; x < w; x++) {
			int got[3] = {(int)(row[x] >> 16 & 0xff),
				      (int)(row[x] >> 8 & 0xff),
				      (int)(row[x] & 0xff)};
			if (abs(got[0] - want[0]) > 3 || abs(got[1] - want[1]) > 3 ||
			    abs(got[2] - want[2]) > 3)
				continue;
			*lo = x < *lo ? x : *lo;
			*hi = x > *hi ? x : *hi;
		}
	}
}

/*
 * The line chart keeps at most two y axes a plot: each axis's tick labels
 * and title are in its line's colour (chart_lines' palette 0, 1 and 4, a
 * quarter darker for text); time's (left) and cost's (right) columns do
 * not overlap, and the third line's axis is on the left again, in a panel
 * of its own under the first (never a third column right of cost), all
 * inside the rect.  Only where text is at
 * least 15 pixels high: smaller glyphs have no pixel of the full colour.
 */
static void lines_axes_apart(void)
{
	static const size_t palette[3] = {0, 1, 4};
	for (size_t k = 0; k < N_CANVASES; k++) {
		const struct canvas *cv = &canvases[k];
		if (cv->st.font_size * cv->scale < 15)
			continue;
		cairo_t *cr;
		cairo_surface_t *s = page(cv, &cr);
		struct rect px = scaled(cv);
		int lo[3], hi[3];
		draw_lines(cr, cv->area, &cv->st);
		for (size_t i = 0; i < 3; i++) {
			struct rgb c = chart_colour(palette[i]);
			c = (struct rgb){c.r * 0.75, c.g * 0.75, c.b * 0.75};
			colour_columns(s, c, &lo[i], &hi[i]);
			CHECK(lo[i] <= hi[i]);
			CHECK(lo[i] >= px.x && hi[i] < px.x + px.w);
		}
		bool apart = hi[0] < lo[1] && hi[2] < lo[1] && lo[2] < hi[0];
		CHECK(apart);
		if (!apart)
			fprintf(stderr, "  lines/%s: axis text at %d-%d, %d-%d, %d-%d\n",
				cv->size, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
		cairo_destroy(cr);
		cairo_surface_destroy(s);
	}
}

/* The leftmost column of the first segment's colour in a ten-bar chart
 * whose first label is `first` (labels at 45 degrees: too many to stand
 * level). */
static int bars_first_column(const struct canvas *cv, const char *first)
{
	static const char *rest[] = {"p4d.24xlarge", "p4de.24xlarge",
				     "a3-highgpu-8g", "ND H100 v5",
				     "g6e.48xlarge", "ecs.gn8is", "g5.12xlarge",
				     "g6.48xlarge", "p5.48xlarge"};
	static const double v[10] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 5};
	static const char *segs[] = {"cost"};
	struct bar_group g[10];
	for (size_t i = 0; i < 10; i++)
		g[i] = (struct bar_group){i ? rest[i - 1] : first, &v[i], false,
					  0, 0, 0};
	cairo_t *cr;
	cairo_surface_t *s = page(cv, &cr);
	struct axis y = {0, 0, false, "cost (USD)", NULL};
	chart_bars(cr, cv->area, "Cost by instance", &y, g, 10, segs, NULL, 1,
		   false, NULL, &cv->st);
	CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
	long outside;
	CHECK(count_ink(s, scaled(cv), &outside) > 0);
	CHECK(outside == 0);
	int lo, hi;
	colour_columns(s, chart_colour(0), &lo, &hi);
	CHECK(lo <= hi);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return lo;
}

/*
 * A 45-degree category label runs left of its bar: a long first label
 * moves the plot right to stand whole (ca385a3) rather than being cut at
 * the chart's left edge, and stays inside the rect.  The plot of a short
 * first label starts where the y axis leaves it.
 */
static void bars_first_label_room(void)
{
	for (size_t k = 0; k < N_CANVASES; k++) {
		const struct canvas *cv = &canvases[k];
		int short_lo = bars_first_column(cv, "g5.xlarge");
		int long_lo = bars_first_column(cv, "128 x us-east-1/p5e.48xlarge (8 x H200)");
		CHECK(long_lo > short_lo);
		if (long_lo <= short_lo)
			fprintf(stderr, "  bars/%s: first bar at %d with a short label, %d with a long one\n",
				cv->size, short_lo, long_lo);
	}
}

/* Every y axis of the line chart comes back widened over its own data,
 * and the GPU axis to powers of two. */
static void lines_axes_written_back(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
							800, 500);
	cairo_t *cr = cairo_create(s);
	double g[] = {8, 16, 32, 64}, t[] = {300, 160, 90, 60};
	double cost[] = {2000, 2200, 2600, 3500}, eff[] = {100, 94, 83, 62};
	struct axis x = {0, 0, true, "GPUs", NULL};
	struct axis yt = {0, 0, true, "time (h)", NULL};
	struct axis yc = {0, 0, false, "cost (USD)", NULL};
	struct axis ye = {0, 100, false, "efficiency (%)", NULL};
	struct line_series lines[] = {{"time", t, &yt}, {"cost", cost, &yc},
				      {"efficiency", eff, &ye}};
	struct chart_style st = {"DejaVu Sans", 11, 1};
	chart_lines(cr, (struct rect){0, 0, 800, 500}, "t", &x, g, 4, lines,
		    3, &st);
	CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
	CHECK(x.min == 8 && x.max == 64);
	CHECK(yt.min <= 60 && yt.max >= 300 && yt.min > 0);
	CHECK(yc.min == 0 && yc.max >= 3500);	/* linear cost: from zero */
	CHECK(ye.min == 0 && ye.max == 100);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/*
 * Awkward lines: a NaN breaking a line, a single point, costs all zero,
 * a fourth line past the limit (ignored) and no lines at all.  Must not
 * fail, and must stay inside.
 */
static void lines_awkward(void)
{
	double g[] = {1, 2, 4}, t[] = {5, NAN, 2}, zero[] = {0, 0, 0};
	double eff[] = {100, 90, 80};
	const struct canvas *cv = &canvases[1];
	for (size_t n_lines = 0; n_lines <= 4; n_lines += 4)
		for (size_t n = 1; n <= 3; n += 2) {
			struct axis x = {0, 0, true, "GPUs", NULL};
			struct axis a[4] = {{0, 0, true, "time", NULL},
					    {0, 0, false, "cost", NULL},
					    {0, 100, false, "eff", NULL},
					    {0, 0, false, "extra", NULL}};
			struct line_series lines[4] = {
				{"time", t, &a[0]}, {"cost", zero, &a[1]},
				{"efficiency", eff, &a[2]}, {"extra", eff, &a[3]}};
			cairo_t *cr;
			cairo_surface_t *s = page(cv, &cr);
			long outside;
			chart_lines(cr, cv->area, "awkward", &x, g, n, lines,
				    n_lines, &cv->st);
			CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
			CHECK(count_ink(s, scaled(cv), &outside) > 0);
			CHECK(outside == 0);
			/* the fourth axis was never looked at */
			CHECK(a[3].min == 0 && a[3].max == 0);
			cairo_destroy(cr);
			cairo_surface_destroy(s);
		}
}

/* The 10,000-point scatter into a 1600 x 1000 surface: best of three. */
static void scatter_speed(void)
{
	double best = 1e9;
	for (int i = 0; i < 3; i++) {
		double ms = render("scatter", draw_scatter_big, &canvases[0]);
		best = ms < best ? ms : best;
	}
	printf("chart: 10,000-point scatter into 1600x1000: %.1f ms\n", best);
}

int main(void)
{
	ticks_table();
	ticks_edges();
	ticks_hostile_table();
	ticks_hostile_sweep();
	ticks_always_for_plan_values();
	wants_log();
	axes_written_back();
	lines_axes_written_back();
	render_all();
	render_hostile();
	lines_axes_apart();
	bars_first_label_room();
	lines_awkward();
	scatter_speed();
	report_fonts_shutdown();	/* cairo's and fontconfig's caches: no leaks */
	return check_summary("chart");
}
