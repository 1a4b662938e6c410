/*
 * smi_log.c - see smi_log.h.
 */
#include "smi_log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/io_guard.h"
#include "core/suggest.h"
#include "core/utc_time.h"
#include "core/xalloc.h"

/* What a field holds, and so how its values read. */
enum field_kind {
	F_IGNORED,		/* a real nvidia-smi field gpuplan has no use for */
	F_TIME, F_INDEX, F_UUID, F_NAME, F_BUS,
	F_UTIL_GPU, F_UTIL_MEM, F_MEM_USED, F_MEM_TOTAL, F_TEMP, F_POWER,
	F_POWER_LIMIT, F_CLOCK_SM, F_CLOCK_MAX_SM,
	F_REASON_MASK,		/* clocks_event_reasons.active: 0x... */
	F_REASON,		/* one reason: Active / Not Active */
};

struct field_def {
	const char *name;	/* as --query-gpu takes it and the header prints it */
	enum field_kind kind;
	const char *unit;	/* what a value carries without nounits; NULL none */
	double scale;		/* to SI */
	uint64_t bit;		/* F_REASON: its GPU_THROTTLE_* bit */
};

/* nvidia-smi --help-query-gpu's names (both spellings where a field has
 * two: the header prints the long one).  Reasons are matched after their
 * prefix, clocks_event_reasons. or clocks_throttle_reasons. */
static const struct field_def fields[] = {
	{"timestamp", F_TIME, NULL, 1, 0},
	{"index", F_INDEX, NULL, 1, 0},
	{"uuid", F_UUID, NULL, 1, 0},
	{"gpu_uuid", F_UUID, NULL, 1, 0},
	{"name", F_NAME, NULL, 1, 0},
	{"gpu_name", F_NAME, NULL, 1, 0},
	{"pci.bus_id", F_BUS, NULL, 1, 0},
	{"gpu_bus_id", F_BUS, NULL, 1, 0},
	{"utilization.gpu", F_UTIL_GPU, "%", 1, 0},
	{"utilization.memory", F_UTIL_MEM, "%", 1, 0},
	{"memory.used", F_MEM_USED, "MiB", 1048576, 0},
	{"memory.total", F_MEM_TOTAL, "MiB", 1048576, 0},
	{"temperature.gpu", F_TEMP, NULL, 1, 0},
	{"power.draw", F_POWER, "W", 1, 0},
	{"power.draw.average", F_POWER, "W", 1, 0},	/* newer drivers */
	{"power.draw.instant", F_POWER, "W", 1, 0},
	{"power.limit", F_POWER_LIMIT, "W", 1, 0},
	{"enforced.power.limit", F_POWER_LIMIT, "W", 1, 0},
	{"clocks.sm", F_CLOCK_SM, "MHz", 1e6, 0},
	{"clocks.current.sm", F_CLOCK_SM, "MHz", 1e6, 0},
	{"clocks.max.sm", F_CLOCK_MAX_SM, "MHz", 1e6, 0},
	{"clocks.max.streaming_multiprocessor", F_CLOCK_MAX_SM, "MHz", 1e6, 0},
	{"fan.speed", F_IGNORED, "%", 1, 0},
	{"pstate", F_IGNORED, NULL, 1, 0},
	{"temperature.memory", F_IGNORED, NULL, 1, 0},
	{"driver_version", F_IGNORED, NULL, 1, 0},
	{"count", F_IGNORED, NULL, 1, 0},
	{"serial", F_IGNORED, NULL, 1, 0},
	{"gpu_serial", F_IGNORED, NULL, 1, 0},
	{"vbios_version", F_IGNORED, NULL, 1, 0},
	{"compute_mode", F_IGNORED, NULL, 1, 0},
	{"persistence_mode", F_IGNORED, NULL, 1, 0},
	{"display_mode", F_IGNORED, NULL, 1, 0},
	{"display_active", F_IGNORED, NULL, 1, 0},
	{"ecc.mode.current", F_IGNORED, NULL, 1, 0},
	{"memory.free", F_IGNORED, "MiB", 1, 0},
	{"memory.reserved", F_IGNORED, "MiB", 1, 0},
	{"clocks.mem", F_IGNORED, "MHz", 1, 0},
	{"clocks.current.memory", F_IGNORED, "MHz", 1, 0},
	{"clocks.gr", F_IGNORED, "MHz", 1, 0},
	{"clocks.current.graphics", F_IGNORED, "MHz", 1, 0},
	{"clocks.video", F_IGNORED, "MHz", 1, 0},
	{"clocks.current.video", F_IGNORED, "MHz", 1, 0},
	{"clocks.max.gr", F_IGNORED, "MHz", 1, 0},
	{"clocks.max.graphics", F_IGNORED, "MHz", 1, 0},
	{"clocks.max.mem", F_IGNORED, "MHz", 1, 0},
	{"clocks.max.memory", F_IGNORED, "MHz", 1, 0},
	{"power.default_limit", F_IGNORED, "W", 1, 0},
	{"power.min_limit", F_IGNORED, "W", 1, 0},
	{"power.max_limit", F_IGNORED, "W", 1, 0},
	{"pcie.link.gen.current", F_IGNORED, NULL, 1, 0},
	{"pcie.link.gen.max", F_IGNORED, NULL, 1, 0},
	{"pcie.link.width.current", F_IGNORED, NULL, 1, 0},
	{"pcie.link.width.max", F_IGNORED, NULL, 1, 0},
};

