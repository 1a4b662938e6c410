/*
 * cpu_info.c - read the host CPU description; see cpu_info.h.
 */

#include "cpu_info.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CPUINFO_PATH "/proc/cpuinfo"
#define CACHE_DIR "/sys/devices/system/cpu/cpu0/cache"
/* Linux numbers cache descriptions index0..indexN; no CPU has close to this. */
#define MAX_CACHE_INDEX 16

static const struct {
	const char *flag;	/* token in the flags/Features line */
	uint32_t bit;
} isa_table[] = {
	{ "avx2",	 CPU_ISA_AVX2 },
	{ "fma",	 CPU_ISA_FMA },
	{ "avx512f",	 CPU_ISA_AVX512F },
	{ "avx512_bf16", CPU_ISA_AVX512_BF16 },
	{ "amx_tile",	 CPU_ISA_AMX_TILE },
	{ "asimd",	 CPU_ISA_ASIMD },
	{ "sve",	 CPU_ISA_SVE },
};

const char *cpu_isa_name(uint32_t isa_bit)
{
	size_t i;

	for (i = 0; i < sizeof(isa_table) / sizeof(isa_table[0]); i++)
		if (isa_table[i].bit == isa_bit)
			return isa_table[i].flag;
	return NULL;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Whole tokens only: "avx512f" must not match "avx512fp16". */
static uint32_t parse_isa(char *flags)
{
	uint32_t isa = 0;
	char *save = NULL, *tok;
	size_t i;

	for (tok = strtok_r(flags, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		for (i = 0; i < sizeof(isa_table) / sizeof(isa_table[0]); i++)
			if (strcmp(tok, isa_table[i].flag) == 0)
				isa |= isa_table[i].bit;
	return isa;
}

/*
 * One "key<tabs>: value" line.  The first processor's block is enough:
 * mixed-model machines are rare and cpu0 is what the benchmarks start on.
 */
static void parse_cpuinfo_line(char *line, struct cpu_info *out)
{
	char *colon = strchr(line, ':');
	char *key, *value;

	if (!colon)
		return;
	*colon = '\0';
	key = trim(line);
	value = trim(colon + 1);
	if (!(out->valid & CPU_INFO_HAS_MODEL) && strcmp(key, "model name") == 0 &&
	    *value) {
		snprintf(out->model, sizeof(out->model), "%s", value);
		out->valid |= CPU_INFO_HAS_MODEL;
	} else if (!(out->valid & CPU_INFO_HAS_ISA) &&
		   (strcmp(key, "flags") == 0 || strcmp(key, "Features") == 0)) {
		out->isa = parse_isa(value);
		out->valid |= CPU_INFO_HAS_ISA;
	}
}

static void read_cpuinfo(const char *path, struct cpu_info *out)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	/* getline: the flags line runs past a thousand characters. */
	while (getline(&line, &cap, f) != -1)
		parse_cpuinfo_line(line, out);
	free(line);
	fclose(f);
}

/* arm64 kernels print no model name; the machine type beats nothing. */
static void model_from_uname(struct cpu_info *out)
{
	struct utsname u;

	if (uname(&u) != 0 || !u.machine[0])
		return;
	snprintf(out->model, sizeof(out->model), "%s", u.machine);
	out->model_is_machine = 1;
	out->valid |= CPU_INFO_HAS_MODEL;
}

int cpu_info_parse_size(const char *text, uint64_t *bytes)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!isdigit((unsigned char)*text))
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'K': mult = 1ull << 10; end++; break;
	case 'M': mult = 1ull << 20; end++; break;
	case 'G': mult = 1ull << 30; end++; break;
	default: break;
	}
	if (*trim(end) || v > UINT64_MAX / mult)
		return -1;
	*bytes = (uint64_t)v * mult;
	return 0;
}

/* First line of a small sysfs file, trimmed; -1 if unreadable or empty. */
static int read_sysfs(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	s = fgets(buf, (int)len, f);
	fclose(f);
	if (!s)
		return -1;
	s = trim(buf);
	memmove(buf, s, strlen(s) + 1);
	return buf[0] ? 0 : -1;
}

