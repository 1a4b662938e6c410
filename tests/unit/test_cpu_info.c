/*
 * test_cpu_info.c - the host CPU description: the live system (only what
 * holds on every Linux machine) and fixture files for the parsing.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cpu_info.h"
#include "check.h"

static void test_live(void)
{
	struct cpu_info ci;

	CHECK(cpu_info_read(&ci) == 0);
	CHECK(ci.valid & CPU_INFO_HAS_LOGICAL_CPUS);
	CHECK(ci.logical_cpus >= 1);
	CHECK(ci.valid & CPU_INFO_HAS_MEMORY);
	CHECK(ci.memory_bytes > 0);
	CHECK(ci.valid & CPU_INFO_HAS_MODEL);
	CHECK(ci.model[0] != '\0');
	printf("host: %s%s, %ld cpus, %.1f GiB, l1d %llu, l2 %llu, l3 %llu, isa 0x%x%s\n",
	       ci.model, ci.model_is_machine ? " (machine)" : "",
	       ci.logical_cpus, ci.memory_bytes / 1073741824.0,
	       (unsigned long long)ci.l1d_bytes, (unsigned long long)ci.l2_bytes,
	       (unsigned long long)ci.l3_bytes, (unsigned)ci.isa,
	       (ci.valid & CPU_INFO_HAS_ISA) ? "" : " (unknown)");
}

static const struct {
	const char *text;
	int rc;
	unsigned long long bytes;
} size_cases[] = {
	{ "48K", 0, 48ull << 10 },
	{ "32768K", 0, 32ull << 20 },
	{ "1M", 0, 1ull << 20 },
	{ "2G", 0, 2ull << 30 },
	{ "512", 0, 512 },
	{ "64K\n", 0, 64ull << 10 },
	{ "", -1, 0 },
	{ "K", -1, 0 },
	{ "12Q", -1, 0 },
	{ "-1K", -1, 0 },
	{ "99999999999999999999K", -1, 0 },
};

static void test_parse_size(void)
{
	size_t i;

	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		uint64_t got = 0;
		int rc = cpu_info_parse_size(size_cases[i].text, &got);

		CHECK(rc == size_cases[i].rc);
		if (rc == 0)
			CHECK(got == size_cases[i].bytes);
	}
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void remove_file(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* One sysfs cache description: dir/indexN/{level,type,size}. */
static void make_cache(const char *dir, int index, const char *level,
		       const char *type, const char *size)
{
	char sub[512];

	snprintf(sub, sizeof(sub), "%s/index%d", dir, index);
	mkdir(sub, 0700);
	write_file(sub, "level", level);
	write_file(sub, "type", type);
	write_file(sub, "size", size);
}

static void remove_cache(const char *dir, int index)
{
	char sub[512];

	snprintf(sub, sizeof(sub), "%s/index%d", dir, index);
	remove_file(sub, "level");
	remove_file(sub, "type");
	remove_file(sub, "size");
	rmdir(sub);
}

/*
 * x86: the first processor block wins, and avx512fp16 must not be read as
 * avx512f.  Instruction caches are skipped.
 */
static void test_fixture_x86(const char *dir)
{
	char cpuinfo[512];
	struct cpu_info ci;

	write_file(dir, "cpuinfo",
		   "processor\t: 0\n"
		   "vendor_id\t: GenuineIntel\n"
		   "model name\t: Example CPU @ 2.00GHz  \n"
		   "flags\t\t: fpu sse2 avx avx2 fma avx512fp16 amx_tile\n"
		   "\n"
		   "processor\t: 1\n"
		   "model name\t: Other CPU\n"
		   "flags\t\t: avx512f\n");
	make_cache(dir, 0, "1\n", "Data\n", "48K\n");
	make_cache(dir, 1, "1\n", "Instruction\n", "32K\n");
	make_cache(dir, 2, "2\n", "Unified\n", "2048K\n");
	make_cache(dir, 3, "3\n", "Unified\n", "105M\n");
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", dir);

	CHECK(cpu_info_read_from(&ci, cpuinfo, dir) == 0);
	CHECK_STR(ci.model, "Example CPU @ 2.00GHz");
	CHECK(!ci.model_is_machine);
	CHECK(ci.valid & CPU_INFO_HAS_ISA);
	CHECK(ci.isa == (CPU_ISA_AVX2 | CPU_ISA_FMA | CPU_ISA_AMX_TILE));
	CHECK((ci.valid & (CPU_INFO_HAS_L1D | CPU_INFO_HAS_L2 | CPU_INFO_HAS_L3)) ==
	      (CPU_INFO_HAS_L1D | CPU_INFO_HAS_L2 | CPU_INFO_HAS_L3));
	CHECK(ci.l1d_bytes == 48u << 10);
	CHECK(ci.l2_bytes == 2u << 20);
	CHECK(ci.l3_bytes == 105u << 20);
	CHECK_STR(cpu_isa_name(CPU_ISA_AMX_TILE), "amx_tile");
	CHECK(cpu_isa_name(1u << 31) == NULL);
	remove_cache(dir, 3);
	remove_cache(dir, 2);
	remove_cache(dir, 1);
	remove_cache(dir, 0);
}

/* arm64: no model name, a Features line, no cache descriptions at all. */
static void test_fixture_arm(const char *dir)
{
	char cpuinfo[512];
	struct cpu_info ci;

	write_file(dir, "cpuinfo",
		   "processor\t: 0\n"
		   "BogoMIPS\t: 2000.00\n"
		   "Features\t: fp asimd evtstrm sve sve2\n"
		   "CPU implementer\t: 0x41\n");
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", dir);

	CHECK(cpu_info_read_from(&ci, cpuinfo, dir) == 0);
	CHECK(ci.valid & CPU_INFO_HAS_MODEL);
	CHECK(ci.model_is_machine);
	CHECK(ci.model[0] != '\0');
	CHECK(ci.isa == (CPU_ISA_ASIMD | CPU_ISA_SVE));
	CHECK(!(ci.valid & (CPU_INFO_HAS_L1D | CPU_INFO_HAS_L2 | CPU_INFO_HAS_L3)));
	CHECK(ci.l1d_bytes == 0 && ci.l3_bytes == 0);
	remove_file(dir, "cpuinfo");
}

/* No cpuinfo at all: ISA is unknown, not "none". */
static void test_fixture_missing(const char *dir)
{
	char cpuinfo[512];
	struct cpu_info ci;

	snprintf(cpuinfo, sizeof(cpuinfo), "%s/absent", dir);
	CHECK(cpu_info_read_from(&ci, cpuinfo, dir) == 0);
	CHECK(!(ci.valid & CPU_INFO_HAS_ISA));
	CHECK(ci.model_is_machine);
	CHECK(ci.valid & CPU_INFO_HAS_LOGICAL_CPUS);
}

int main(void)
{
	char tmpl[] = "/tmp/gpuplan-cpuinfo-XXXXXX";
	char *dir;

	test_live();
	test_parse_size();
	dir = mkdtemp(tmpl);
	CHECK(dir != NULL);
	if (dir) {
		test_fixture_x86(dir);
		test_fixture_arm(dir);
		test_fixture_missing(dir);
		rmdir(dir);
	}
	return check_summary("cpu_info");
}