static const char *const reason_prefix[] = {
	"clocks_event_reasons.", "clocks_throttle_reasons.",
};

static const struct field_def reasons[] = {
	{"active", F_REASON_MASK, NULL, 1, 0},
	{"supported", F_IGNORED, NULL, 1, 0},
	{"gpu_idle", F_REASON, NULL, 1, GPU_THROTTLE_GPU_IDLE},
	{"applications_clocks_setting", F_REASON, NULL, 1, GPU_THROTTLE_APPLICATIONS_CLOCKS},
	{"sw_power_cap", F_REASON, NULL, 1, GPU_THROTTLE_SW_POWER_CAP},
	{"hw_slowdown", F_REASON, NULL, 1, GPU_THROTTLE_HW_SLOWDOWN},
	{"sync_boost", F_REASON, NULL, 1, GPU_THROTTLE_SYNC_BOOST},
	{"sw_thermal_slowdown", F_REASON, NULL, 1, GPU_THROTTLE_SW_THERMAL},
	{"hw_thermal_slowdown", F_REASON, NULL, 1, GPU_THROTTLE_HW_THERMAL},
	{"hw_power_brake_slowdown", F_REASON, NULL, 1, GPU_THROTTLE_HW_POWER_BRAKE},
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
#define NREASONS (sizeof(reasons) / sizeof(reasons[0]))
#define MAX_COLUMNS 128		/* fields a line may have */
#define VALUE_MAX 96		/* bytes of one value kept */

struct column {
	const struct field_def *def;	/* NULL: unknown (its values skipped) */
	bool units;			/* the header named a unit: values carry it */
};

struct reader {
	const char *file;
	struct gp_errors *errs;
	struct smi_log *log;
	struct column col[MAX_COLUMNS];
	int ncol;
	char *header;		/* the header line as written, to spot a repeat */
	bool have_columns;
	double interval_s;
	bool have_t0;
	double t0;		/* the first timestamp, seconds */
	int line;
	const char *query;	/* --query, NULL when the log has a header */
	size_t errors_before;	/* problems already in errs when reading began */
};

/* ---- fields ---- */

static const struct field_def *find_field(const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (!strcmp(fields[i].name, name))
			return &fields[i];
	for (size_t p = 0; p < 2; p++) {
		size_t n = strlen(reason_prefix[p]);
		if (strncmp(name, reason_prefix[p], n))
			continue;
		for (size_t i = 0; i < NREASONS; i++)
			if (!strcmp(reasons[i].name, name + n))
				return &reasons[i];
	}
	return NULL;
}

/* Every name, for a did-you-mean. */
static void unknown_field(struct reader *r, int col, const char *name)
{
	const char *names[NFIELDS + 2 * NREASONS];
	static char spelled[2 * NREASONS][64];
	size_t n = 0;
	for (size_t i = 0; i < NFIELDS; i++)
		names[n++] = fields[i].name;
	for (size_t p = 0; p < 2; p++)
		for (size_t i = 0; i < NREASONS; i++) {
			char *s = spelled[p * NREASONS + i];
			snprintf(s, 64, "%s%s", reason_prefix[p], reasons[i].name);
			names[n++] = s;
		}
	char hint[160];
	const char *h = suggest_hint(name, names, n, hint, sizeof(hint));
	gp_errors_add(r->errs, r->file, r->line, col,
		      h ? h : "see 'nvidia-smi --help-query-gpu' for the names",
		      "expected an nvidia-smi --query-gpu field, found '%s'", name);
}

/* ---- splitting ---- */

struct cell {
	int col;		/* 1-based */
	char text[VALUE_MAX + 1];
};

/* Splits line (len bytes, no newline) at commas, trimming spaces.
 * Returns the count of fields (more than max: max + 1). */
static int split(const char *line, size_t len, struct cell *v, int max)
{
	int n = 0;
	size_t i = 0;
	for (;;) {
		size_t s = i;
		while (i < len && line[i] != ',')
			i++;
		size_t e = i;
		while (s < e && line[s] == ' ')
			s++;
		while (e > s && (line[e - 1] == ' ' || line[e - 1] == '\r'))
			e--;
		if (n < max) {
			size_t k = e - s > VALUE_MAX ? VALUE_MAX : e - s;
			v[n].col = (int)s + 1;
			memcpy(v[n].text, line + s, k);
			v[n].text[k] = '\0';
		}
		n++;
		if (n > max || i >= len)
			return n;
		i++;	/* past the comma */
	}
}

/* ---- the header ---- */

/* "utilization.gpu [%]" into the name and whether a unit was given;
 * false (with a problem) when the unit is not the field's. */
static bool read_header_cell(struct reader *r, const struct cell *c,
			     struct column *out)
{
	char name[VALUE_MAX + 1];
	snprintf(name, sizeof(name), "%s", c->text);
	char *br = strstr(name, " [");
	const char *unit = NULL;
	if (br) {
		*br = '\0';
		unit = br + 2;
	}
	out->def = find_field(name);
	out->units = unit != NULL;
	if (!out->def) {
		unknown_field(r, c->col, name);
		return false;
	}
	if (unit) {
		size_t ul = strlen(unit);
		const char *want = out->def->unit;
		if (!want || ul < 1 || unit[ul - 1] != ']' ||
		    strlen(want) != ul - 1 || strncmp(unit, want, ul - 1)) {
			gp_errors_add(r->errs, r->file, r->line, c->col, NULL,
				      "expected %s%s%s after '%s', found '[%s'",
				      want ? "the unit [" : "no unit",
				      want ? want : "", want ? "]" : "", name, unit);
			return false;
		}
	}
	return true;
}

/* Columns from a header line or a --query string (no units then).
 * -1 only for more fields than a line may have. */
static int set_columns(struct reader *r, const struct cell *c, int n,
		       bool from_query)
{
	if (n > MAX_COLUMNS) {
		gp_errors_add(r->errs, r->file, r->line, 0, NULL,
			      "expected at most %d fields, found more", MAX_COLUMNS);
		return -1;
	}
	/* a field that is not one, or has the wrong unit, is reported and
	 * its values skipped: the other fields are still read */
	for (int i = 0; i < n; i++) {
		struct column col = {NULL, false};
		if (!read_header_cell(r, &c[i], &col))
			col.def = NULL;
		if (from_query)
			col.units = false;
		r->col[i] = col;
	}
	r->ncol = n;
	r->have_columns = true;
	return 0;
}

/* Whether a line is a header: its first field names a field. */
static bool looks_like_header(const struct cell *c)
{
	char name[VALUE_MAX + 1];
	snprintf(name, sizeof(name), "%s", c->text);
	char *br = strstr(name, " [");
	if (br)
		*br = '\0';
	return find_field(name) != NULL;
}

/* ---- values ---- */

/* nvidia-smi's words for a reading it could not take: "[N/A]",
 * "[Not Supported]", "[Unknown Error]", ... and a bare "N/A". */
static bool absent(const char *s)
{
	size_t n = strlen(s);
	return !strcmp(s, "N/A") || (n >= 2 && s[0] == '[' && s[n - 1] == ']');
}

/* A plain decimal (digits and one point, no sign or exponent), then the
 * field's unit after a space when it has one; the unit may be left out
 * (nounits, or a log edited by hand). */
static bool read_number(const char *s, const char *unit, double *v)
{
	size_t n = strspn(s, "0123456789.");
	if (n == 0 || n > 30 || strchr(s, '.') != strrchr(s, '.'))
		return false;
	const char *rest = s + n;
	if (*rest && !(unit && rest[0] == ' ' && !strcmp(rest + 1, unit)))
		return false;
	char num[32];
	memcpy(num, s, n);
	num[n] = '\0';
	char *end;
	*v = strtod(num, &end);
	return *end == '\0' && isfinite(*v);
}

static void expected(struct reader *r, const struct cell *c,
		     const char *what)
{
	gp_errors_add(r->errs, r->file, r->line, c->col, NULL,
		      "expected %s, found '%s'", what, c->text);
}

static const char *what_of(const struct field_def *d)
{
	switch (d->kind) {
	case F_UTIL_GPU:
	case F_UTIL_MEM:
		return "a percentage like '45 %' (0 to 100)";
	case F_MEM_USED:
	case F_MEM_TOTAL:
		return "memory like '1234 MiB'";
	case F_TEMP:
		return "a temperature in degrees C like '65'";
	case F_POWER:
	case F_POWER_LIMIT:
		return "power like '250.50 W'";
	case F_CLOCK_SM:
	case F_CLOCK_MAX_SM:
		return "a clock like '1410 MHz'";
	default:
		return "a value";
	}
}

/* One row's readings, before they go to their GPU. */
struct row {
	struct series_row x;
	bool has_time;
	double t;
	char time_text[VALUE_MAX + 1];
	char key[96];
	long index;
	char uuid[96], name[96], bus[96];
	double power_limit, clock_max;
	uint64_t reasons_read;
};

static bool read_quantity(struct reader *r, const struct cell *c,
			  const struct column *col, double *v)
{
	const struct field_def *d = col->def;
	double x;
	if (!read_number(c->text, d->unit, &x) ||
	    ((d->kind == F_UTIL_GPU || d->kind == F_UTIL_MEM) && x > 100) ||
	    (d->kind == F_TEMP && x > 200)) {
		expected(r, c, what_of(d));
		return false;
	}
	*v = x * d->scale;
	return true;
}

static bool read_time(struct reader *r, const struct cell *c, struct row *w)
{
	long days;
	double sec;
	if (!utc_civil_parse(c->text, '/', &days, &sec)) {
		expected(r, c, "a timestamp like '2017/03/19 17:32:29.613'");
		return false;
	}
	w->has_time = true;
	w->t = (double)days * 86400 + sec;
	snprintf(w->time_text, sizeof(w->time_text), "%s", c->text);
	return true;
}

static bool read_reason(struct reader *r, const struct cell *c,
			const struct field_def *d, struct row *w)
{
	if (d->kind == F_REASON_MASK) {
		const char *s = c->text;
		char *end;
		if ((s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) ||
		    strspn(s + 2, "0123456789abcdefABCDEF") != strlen(s + 2) ||
		    strlen(s + 2) < 1 || strlen(s + 2) > 16) {
			expected(r, c, "a bit mask like '0x0000000000000004'");
			return false;
		}
		w->x.throttle |= strtoull(s + 2, &end, 16);
		w->reasons_read |= GPU_THROTTLE_SLOWING | GPU_THROTTLE_GPU_IDLE;
	} else if (!strcmp(c->text, "Active")) {
		w->x.throttle |= d->bit;
		w->reasons_read |= d->bit;
	} else if (!strcmp(c->text, "Not Active")) {
		w->reasons_read |= d->bit;
	} else {
		expected(r, c, "'Active' or 'Not Active'");
		return false;
	}
	w->x.throttle_read = true;
	return true;
}

static void copy_text(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s);
}

