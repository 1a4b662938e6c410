/*
 * profile_gpu.c - the GPU's parts of a measured profile, written and read
 * back: the device's fields as the plugin read them (kind cuda), and the
 * NVML samples taken during the run.
 *
 *   device:                      (after kind, name, index)
 *     uuid, pci_bus_id           strings, when the driver gave them
 *     compute_capability: "9.0"
 *     sm_count, memory_bytes     always (the plugin fails without them)
 *     memory_bus_bits, sm_clock_max_hz, memory_clock_hz,
 *     memory_bandwidth_bytes_per_s, driver_cuda_version,
 *     runtime_cuda_version       each when known
 *     plugin: "..."              the plugin's build line, when it gave one
 *     gpus_on_host: 8
 *   sampling:                    kind cuda only
 *     interval_s: 0.1
 *     note: "..."                when there are no samples: why
 *     throttled: false           follows from the samples (checked)
 *     reasons_seen: [..]         the union of the samples' reasons (checked)
 *     samples:
 *       - {t_s, sm_clock_hz, mem_clock_hz, temperature_c, power_w,
 *          throttle: [names], during: "..."}   readings NVML refused absent;
 *                                during absent before the first figure
 *
 * Throttle reasons are written by name (samples.h); a bit NVML knows
 * and we do not is written as "0x...", and read back as that bit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_emit.h"
#include "profile/profile_gpu.h"
#include "profile/profile_read.h"
#include "core/num_format.h"
#include "core/strmap.h"
#include "core/xalloc.h"

/* A sample's label is a figure's, whole: the loader matches them. */
_Static_assert(sizeof(((struct gpu_sample *)0)->during) == BENCH_LABEL_MAX,
	       "gpu_sample.during holds a figure label");

const char *const profile_gpu_keys[] = {
	"uuid", "pci_bus_id", "compute_capability", "sm_count", "memory_bytes",
	"memory_bus_bits", "sm_clock_max_hz", "memory_clock_hz",
	"memory_bandwidth_bytes_per_s", "driver_cuda_version",
	"runtime_cuda_version", "plugin", "gpus_on_host", NULL,
};

/* ---- writing ---- */

void profile_emit_gpu(const struct bench_device *d, FILE *f)
{
	const struct gpuplan_cuda_device_info *g = &d->gpu;
	if (g->valid & GPUPLAN_CUDA_HAS_UUID)
		profile_emit_name(f, "  ", "uuid", g->uuid,
			  sizeof(g->uuid));
	if (g->valid & GPUPLAN_CUDA_HAS_PCI_BUS_ID)
		profile_emit_name(f, "  ", "pci_bus_id", g->pci_bus_id,
			  sizeof(g->pci_bus_id));
	fprintf(f, "  compute_capability: \"%d.%d\"\n  sm_count: %d\n"
		   "  memory_bytes: %" PRIu64 "\n",
		g->cc_major, g->cc_minor, g->sm_count, g->total_mem_bytes);
	if (g->valid & GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH)
		fprintf(f, "  memory_bus_bits: %d\n", g->mem_bus_width_bits);
	if (g->valid & GPUPLAN_CUDA_HAS_SM_CLOCK)
		fprintf(f, "  sm_clock_max_hz: %" PRIu64 "\n", g->sm_clock_max_hz);
	if (g->valid & GPUPLAN_CUDA_HAS_MEM_CLOCK)
		fprintf(f, "  memory_clock_hz: %" PRIu64 "\n", g->mem_clock_hz);
	if (g->valid & GPUPLAN_CUDA_HAS_MEM_BANDWIDTH)
		fprintf(f, "  memory_bandwidth_bytes_per_s: %s\n",
			NUM_SHORTEST(g->mem_bandwidth_bytes_per_s));
	if (g->valid & GPUPLAN_CUDA_HAS_DRIVER_VERSION)
		fprintf(f, "  driver_cuda_version: %d\n", g->driver_version);
	if (g->valid & GPUPLAN_CUDA_HAS_RUNTIME_VERSION)
		fprintf(f, "  runtime_cuda_version: %d\n", g->runtime_version);
	if (d->plugin_build[0])
		profile_emit_name(f, "  ", "plugin", d->plugin_build,
			  sizeof(d->plugin_build));
	fprintf(f, "  gpus_on_host: %d\n", d->gpu_count);
}

void profile_emit_reasons(FILE *f, uint64_t reasons)
{
	char names[512];
	gpu_throttle_names(reasons, names, sizeof(names));
	fputc('[', f);
	for (char *save = NULL, *n = strtok_r(names, ",", &save); n;
	     n = strtok_r(NULL, ",", &save))
		fprintf(f, "%s%s", n == names ? "" : ", ", n);
	fputc(']', f);
}