/* One index* directory: level, type and size decide which field it fills. */
static void read_cache_index(const char *dir, struct cpu_info *out)
{
	char level[16], type[32], size[32];
	uint64_t bytes;

	if (read_sysfs(dir, "level", level, sizeof(level)) ||
	    read_sysfs(dir, "type", type, sizeof(type)) ||
	    read_sysfs(dir, "size", size, sizeof(size)) ||
	    cpu_info_parse_size(size, &bytes) || bytes == 0)
		return;
	if (strcmp(type, "Instruction") == 0)
		return;
	if (strcmp(level, "1") == 0 && strcmp(type, "Data") == 0) {
		out->l1d_bytes = bytes;
		out->valid |= CPU_INFO_HAS_L1D;
	} else if (strcmp(level, "2") == 0) {
		out->l2_bytes = bytes;
		out->valid |= CPU_INFO_HAS_L2;
	} else if (strcmp(level, "3") == 0) {
		out->l3_bytes = bytes;
		out->valid |= CPU_INFO_HAS_L3;
	}
}

static void read_caches(const char *cache_dir, struct cpu_info *out)
{
	char dir[512];
	int i;

	for (i = 0; i < MAX_CACHE_INDEX; i++) {
		snprintf(dir, sizeof(dir), "%s/index%d", cache_dir, i);
		read_cache_index(dir, out);
	}
}

static void read_sysconf(struct cpu_info *out)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_size = sysconf(_SC_PAGESIZE);

	if (cpus > 0) {
		out->logical_cpus = cpus;
		out->valid |= CPU_INFO_HAS_LOGICAL_CPUS;
	}
	if (pages > 0 && page_size > 0) {
		out->memory_bytes = (uint64_t)pages * (uint64_t)page_size;
		out->valid |= CPU_INFO_HAS_MEMORY;
	}
}

int cpu_info_read_from(struct cpu_info *out, const char *cpuinfo_path,
		       const char *cache_dir)
{
	memset(out, 0, sizeof(*out));
	read_cpuinfo(cpuinfo_path, out);
	if (!(out->valid & CPU_INFO_HAS_MODEL))
		model_from_uname(out);
	read_caches(cache_dir, out);
	read_sysconf(out);
	return 0;
}

/* Distinct L3 ids over the online CPUs (index3 is the L3 on x86 and
 * most arm64 servers; a level file says so). */
static unsigned count_l3_instances(long cpus)
{
	enum { MAX_IDS = 512 };
	long ids[MAX_IDS];
	unsigned n = 0;
	for (long cpu = 0; cpu < cpus && cpu < 8192; cpu++) {
		char dir[128], level[16], id[32];
		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%ld/cache/index3", cpu);
		if (read_sysfs(dir, "level", level, sizeof(level)) || strcmp(level, "3") ||
		    read_sysfs(dir, "id", id, sizeof(id)))
			continue;
		long v = strtol(id, NULL, 10);
		unsigned k = 0;
		while (k < n && ids[k] != v)
			k++;
		if (k == n && n < MAX_IDS)
			ids[n++] = v;
	}
	return n;
}

/* Distinct (physical_package_id, core_id) pairs over the online CPUs:
 * SMT siblings share one.  0 when topology cannot be read. */
static long count_physical_cores(long cpus)
{
	enum { MAX_CORES = 8192 };
	static long pairs[MAX_CORES][2];
	long n = 0;
	for (long cpu = 0; cpu < cpus && cpu < MAX_CORES; cpu++) {
		char dir[128], pkg[32], core[32];
		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%ld/topology", cpu);
		if (read_sysfs(dir, "physical_package_id", pkg, sizeof(pkg)) ||
		    read_sysfs(dir, "core_id", core, sizeof(core)))
			continue;
		long p = strtol(pkg, NULL, 10), c = strtol(core, NULL, 10);
		long k = 0;
		while (k < n && (pairs[k][0] != p || pairs[k][1] != c))
			k++;
		if (k == n) {
			pairs[n][0] = p;
			pairs[n][1] = c;
			n++;
		}
	}
	return n;
}

int cpu_info_read(struct cpu_info *out)
{
	cpu_info_read_from(out, CPUINFO_PATH, CACHE_DIR);
	if (out->valid & CPU_INFO_HAS_LOGICAL_CPUS) {
		out->physical_cores = count_physical_cores(out->logical_cpus);
		if (out->physical_cores > 0)
			out->valid |= CPU_INFO_HAS_CORES;
	}
	if (out->valid & CPU_INFO_HAS_L3)
		out->l3_instances = count_l3_instances(out->logical_cpus);
	return 0;
}