/* One cell into w; false after reporting a bad value. */
static bool read_cell(struct reader *r, const struct cell *c,
		      const struct column *col, struct row *w)
{
	const struct field_def *d = col->def;
	if (!d || d->kind == F_IGNORED)
		return true;
	if (absent(c->text))
		return true;	/* left invalid: absent, never 0 */
	double v;
	switch (d->kind) {
	case F_TIME:
		return read_time(r, c, w);
	case F_INDEX:
		if (!c->text[0] || strspn(c->text, "0123456789") != strlen(c->text) ||
		    strlen(c->text) > 4) {
			expected(r, c, "a GPU index like '0'");
			return false;
		}
		w->index = atol(c->text);
		return true;
	case F_UUID:
		copy_text(w->uuid, sizeof(w->uuid), c->text);
		return true;
	case F_NAME:
		copy_text(w->name, sizeof(w->name), c->text);
		return true;
	case F_BUS:
		copy_text(w->bus, sizeof(w->bus), c->text);
		return true;
	case F_REASON:
	case F_REASON_MASK:
		return read_reason(r, c, d, w);
	default:
		break;
	}
	if (!read_quantity(r, c, col, &v))
		return false;
	switch (d->kind) {
	case F_UTIL_GPU:
		w->x.v[SC_UTIL] = v;
		break;
	case F_UTIL_MEM:
		break;	/* checked; no detector reads it */
	case F_MEM_USED:
		w->x.v[SC_MEM_USED] = v;
		break;
	case F_MEM_TOTAL:
		w->x.v[SC_MEM_TOTAL] = v;
		break;
	case F_TEMP:
		w->x.v[SC_TEMP] = v;
		break;
	case F_POWER:
		w->x.v[SC_POWER] = v;
		break;
	case F_POWER_LIMIT:
		w->power_limit = v;
		w->x.v[SC_POWER_LIMIT] = v;
		break;
	case F_CLOCK_SM:
		w->x.v[SC_SM_CLOCK] = v;
		break;
	default:	/* F_CLOCK_MAX_SM */
		w->clock_max = v;
		break;
	}
	return true;
}