static void emit_sample(const struct gpu_sample *s, FILE *f)
{
	fprintf(f, "    - t_s: %s\n", NUM_SHORTEST(s->t_s));
	const struct { uint32_t bit; const char *key; double v; } r[] = {
		{GPU_SAMPLE_SM_CLOCK, "sm_clock_hz", s->sm_clock_hz},
		{GPU_SAMPLE_MEM_CLOCK, "mem_clock_hz", s->mem_clock_hz},
		{GPU_SAMPLE_TEMPERATURE, "temperature_c", s->temperature_c},
		{GPU_SAMPLE_POWER, "power_w", s->power_w},
	};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (s->valid & r[i].bit)
			fprintf(f, "      %s: %s\n", r[i].key, NUM_SHORTEST(r[i].v));
	if (s->valid & GPU_SAMPLE_THROTTLE) {
		fprintf(f, "      throttle: ");
		profile_emit_reasons(f, s->throttle);
		fputc('\n', f);
	}
	/* "" before the first mark: absent, as a YAML reader refuses "" */
	if (s->during[0])
		profile_emit_name(f, "      ", "during", s->during,
			  sizeof(s->during));
}

void profile_emit_sampling(const struct bench_profile *p, FILE *f)
{
	const struct gpu_samples *s = &p->samples;
	fprintf(f, "sampling:\n  interval_s: %s\n", NUM_SHORTEST(s->interval_s));
	if (p->sampling_note[0])
		profile_emit_string(f, "  ", "note", p->sampling_note);
	fprintf(f, "  throttled: %s\n  reasons_seen: ",
		s->throttled ? "true" : "false");
	profile_emit_reasons(f, s->throttle_seen);
	fprintf(f, "\n  samples:%s\n", s->n ? "" : " []");
	for (size_t i = 0; i < s->n; i++)
		emit_sample(&s->v[i], f);
}

/* ---- reading ---- */

static void read_cc(struct yread *r, const struct ynode *d,
		    struct gpuplan_cuda_device_info *g)
{
	char cc[16];
	if (profile_read_text(r, d, "compute_capability", cc, sizeof(cc)) != 1)
		return;
	char tail;
	if (sscanf(cc, "%d.%d%c", &g->cc_major, &g->cc_minor, &tail) != 2 ||
	    g->cc_major < 1 || g->cc_major > 99 || g->cc_minor < 0 ||
	    g->cc_minor > 9)
		yr_error(r, ymap_get(d, "compute_capability"), NULL,
			 "compute_capability expects MAJOR.MINOR like \"9.0\", found '%s'",
			 cc);
}

/* An integer field that sets a validity bit. */
static void read_bit_int(struct yread *r, const struct ynode *d,
			 const char *key, uint32_t bit, long max, long *v,
			 uint32_t *valid)
{
	if (yr_int(r, d, key, 0, max, v) == 1)
		*valid |= bit;
}

void profile_read_gpu(struct yread *r, const struct ynode *d,
		      struct bench_device *dev)
{
	struct gpuplan_cuda_device_info *g = &dev->gpu;
	static const char *const required[] = {"compute_capability", "sm_count",
					       "memory_bytes", "gpus_on_host",
					       NULL};
	for (const char *const *k = required; *k; k++)
		if (!ymap_get(d, *k))
			yr_error(r, d, NULL, "a cuda device needs '%s'", *k);
	if (profile_read_name(r, d, "uuid", g->uuid, sizeof(g->uuid)) == 1)
		g->valid |= GPUPLAN_CUDA_HAS_UUID;
	if (profile_read_name(r, d, "pci_bus_id", g->pci_bus_id,
			      sizeof(g->pci_bus_id)) == 1)
		g->valid |= GPUPLAN_CUDA_HAS_PCI_BUS_ID;
	read_cc(r, d, g);
	long v = 0;
	uint32_t none = 0;
	read_bit_int(r, d, "sm_count", 0, 1 << 20, &v, &none);
	g->sm_count = (int)v;
	v = 0;
	read_bit_int(r, d, "memory_bytes", 0, 1L << 62, &v, &none);
	g->total_mem_bytes = (uint64_t)v;
	v = 0;
	read_bit_int(r, d, "memory_bus_bits", GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH,
		     1 << 20, &v, &g->valid);
	g->mem_bus_width_bits = (int)v;
	v = 0;
	read_bit_int(r, d, "sm_clock_max_hz", GPUPLAN_CUDA_HAS_SM_CLOCK,
		     1L << 50, &v, &g->valid);
	g->sm_clock_max_hz = (uint64_t)v;
	v = 0;
	read_bit_int(r, d, "memory_clock_hz", GPUPLAN_CUDA_HAS_MEM_CLOCK,
		     1L << 50, &v, &g->valid);
	g->mem_clock_hz = (uint64_t)v;
	if (profile_read_number(r, d, "memory_bandwidth_bytes_per_s",
				&g->mem_bandwidth_bytes_per_s) == 1)
		g->valid |= GPUPLAN_CUDA_HAS_MEM_BANDWIDTH;
	v = 0;
	read_bit_int(r, d, "driver_cuda_version",
		     GPUPLAN_CUDA_HAS_DRIVER_VERSION, 1000000, &v, &g->valid);
	g->driver_version = (int)v;
	v = 0;
	read_bit_int(r, d, "runtime_cuda_version",
		     GPUPLAN_CUDA_HAS_RUNTIME_VERSION, 1000000, &v, &g->valid);
	g->runtime_version = (int)v;
	profile_read_name(r, d, "plugin", dev->plugin_build,
			  sizeof(dev->plugin_build));
	profile_read_int(r, d, "gpus_on_host", 1, 1 << 16, &dev->gpu_count);
	snprintf(g->name, sizeof(g->name), "%s", dev->name);
}

