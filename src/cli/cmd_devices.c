/*
 * cmd_devices.c - `gpuplan devices`: what this machine can measure.
 *
 * Lists the CPU (always there) and, through the dlopen()ed CUDA plugin, each
 * CUDA GPU with its identity and datasheet-style limits as the driver
 * reports them.  When no GPU can be used the listing says exactly why (no
 * plugin built, no driver, no device) instead of silently showing the CPU
 * alone.  --check runs the plugin's triad kernel on every GPU and verifies
 * its result: a quick proof that the plugin, driver and device work before
 * anyone pays for a benchmark run.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_info.h"
#include "bench/plugin_loader.h"
#include "catalog/catalog_json.h"
#include "commands.h"
#include "common.h"
#include "core/output.h"
#include "core/table.h"
#include "core/term_safe.h"
#include "core/units.h"

/* 2^22 doubles per array: 96 MiB moved, enough to leave the caches of any
 * current GPU and still finish in well under a second. */
#define SELF_TEST_ELEMENTS ((size_t)1 << 22)

static const struct opt_spec devices_opts[] = {
	{"check", 0, OPT_FLAG, NULL,
	 "run and verify a triad kernel on each GPU (loads the CUDA plugin)"},
	FORMAT_OPTION_NO_CSV,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec devices_spec = {
	"devices", NULL,
	"List the devices gpuplan can measure here: the CPU and any CUDA GPUs.",
	devices_opts, 0, 0,
	"The CUDA plugin (libgpuplan-cuda.so) is loaded only by this command and\n"
	"by measurements; 'gpuplan --version' shows where it is looked for.",
};

struct gpu_entry {
	struct gpuplan_cuda_device_info info;
	char error[256];		/* device_info failure, else "" */
	bool tested;
	struct gpuplan_cuda_self_test test;
	char test_error[256];
};

struct device_scan {
	struct cpu_info cpu;
	bool cpu_ok;
	bool cuda_ok;
	char cuda_why[512];		/* why no GPU can be used */
	struct cuda_plugin_info plugin;	/* what --version reports too */
	struct gpu_entry *gpus;
	int n_gpus;
};

static void scan_gpus(struct device_scan *s, struct cuda_plugin_handle *h,
		      bool check)
{
	s->n_gpus = h->api->device_count();
	s->gpus = calloc(s->n_gpus > 0 ? (size_t)s->n_gpus : 1,
			 sizeof(*s->gpus));
	if (!s->gpus) {
		s->n_gpus = 0;
		return;
	}
	for (int d = 0; d < s->n_gpus; d++) {
		struct gpu_entry *g = &s->gpus[d];
		if (h->api->device_info(d, &g->info, g->error,
					sizeof(g->error)) != 0)
			continue;
		if (!check)
			continue;
		g->tested = true;
		h->api->self_test(d, SELF_TEST_ELEMENTS, &g->test,
				  g->test_error, sizeof(g->test_error));
	}
}

static void scan(struct device_scan *s, bool check)
{
	memset(s, 0, sizeof(*s));
	s->cpu_ok = cpu_info_read(&s->cpu) == 0;
	cuda_plugin_probe(&s->plugin);
	struct cuda_plugin_handle h;
	if (cuda_plugin_load(&h, s->cuda_why, sizeof(s->cuda_why)) != 0)
		return;
	s->cuda_ok = true;
	scan_gpus(s, &h, check);
	if (s->n_gpus == 0)
		snprintf(s->cuda_why, sizeof(s->cuda_why),
			 "the driver reports no device");
	cuda_plugin_unload(&h);
}

/* ---- table ---- */

static void cpu_details(const struct cpu_info *c, char *buf, size_t len)
{
	char l1[32] = "?", l2[32] = "?", l3[32] = "?";
	if (c->valid & CPU_INFO_HAS_L1D)
		units_format(UNIT_BYTES, (double)c->l1d_bytes, NULL, l1, 32);
	if (c->valid & CPU_INFO_HAS_L2)
		units_format(UNIT_BYTES, (double)c->l2_bytes, NULL, l2, 32);
	if (c->valid & CPU_INFO_HAS_L3)
		units_format(UNIT_BYTES, (double)c->l3_bytes, NULL, l3, 32);
	int k = snprintf(buf, len, "%ld logical CPUs; L1d %s, L2 %s, L3 %s",
			 c->logical_cpus, l1, l2, l3);
	for (uint32_t bit = 1; bit && k > 0 && (size_t)k < len; bit <<= 1)
		if ((c->isa & bit) && cpu_isa_name(bit))
			k += snprintf(buf + k, len - (size_t)k, "%s%s",
				      bit == (c->isa & -c->isa) ? "; " : " ",
				      cpu_isa_name(bit));
}

static void gpu_details(const struct gpu_entry *g, char *buf, size_t len)
{
	const struct gpuplan_cuda_device_info *i = &g->info;
	if (g->error[0]) {
		snprintf(buf, len, "unreadable: %s", g->error);
		return;
	}
	char bw[32] = "?";
	if (i->valid & GPUPLAN_CUDA_HAS_MEM_BANDWIDTH)
		units_format(UNIT_RATE, i->mem_bandwidth_bytes_per_s, NULL, bw,
			     sizeof(bw));
	int k = snprintf(buf, len, "sm_%d%d, %d SMs, memory %s peak", i->cc_major,
			 i->cc_minor, i->sm_count, bw);
	if (g->tested && k > 0 && (size_t)k < len) {
		char got[32];
		units_format(UNIT_RATE, g->test.bytes_per_s, NULL, got,
			     sizeof(got));
		if (g->test.passed)
			snprintf(buf + k, len - (size_t)k,
				 "; check: triad ok, %s", got);
		else
			snprintf(buf + k, len - (size_t)k, "; check FAILED: %s",
				 g->test_error);
	}
}

static void devices_table(const struct device_scan *s, FILE *out)
{
	static const char *const header[] = {"DEVICE", "NAME", "MEMORY",
					     "DETAILS"};
	struct table t;
	table_init(&t, 4, header);
	char mem[32], details[512];
	if (s->cpu_ok) {
		units_format(UNIT_BYTES, (double)s->cpu.memory_bytes, NULL, mem,
			     sizeof(mem));
		cpu_details(&s->cpu, details, sizeof(details));
		const char *row[] = {"cpu", s->cpu.model, mem, details};
		table_add_row(&t, row);
	}
	for (int d = 0; d < s->n_gpus; d++) {
		char dev[16];
		snprintf(dev, sizeof(dev), "cuda:%d", d);
		units_format(UNIT_BYTES, (double)s->gpus[d].info.total_mem_bytes,
			     NULL, mem, sizeof(mem));
		gpu_details(&s->gpus[d], details, sizeof(details));
		const char *row[] = {dev, s->gpus[d].info.name, mem, details};
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_free(&t);
	/* paths come from the environment (GPUPLAN_PLUGIN_DIR): spelled out */
	char *why = term_escape_dup(s->cuda_why, 0);
	if (!s->cuda_ok || s->n_gpus == 0)
		fprintf(out, "\nno CUDA GPU: %s\n", why);
	free(why);
	/* the line --version prints, from the same probe; a plugin not
	 * found is already the reason above */
	if (!s->plugin.found)
		return;
	char line[sizeof(s->plugin.why) + PATH_MAX + 256];
	cuda_plugin_describe(&s->plugin, line, sizeof(line));
	char *shown = term_escape_dup(line, 0);
	fprintf(out, "%scuda plugin: %s\n", s->cuda_ok && s->n_gpus ? "\n" : "",
		shown);
	free(shown);
}

/* ---- json ---- */

static json_t *cpu_json(const struct cpu_info *c)
{
	json_t *j = json_object();
	json_object_set_new(j, "device", json_text("cpu"));
	json_object_set_new(j, "name", json_text(c->model));
	json_object_set_new(j, "logical_cpus", json_integer(c->logical_cpus));
	json_object_set_new(j, "memory_bytes",
			    json_number((double)c->memory_bytes));
	const struct { uint32_t bit; const char *key; uint64_t v; } caches[] = {
		{CPU_INFO_HAS_L1D, "l1d_bytes", c->l1d_bytes},
		{CPU_INFO_HAS_L2, "l2_bytes", c->l2_bytes},
		{CPU_INFO_HAS_L3, "l3_bytes", c->l3_bytes},
	};
	for (size_t i = 0; i < 3; i++)
		json_object_set_new(j, caches[i].key,
				    (c->valid & caches[i].bit)
					    ? json_number((double)caches[i].v)
					    : json_null());
	json_t *isa = json_array();
	for (uint32_t bit = 1; bit; bit <<= 1)
		if ((c->isa & bit) && cpu_isa_name(bit))
			json_array_append_new(isa, json_text(cpu_isa_name(bit)));
	json_object_set_new(j, "isa", isa);
	return j;
}

/* A field the driver could not give is null, never 0. */
static json_t *valid_or_null(uint32_t valid, uint32_t bit, json_t *v)
{
	if (valid & bit)
		return v;
	json_decref(v);
	return json_null();
}

static json_t *gpu_json(int d, const struct gpu_entry *g)
{
	const struct gpuplan_cuda_device_info *i = &g->info;
	json_t *j = json_object();
	char dev[16];
	snprintf(dev, sizeof(dev), "cuda:%d", d);
	json_object_set_new(j, "device", json_text(dev));
	if (g->error[0]) {
		json_object_set_new(j, "error", json_text(g->error));
		return j;
	}
	json_object_set_new(j, "name", json_text(i->name));
	json_object_set_new(j, "uuid", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_UUID, json_text(i->uuid)));
	json_object_set_new(j, "pci_bus_id", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_PCI_BUS_ID, json_text(i->pci_bus_id)));
	char cc[16];
	snprintf(cc, sizeof(cc), "%d.%d", i->cc_major, i->cc_minor);
	json_object_set_new(j, "compute_capability", json_text(cc));
	json_object_set_new(j, "sm_count", json_integer(i->sm_count));
	json_object_set_new(j, "memory_bytes", json_number((double)i->total_mem_bytes));
	json_object_set_new(j, "memory_bus_width_bits", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH, json_integer(i->mem_bus_width_bits)));
	json_object_set_new(j, "sm_clock_max_hz", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_SM_CLOCK, json_number((double)i->sm_clock_max_hz)));
	json_object_set_new(j, "memory_clock_hz", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_MEM_CLOCK, json_number((double)i->mem_clock_hz)));
	json_object_set_new(j, "memory_bandwidth_peak_bytes_per_s", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_MEM_BANDWIDTH, json_number(i->mem_bandwidth_bytes_per_s)));
	json_object_set_new(j, "driver_cuda_version", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_DRIVER_VERSION, json_integer(i->driver_version)));
	json_object_set_new(j, "runtime_cuda_version", valid_or_null(i->valid, GPUPLAN_CUDA_HAS_RUNTIME_VERSION, json_integer(i->runtime_version)));
	if (g->tested) {
		json_t *t = json_object();
		json_object_set_new(t, "kernel", json_text("triad a = b + s*c, fp64"));
		json_object_set_new(t, "elements", json_number((double)g->test.elements));
		json_object_set_new(t, "bytes_moved", json_number((double)g->test.bytes_moved));
		json_object_set_new(t, "kernel_seconds", json_real(g->test.kernel_seconds));
		json_object_set_new(t, "bytes_per_s", json_real(g->test.bytes_per_s));
		json_object_set_new(t, "passed", json_boolean(g->test.passed));
		if (!g->test.passed)
			json_object_set_new(t, "error", json_text(g->test_error));
		json_object_set_new(j, "check", t);
	}
	return j;
}