/* ---- GPUs ---- */

static struct smi_gpu *gpu_of(struct reader *r, const struct row *w,
			      const struct cell *first)
{
	struct smi_log *log = r->log;
	for (size_t i = 0; i < log->n; i++)
		if (!strcmp(log->gpu[i].key, w->key))
			return &log->gpu[i];
	if (log->n >= SMI_LOG_MAX_GPUS) {
		gp_errors_add(r->errs, r->file, r->line, first->col, NULL,
			      "expected at most %d GPUs in one log, found another ('%s')",
			      SMI_LOG_MAX_GPUS, w->key);
		return NULL;
	}
	log->gpu = xrealloc(log->gpu, (log->n + 1) * sizeof(*log->gpu));
	struct smi_gpu *g = &log->gpu[log->n++];
	memset(g, 0, sizeof(*g));
	copy_text(g->key, sizeof(g->key), w->key);
	g->index = w->index;
	copy_text(g->uuid, sizeof(g->uuid), w->uuid);
	copy_text(g->name, sizeof(g->name), w->name);
	series_init(&g->s);
	g->power_limit_w = NAN;
	g->sm_clock_max_hz = NAN;
	return g;
}

static double max_known(double a, double b)
{
	return isnan(a) || b > a ? b : a;
}

/* The row's time, relative to the log's first; false when it goes back
 * (a GPU's samples keep their order). */