/* A list of reason names into bits. */
int profile_read_reasons(struct yread *r, const struct ynode *map,
			const char *key, uint64_t *out)
{
	const struct ynode *s = ymap_get(map, key);
	*out = 0;
	if (!s)
		return 0;
	if (!yr_expect_seq(r, s, key))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		char *name = NULL;
		if (yr_node_name(r, s->items[i], key, &name) <= 0)
			return -1;
		char *end = NULL;
		uint64_t bit = !strncmp(name, "0x", 2)
				       ? strtoull(name + 2, &end, 16)
				       : gpu_throttle_bit(name);
		if (!bit || (end && *end))
			yr_error(r, s->items[i], NULL,
				 "unknown throttle reason '%.40s'", name);
		*out |= bit;
		free(name);
	}
	return 1;
}

static void read_sample(struct yread *r, const struct ynode *n,
			struct gpu_sample *s)
{
	static const struct yfield fields[] = {
		{"t_s", true}, {"sm_clock_hz", false}, {"mem_clock_hz", false},
		{"temperature_c", false}, {"power_w", false},
		{"throttle", false}, {"during", false}, {NULL, false}};
	memset(s, 0, sizeof(*s));
	if (!yr_expect_map(r, n, "a sample"))
		return;
	yr_check_keys(r, n, "sample", fields);
	profile_read_number(r, n, "t_s", &s->t_s);
	const struct { const char *key; uint32_t bit; double *v; } v[] = {
		{"sm_clock_hz", GPU_SAMPLE_SM_CLOCK, &s->sm_clock_hz},
		{"mem_clock_hz", GPU_SAMPLE_MEM_CLOCK, &s->mem_clock_hz},
		{"temperature_c", GPU_SAMPLE_TEMPERATURE, &s->temperature_c},
		{"power_w", GPU_SAMPLE_POWER, &s->power_w},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (profile_read_number(r, n, v[i].key, v[i].v) == 1)
			s->valid |= v[i].bit;
	if (profile_read_reasons(r, n, "throttle", &s->throttle) == 1)
		s->valid |= GPU_SAMPLE_THROTTLE;
	profile_read_name(r, n, "during", s->during, sizeof(s->during));
}

/* throttled and reasons_seen as written against what the samples give. */
static void check_derived(struct yread *r, const struct ynode *sn,
			  const struct gpu_samples *s, bool throttled,
			  uint64_t seen)
{
	if (throttled != s->throttled)
		yr_error(r, ymap_get(sn, "throttled"), NULL,
			 "throttled is %s but the samples show %s slowing reason",
			 throttled ? "true" : "false",
			 s->throttled ? "a" : "no");
	if (seen != s->throttle_seen)
		yr_error(r, ymap_get(sn, "reasons_seen"), NULL,
			 "reasons_seen is not the union of the samples' reasons");
}

void profile_read_sampling(struct yread *r, const struct ynode *root,
			   struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"interval_s", true}, {"note", false}, {"throttled", true},
		{"reasons_seen", true}, {"samples", true}, {NULL, false}};
	const struct ynode *sn = ymap_get(root, "sampling");
	bool cuda = strcmp(p->device.kind, "cuda") == 0;
	if (!sn) {
		if (cuda)
			yr_error(r, root, NULL, "a cuda profile needs 'sampling'");
		return;
	}
	if (!cuda) {
		yr_error(r, sn, NULL, "'sampling' belongs to cuda profiles only");
		return;
	}
	if (!yr_expect_map(r, sn, "sampling"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, sn, "sampling", fields);
	gpu_samples_init(&p->samples);
	if (profile_read_number(r, sn, "interval_s", &p->samples.interval_s) == 1 &&
	    !(p->samples.interval_s > 0))
		yr_error(r, ymap_get(sn, "interval_s"), NULL,
			 "'interval_s' expects a number > 0, found 0");
	profile_read_text(r, sn, "note", p->sampling_note,
			  sizeof(p->sampling_note));
	bool throttled = false;
	uint64_t seen = 0;
	yr_bool(r, sn, "throttled", &throttled);
	profile_read_reasons(r, sn, "reasons_seen", &seen);
	const struct ynode *list = ymap_get(sn, "samples");
	if (list && yr_expect_seq(r, list, "samples"))
		for (size_t i = 0; i < list->n; i++) {
			struct gpu_sample s;
			read_sample(r, list->items[i], &s);
			/* the sampler's clock is monotonic */
			if (p->samples.n && s.t_s < p->samples.v[p->samples.n - 1].t_s)
				yr_error(r, ymap_get(list->items[i], "t_s"), NULL,
					 "t_s %.17g is before the sample above it (%.17g)",
					 s.t_s, p->samples.v[p->samples.n - 1].t_s);
			gpu_samples_push(&p->samples, &s);
		}
	if (gp_errors_count(r->errs) == before)
		check_derived(r, sn, &p->samples, throttled, seen);
}