static void devices_json(const struct device_scan *s, FILE *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "schema", json_text("gpuplan/devices/v1"));
	json_t *arr = json_array();
	if (s->cpu_ok)
		json_array_append_new(arr, cpu_json(&s->cpu));
	for (int d = 0; d < s->n_gpus; d++)
		json_array_append_new(arr, gpu_json(d, &s->gpus[d]));
	json_object_set_new(root, "devices", arr);
	json_t *cuda = json_object();
	bool available = s->cuda_ok && s->n_gpus > 0;
	const struct cuda_plugin_info *pl = &s->plugin;
	json_object_set_new(cuda, "available", json_boolean(available));
	json_object_set_new(cuda, "reason", available ? json_null() : json_text(s->cuda_why));
	/* the plugin as --version reports it (one probe): found even when
	 * its init fails for want of a driver */
	json_object_set_new(cuda, "plugin_built", json_boolean(pl->built));
	json_object_set_new(cuda, "plugin", pl->found ? json_text(pl->path) : json_null());
	json_object_set_new(cuda, "build_info", pl->usable ? json_text(pl->build_info) : json_null());
	json_object_set_new(cuda, "plugin_error", pl->usable ? json_null() : json_text(pl->why));
	json_object_set_new(root, "cuda", cuda);
	json_write(out, root);
	json_decref(root);
}