static bool place(struct reader *r, struct smi_gpu *g, struct row *w,
		  const struct cell *tcell)
{
	if (!r->log->has_time) {
		w->x.t_s = (double)g->s.n * r->interval_s;
		return true;
	}
	if (!r->have_t0) {
		r->t0 = w->t;
		r->have_t0 = true;
		r->log->t0_s = w->t;
		copy_text(r->log->first_time, sizeof(r->log->first_time), w->time_text);
	}
	w->x.t_s = w->t - r->t0;
	/* Before the log's first row: every GPU's times count from that row
	 * (nvidia-smi writes each -l round in order), so this is a log pasted
	 * together out of order. */
	if (w->x.t_s < 0) {
		gp_errors_add(r->errs, r->file, r->line, tcell->col, NULL,
			      "expected a time at or after the log's first row (%s), found '%s'",
			      r->log->first_time, w->time_text);
		return false;
	}
	if (g->s.n && w->x.t_s < g->s.t_s[g->s.n - 1]) {
		gp_errors_add(r->errs, r->file, r->line, tcell->col, NULL,
			      "expected a time after this GPU's previous sample, found '%s' (%.3f s earlier)",
			      w->time_text, g->s.t_s[g->s.n - 1] - w->x.t_s);
		return false;
	}
	return true;
}