/* ---- the steady part's clocks ---- */

void bench_profile_figure_window(const struct bench_profile *p,
				 const struct bench_figure *f,
				 struct gpu_window *out)
{
	memset(out, 0, sizeof(*out));
	/* a spread figure of another GPU ran while the sampled one idled */
	if (!bench_suite_sustained(f->suite) || strcmp(p->device.kind, "cuda") ||
	    (!strcmp(f->suite, "spread") && f->gpu != p->device.index))
		return;
	char label[BENCH_LABEL_MAX];
	bench_figure_label(f, label, sizeof(label));
	gpu_samples_window(&p->samples, label, f->time.elapsed_s, out);
}

void bench_profile_window_clocks(struct bench_profile *p)
{
	for (size_t i = 0; i < p->figures.n; i++)
		bench_profile_figure_window(p, &p->figures.v[i],
					    &p->figures.v[i].clocks);
}

/* ---- marking throttled figures ---- */

/* Per figure, the slowing reasons of the samples labelled with it: one map
 * from label to figure, so this is linear in samples plus figures. */
uint64_t *profile_slowing_per_figure(const struct bench_profile *p)
{
	size_t n = p->figures.n;
	char (*labels)[BENCH_LABEL_MAX] = xcalloc(n ? n : 1, sizeof(*labels));
	uint64_t *slow = xcalloc(n ? n : 1, sizeof(uint64_t));
	struct strmap map;
	strmap_init(&map);
	for (size_t i = 0; i < n; i++) {
		bench_figure_label(&p->figures.v[i], labels[i], sizeof(labels[i]));
		strmap_put(&map, labels[i], i, NULL);
	}
	for (size_t i = 0; i < p->samples.n; i++) {
		size_t at;
		if (strmap_get(&map, p->samples.v[i].during, &at))
			slow[at] |= p->samples.v[i].throttle & GPU_THROTTLE_SLOWING;
	}
	strmap_free(&map);
	free(labels);
	return slow;
}

/* The throttled fault of one suite, marking its slowed figures. */
static void mark_suite(struct bench_profile *p, const char *suite,
		       const uint64_t *slow)
{
	struct bench_figures *l = &p->figures;
	struct bench_names marked = {0};
	uint64_t reasons = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].suite, suite) || !slow[i])
			continue;
		l->v[i].throttled = true;
		reasons |= slow[i];
		bench_names_add(&marked, l->v[i].name);
	}
	if (!marked.n)
		return;
	char names[160];
	gpu_throttle_names(reasons, names, sizeof(names));
	size_t at = bench_faults_add(&l->faults, BENCH_FAULT_THROTTLED, suite, NULL,
				     "the GPU slowed its clocks (%s) while %zu "
				     "figure%s of %s ran: %s below what this "
				     "board gives cool and within its power "
				     "limit", names, marked.n,
				     marked.n == 1 ? "" : "s", suite,
				     marked.n == 1 ? "its rate is" : "their rates are");
	l->faults.v[at].marked = marked;
}

void bench_profile_mark_throttled(struct bench_profile *p)
{
	if (!p->samples.throttled || !p->figures.n)
		return;
	uint64_t *slow = profile_slowing_per_figure(p);
	for (size_t s = 0; s < p->n_suites; s++)	/* in the order they ran */
		mark_suite(p, p->suites[s], slow);
	free(slow);
}