static bool any_check_failed(const struct device_scan *s)
{
	for (int d = 0; d < s->n_gpus; d++)
		if (s->gpus[d].tested && !s->gpus[d].test.passed)
			return true;
	return false;
}

int cmd_devices(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&devices_spec, argc, argv, &p);
	enum out_format fmt = FORMAT_TABLE;
	if (rc != OPTS_OK || (rc = cli_format(&p, &devices_spec, &fmt)))
		goto out;
	struct device_scan s;
	bool check = opt_flag(&p, &devices_spec, "check");
	scan(&s, check);
	struct output o;
	output_open(&o);
	if (fmt == FORMAT_JSON)
		devices_json(&s, o.f);
	else
		devices_table(&s, o.f);
	rc = output_finish(&o, opt_value(&p, &devices_spec, "output"));
	/* A GPU that computes wrong answers is a runtime failure; so is a
	 * check that had nothing to check, lest "0" read as "GPUs fine". */
	if (rc == 0 && any_check_failed(&s))
		rc = 1;
	if (rc == 0 && check && (!s.cuda_ok || s.n_gpus == 0)) {
		char *why = term_escape_dup(s.cuda_why, 0);
		fprintf(stderr, "gpuplan: nothing to check: no CUDA GPU (%s)\n", why);
		free(why);
		rc = 1;
	}
	free(s.gpus);
out:
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}