/* ---- lines ---- */

static int time_column(const struct reader *r)
{
	for (int i = 0; i < r->ncol; i++)
		if (r->col[i].def && r->col[i].def->kind == F_TIME)
			return i;
	return -1;
}

/* A GPU whose every row was refused (its first one placed before the
 * log's first row, say) has nothing to diagnose; what could be read is
 * reported without it. */
static void drop_empty_gpus(struct smi_log *log)
{
	size_t kept = 0;
	for (size_t i = 0; i < log->n; i++) {
		if (log->gpu[i].s.n == 0) {
			series_free(&log->gpu[i].s);
			continue;
		}
		log->gpu[kept++] = log->gpu[i];
	}
	log->n = kept;
}

/* A data line.  cut: the file ends here without a newline. */
static void read_row(struct reader *r, const struct cell *c, int n, bool cut)
{
	if (n != r->ncol) {
		gp_errors_add(r->errs, r->file, r->line, 0,
			      cut && n < r->ncol ? "the log ends mid-line: cut short while nvidia-smi wrote it?" : NULL,
			      "expected %d fields as the header has, found %d", r->ncol,
			      n > MAX_COLUMNS ? MAX_COLUMNS + 1 : n);
		return;
	}
	struct row w;
	memset(&w, 0, sizeof(w));
	series_row_clear(&w.x, 0);
	w.index = -1;
	w.power_limit = NAN;
	w.clock_max = NAN;
	bool ok = true;
	for (int i = 0; i < n; i++)
		ok &= read_cell(r, &c[i], &r->col[i], &w);
	if (!ok)
		return;
	int tc = time_column(r);
	if (r->log->has_time && !w.has_time) {
		expected(r, &c[tc], "a timestamp (a sample without one cannot be placed)");
		return;
	}
	if (w.index >= 0)
		snprintf(w.key, sizeof(w.key), "%ld", w.index);
	else
		snprintf(w.key, sizeof(w.key), "%s", w.uuid[0] ? w.uuid : w.bus[0] ? w.bus : "0");
	struct smi_gpu *g = gpu_of(r, &w, &c[0]);
	if (!g || !place(r, g, &w, tc >= 0 ? &c[tc] : &c[0]))
		return;
	g->power_limit_w = max_known(g->power_limit_w, w.power_limit);
	g->sm_clock_max_hz = max_known(g->sm_clock_max_hz, w.clock_max);
	g->reasons_read |= w.reasons_read;
	series_push(&g->s, &w.x);
	r->log->rows++;
}

/* The same field under either of its names. */
static bool same_field(const struct field_def *a, const struct field_def *b)
{
	return a && b && a->kind == b->kind && a->bit == b->bit &&
	       (a->kind != F_IGNORED || !strcmp(a->name, b->name));
}

/* The columns come from the first line (a header) or the query. */
static int first_line(struct reader *r, const char *line, size_t len,
		      const char *query, const struct cell *c, int n)
{
	bool header = looks_like_header(&c[0]);
	if (query) {
		struct cell q[MAX_COLUMNS + 1];
		int nq = split(query, strlen(query), q, MAX_COLUMNS + 1);
		int saved = r->line;
		r->line = 0;	/* the query's problems are the option's */
		const char *file = r->file;
		r->file = "--query";
		int rc = set_columns(r, q, nq, true);
		r->file = file;
		r->line = saved;
		if (rc)
			return -1;
		if (!header)
			return 0;
	} else if (!header) {
		gp_errors_add(r->errs, r->file, r->line, c[0].col,
			      "a log written with --format=csv,noheader needs --query with nvidia-smi's --query-gpu fields",
			      "expected a header of nvidia-smi field names, found '%s'", c[0].text);
		return -1;
	}
	r->header = xstrndup(line, len);
	if (!query)
		return set_columns(r, c, n, false);
	/* a header as well: it must name the query's fields in its order */
	struct column q[MAX_COLUMNS];
	int nq = r->ncol;
	memcpy(q, r->col, sizeof(q));
	if (set_columns(r, c, n, false))
		return -1;
	for (int i = 0; i < n || i < nq; i++)
		if (i >= n || i >= nq || !same_field(q[i].def, r->col[i].def)) {
			gp_errors_add(r->errs, r->file, r->line,
				      i < n ? c[i].col : 0, "leave --query out for a log with a header",
				      "expected the fields of --query, found a header that differs in field %d", i + 1);
			return -1;
		}
	return 0;
}

/* 1 to stop reading (a different header), else 0. */
static int read_line(struct reader *r, const char *line, size_t len,
		     const char *query, bool cut)
{
	static struct cell c[MAX_COLUMNS + 1];
	int n = split(line, len, c, MAX_COLUMNS + 1);
	if (!r->have_columns) {
		if (first_line(r, line, len, query, c, n) < 0)
			return 1;
		if (!r->log->has_time && time_column(r) < 0 && r->interval_s <= 0) {
			gp_errors_add(r->errs, r->file, r->line, 0,
				      "give --interval, nvidia-smi's -l period, to place the samples in time",
				      "expected a timestamp field, found none");
			return 1;
		}
		r->log->has_time = time_column(r) >= 0;
		if (r->header)
			return 0;
	} else if (looks_like_header(&c[0])) {
		if (r->header && len == strlen(r->header) &&
		    !memcmp(line, r->header, len))
			return 0;	/* logs concatenated: the same header */
		gp_errors_add(r->errs, r->file, r->line, c[0].col,
			      "logs of different queries concatenated? diagnose each alone",
			      "expected the header of line 1 again or a sample, found a different header");
		return 1;
	}
	read_row(r, c, n, cut);
	return 0;
}

/* ---- the log, a line at a time ---- */

static void reader_begin(struct reader *r, struct smi_log *log,
			 const char *file, const char *query,
			 double interval_s, struct gp_errors *errs)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->errs = errs;
	r->log = log;
	r->interval_s = interval_s;
	r->query = query;
	r->errors_before = gp_errors_count(errs);
}

/* One line (len bytes, its newline left out; cut: the file ends without
 * one).  False to stop reading. */
static bool feed_line(struct reader *r, const char *p, size_t n, bool cut)
{
	r->line++;
	if (r->line == 1 && n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) {
		p += 3;	/* a byte-order mark from a Windows editor */
		n -= 3;
	}
	if (n && p[n - 1] == '\r')
		n--;
	if (memchr(p, '\0', n)) {
		gp_errors_add(r->errs, r->file, r->line, 0, NULL,
			      "expected text, found a NUL byte (a binary file?)");
		return false;
	}
	return !(n && read_line(r, p, n, r->query, cut));
}

/* After the last line: a log with nothing in it says so.  0, or -1 when
 * a problem was found anywhere. */
static int reader_end(struct reader *r)
{
	size_t before = r->errors_before;
	if (!r->have_columns && gp_errors_count(r->errs) == before)
		gp_errors_add(r->errs, r->file, 0, 0, NULL,
			      "expected an nvidia-smi --query-gpu log, found an empty file");
	else if (r->log->rows == 0 && gp_errors_count(r->errs) == before)
		gp_errors_add(r->errs, r->file, r->line, 0, NULL,
			      "expected samples after the header, found none");
	free(r->header);
	r->header = NULL;
	drop_empty_gpus(r->log);
	return gp_errors_count(r->errs) == before ? 0 : -1;
}

int smi_log_parse(struct smi_log *log, const char *text, size_t len,
		  const char *file, const char *query, double interval_s,
		  struct gp_errors *errs)
{
	struct reader r;
	reader_begin(&r, log, file, query, interval_s, errs);
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (!feed_line(&r, p, (size_t)(e - p), nl == NULL))
			break;
		p = nl ? nl + 1 : end;
	}
	return reader_end(&r);
}

static void too_large(struct gp_errors *errs, const char *shown)
{
	gp_errors_add(errs, shown, 0, 0, "diagnose the hours that matter, or sample less often",
		      "log is larger than %u MiB", SMI_LOG_MAX_BYTES >> 20);
}

/*
 * The file is read a line at a time, never whole: a log is millions of
 * short lines, and its samples (series.h) take less than its text.  A
 * regular file over the limit is refused before a line is read; a pipe,
 * once it passes the limit (what was read is then dropped).
 */
int smi_log_read(struct smi_log *log, const char *path, const char *query,
		 double interval_s, struct gp_errors *errs)
{
	bool in = !strcmp(path, "-");
	const char *shown = in ? "<stdin>" : path;
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f) {
		gp_errors_add(errs, shown, 0, 0, NULL, "cannot read log: %s", strerror(errno));
		return -1;
	}
	struct stat st;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	if (regular)	/* so that -o cannot name it (core/io_guard.h) */
		io_guard_input_add(st.st_dev, st.st_ino);
	if (regular && (unsigned long long)st.st_size > SMI_LOG_MAX_BYTES) {
		if (!in)
			fclose(f);
		too_large(errs, shown);
		return -1;
	}
	struct reader r;
	reader_begin(&r, log, shown, query, interval_s, errs);
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t got;
	bool over = false;
	errno = 0;
	while ((got = getline(&line, &cap, f)) > 0) {
		total += (size_t)got;
		if ((over = total > SMI_LOG_MAX_BYTES))
			break;
		bool nl = line[got - 1] == '\n';
		if (!feed_line(&r, line, (size_t)got - nl, !nl))
			break;
	}
	int err = errno;
	bool failed = ferror(f);
	free(line);
	if (!in)
		fclose(f);
	if (failed)
		gp_errors_add(errs, shown, 0, 0, NULL, "cannot read log: %s", strerror(err));
	int rc = reader_end(&r);
	if (over) {
		smi_log_free(log);	/* nothing of a log refused whole is shown */
		too_large(errs, shown);
		return -1;
	}
	return failed ? -1 : rc;
}

void smi_log_init(struct smi_log *log)
{
	memset(log, 0, sizeof(*log));
}

void smi_log_free(struct smi_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		series_free(&log->gpu[i].s);
	free(log->gpu);
	memset(log, 0, sizeof(*log));
}
