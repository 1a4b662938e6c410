/*
 * sim_plugin.c - a simulated libgpuplan-cuda.so: the whole ABI 2 table
 * (cuda/plugin_abi.h) in plain C, without CUDA, so the host side of the
 * CUDA bench can be tested on machines without a GPU.  It is a test double:
 * every answer is deterministic and the devices call themselves
 * "gpuplan simulated GPU" so nobody mistakes them for hardware.
 *
 * Switches, read by init (a flag is on when set, non-empty and not "0"):
 *   GPUPLAN_SIM_DEVICES=N     devices, 0 to 16 (default 2)
 *   GPUPLAN_SIM_CC=M.m        compute capability (default 9.0); fp8 needs 8.9+
 *   GPUPLAN_SIM_NAME=TEXT     the device's name (default "gpuplan simulated
 *                             GPU"): a catalog part's, for bench's baseline
 *                             verdicts
 *   GPUPLAN_SIM_MEMORY=B      bytes of memory per device (default 1 GiB)
 *   GPUPLAN_SIM_NO_NCCL       ALLREDUCE is BENCH_UNSUPPORTED, as without NCCL
 *   GPUPLAN_SIM_NO_PEER       no peer access: P2P is staged through the host
 *   GPUPLAN_SIM_JITTER        job_run times are multiplied in turn by 1,
 *                             1.01, 0.99, 1.005, 0.995 (one cycle over all jobs)
 *   GPUPLAN_SIM_SLOW=F        job_run times are multiplied by F (> 0), as on
 *                             a part held at a low clock
 *   GPUPLAN_SIM_BAD_CHECK=K   job_check fails for jobs of kind K (enum
 *                             gpuplan_cuda_job_kind), as on a wrong result
 *   GPUPLAN_SIM_OVERLAP=F     a GEMM beside a collective takes 1 + F times
 *                             as long as alone (default 0.08)
 *   GPUPLAN_SIM_STRAGGLER=D:F every job on device D takes F times as long
 *                             (F > 0), as a part that holds a lower clock
 * Faults in measurement, each deterministic.  Jobs are numbered from 1 in
 * the order job_prepare is called (whatever it answers):
 *   GPUPLAN_SIM_FAIL_JOB=N    every job_run of job N fails with BENCH_ERROR
 *                             ("unspecified launch failure"), a fault that
 *                             does not stick: later jobs and the self-test
 *                             work
 *   GPUPLAN_SIM_LOSE_AFTER=N  the devices are lost after N jobs: the first
 *                             job_run of a job numbered above N fails with
 *                             "an illegal memory access was encountered",
 *                             and from then on every prepare, run, check
 *                             and self-test on every device fails the same
 *                             way (a sticky CUDA error, a driver gone)
 *   GPUPLAN_SIM_LOSE_DEVICE=D with LOSE_AFTER, only device D is lost (by
 *                             the first job after N that runs on it); the
 *                             others keep working
 *   GPUPLAN_SIM_OOM_RUN=B     job_run answers BENCH_OUT_OF_MEMORY for a job
 *                             holding B bytes or more on a device (memory a
 *                             run needs beyond what prepare took: out of
 *                             memory at run, not at prepare; prepare's is
 *                             GPUPLAN_SIM_MEMORY)
 *   GPUPLAN_SIM_TIMER=PATTERN the time each job_run reports, in turn over
 *                             all runs, one letter per run, cycling: g the
 *                             simulated time, b backwards (its negative: the
 *                             end event before the start), z zero, n NaN,
 *                             i infinity; "g" by default, at most 64 letters
 *
 * Device N is "GPU-00000000-0000-4000-8000-00000000000N", an H100-like part
 * with every validity bit set.
 *
 * Memory: nothing of the device's is allocated.  The sim counts the bytes
 * each live job holds on each device, as the real plugin would allocate
 * them: GEMM A + B + C (int8 writes int32, fp8 bf16), COPY and D2D 2 arrays,
 * TRIAD 3, H2D and D2H the device side, P2P `bytes` on each GPU (twice when
 * bidirectional), ALLREDUCE `bytes` on each GPU, PROGRAM its buffers.  A
 * prepare that would take a device past GPUPLAN_SIM_MEMORY returns
 * BENCH_OUT_OF_MEMORY and holds nothing.  Programs run in fp32, tf32, fp16
 * or bf16 (program_abi.h), others are BENCH_UNSUPPORTED.
 *
 * Time, a roofline of one device with these constants:
 *   peak FLOP/s   fp64 60e12, fp32 60e12, tf32 400e12, fp16 and bf16
 *                 800e12, int8 1600e12, fp8 1600e12
 *   memory        3.0e12 B/s (reads plus writes)
 *   PCIe          50e9 B/s from pinned, 20e9 B/s from pageable host memory
 *   peer          300e9 B/s per direction; without peer access a P2P copy
 *                 goes through pinned host memory at 50e9 B/s
 *   launch        3e-6 s per empty kernel
 *   overhead      5e-6 s per job_run call (events, synchronisation)
 * job_run: seconds = overhead + iterations * t, where t per iteration is
 *   GEMM, and every PROGRAM kernel (summed):  max(flops / peak, bytes / memory)
 *     GEMM flops 2*m*n*k (times count in a program), bytes A + B + C;
 *     beside a collective (GPUPLAN_JOB_BESIDE_COMM) times 1 + the overlap
 *     switch, holding the GEMM and `bytes` (a copy: twice) on each GPU of
 *     the collective; layouts other than TN refused for int8 and fp8;
 *     STREAM bytes (2 or 3) * elements, ROWNORM 3 * rows * cols, flops as
 *     program_abi.h counts them; element sizes those of the precision
 *   COPY, D2D  2 * bytes / memory      TRIAD  3 * bytes / memory
 *   H2D, D2H   bytes / PCIe (pinned or pageable by GPUPLAN_JOB_PINNED)
 *   P2P        bytes / peer (both directions run at once when bidirectional)
 *   ALLREDUCE  2 * (n - 1) / n * bytes / peer (ring)
 *   LAUNCH     launch
 * The self-test runs a real triad on the host and reports 24 * elements /
 * memory seconds.  Global state is the plugin's own, as plugins may.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cuda/plugin_abi.h"

#define EXPORT __attribute__((visibility("default")))

#define SIM_MAX_DEVICES 16
#define SIM_MEM_BW 3.0e12	/* B/s */
#define SIM_PCIE_PINNED 50e9	/* B/s */
#define SIM_PCIE_PAGEABLE 20e9	/* B/s */
#define SIM_PEER_BW 300e9	/* B/s per direction */
#define SIM_LAUNCH_S 3e-6	/* s */
#define SIM_OVERHEAD_S 5e-6	/* s per job_run */

static const struct {
	double peak;		/* FLOP/s */
	double in, out;		/* bytes per input and output element */
} precisions[] = {
	[BENCH_FP64] = { 60e12, 8, 8 },
	[BENCH_FP32] = { 60e12, 4, 4 },
	[BENCH_TF32] = { 400e12, 4, 4 },
	[BENCH_FP16] = { 800e12, 2, 2 },
	[BENCH_BF16] = { 800e12, 2, 2 },
	[BENCH_INT8] = { 1600e12, 1, 4 },	/* int32 output */
	[BENCH_FP8_E4M3] = { 1600e12, 1, 2 },	/* bf16 output */
};
#define N_PRECISIONS (sizeof(precisions) / sizeof(precisions[0]))

#define SIM_TIMER_MAX 64
#define SIM_LOST "an illegal memory access was encountered (simulated: the device is lost)"

static struct {
	int ready, devices, cc_major, cc_minor;
	uint64_t memory;			/* bytes per device */
	int no_nccl, no_peer, jitter;
	double slow;				/* GPUPLAN_SIM_SLOW, 1 by default */
	double overlap;				/* GPUPLAN_SIM_OVERLAP, 0.08 by default */
	int straggler;				/* GPUPLAN_SIM_STRAGGLER's device; -1: none */
	double straggler_slow;			/* and its factor */
	uint32_t bad_check;			/* job kind, 0 for none */
	uint64_t fail_job, lose_after;		/* job numbers; 0: never */
	int lose;				/* GPUPLAN_SIM_LOSE_AFTER was given */
	uint32_t lose_mask;			/* the devices it loses */
	uint64_t oom_run;			/* bytes; 0: never */
	char timer[SIM_TIMER_MAX + 1];		/* the pattern; "" is all good */
	uint64_t held[SIM_MAX_DEVICES];		/* bytes held by live jobs */
	uint64_t runs;				/* job_run calls, for the jitter */
	uint64_t timed;				/* job_run calls, for the timer */
	uint64_t jobs;				/* job_prepare calls */
	uint32_t lost;				/* devices the sticky error hit */
} sim;

struct sim_job {
	uint32_t kind;
	uint64_t id;				/* 1, 2, ... in prepare order */
	uint32_t devices;			/* the devices it runs on */
	int ran;
	double iteration_s;			/* roofline time of one iteration, s */
	int device;				/* the (first) device */
	/* Bytes per device, in double so that an absurd size is only a large
	 * number; exact once reserved, being at most GPUPLAN_SIM_MEMORY <= 2^53. */
	double need[SIM_MAX_DEVICES];
};

/* Writes the reason into err and returns rc. */
__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static int env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* An unsigned number from the environment, def when unset or empty. */
static int env_u64(const char *name, uint64_t def, uint64_t *out)
{
	const char *v = getenv(name);
	char *end;

	*out = def;
	if (!v || !*v)
		return 0;
	*out = strtoull(v, &end, 10);
	return *end || *v == '-' ? -1 : 0;
}

/* The fault switches (see the top of the file). */
static int fault_switches(char *err, size_t errlen)
{
	const char *timer = getenv("GPUPLAN_SIM_TIMER");
	uint64_t lose;

	if (env_u64("GPUPLAN_SIM_FAIL_JOB", 0, &sim.fail_job))
		return fail(err, errlen, -1, "GPUPLAN_SIM_FAIL_JOB must be a job number");
	sim.lose = getenv("GPUPLAN_SIM_LOSE_AFTER") && *getenv("GPUPLAN_SIM_LOSE_AFTER");
	if (env_u64("GPUPLAN_SIM_LOSE_AFTER", 0, &sim.lose_after))
		return fail(err, errlen, -1, "GPUPLAN_SIM_LOSE_AFTER must be a count of jobs");
	if (env_u64("GPUPLAN_SIM_LOSE_DEVICE", SIM_MAX_DEVICES, &lose) ||
	    lose > SIM_MAX_DEVICES)
		return fail(err, errlen, -1, "GPUPLAN_SIM_LOSE_DEVICE must be a device number");
	sim.lose_mask = lose == SIM_MAX_DEVICES ? ~0u : 1u << lose;
	if (env_u64("GPUPLAN_SIM_OOM_RUN", 0, &sim.oom_run))
		return fail(err, errlen, -1, "GPUPLAN_SIM_OOM_RUN must be a number of bytes");
	if (timer && (strlen(timer) > SIM_TIMER_MAX || strspn(timer, "gbzni") != strlen(timer)))
		return fail(err, errlen, -1,
			    "GPUPLAN_SIM_TIMER must be up to %d of the letters g, b, z, n, i",
			    SIM_TIMER_MAX);
	snprintf(sim.timer, sizeof(sim.timer), "%s", timer ? timer : "");
	return 0;
}

/* GPUPLAN_SIM_OVERLAP and GPUPLAN_SIM_STRAGGLER (see the top of the file). */
static int training_switches(char *err, size_t errlen)
{
	const char *o = getenv("GPUPLAN_SIM_OVERLAP");
	const char *st = getenv("GPUPLAN_SIM_STRAGGLER");
	char *end = NULL;

	sim.overlap = o && *o ? strtod(o, &end) : 0.08;
	if (o && *o && (*end || !(sim.overlap >= 0 && sim.overlap < 100)))
		return fail(err, errlen, -1, "GPUPLAN_SIM_OVERLAP must be a fraction of 0 or more");
	sim.straggler = -1;
	sim.straggler_slow = 1;
	if (st && *st && (sscanf(st, "%d:%lf", &sim.straggler, &sim.straggler_slow) != 2 ||
			  sim.straggler < 0 || !(sim.straggler_slow > 0)))
		return fail(err, errlen, -1, "GPUPLAN_SIM_STRAGGLER must look like 1:1.1 (device:factor)");
	return 0;
}

static int sim_init(char *err, size_t errlen)
{
	const char *cc = getenv("GPUPLAN_SIM_CC");
	uint64_t n, bad;

	memset(&sim, 0, sizeof(sim));
	if (env_u64("GPUPLAN_SIM_DEVICES", 2, &n) || n > SIM_MAX_DEVICES)
		return fail(err, errlen, -1, "GPUPLAN_SIM_DEVICES must be 0 to %d",
			    SIM_MAX_DEVICES);
	if (env_u64("GPUPLAN_SIM_MEMORY", 1ull << 30, &sim.memory) || !sim.memory ||
	    sim.memory > (1ull << 53))
		return fail(err, errlen, -1, "GPUPLAN_SIM_MEMORY must be 1 to 2^53 bytes");
	if (env_u64("GPUPLAN_SIM_BAD_CHECK", 0, &bad))
		return fail(err, errlen, -1, "GPUPLAN_SIM_BAD_CHECK must be a job kind number");
	sim.cc_major = 9;
	if (cc && *cc && (sscanf(cc, "%d.%d", &sim.cc_major, &sim.cc_minor) != 2 ||
			  sim.cc_major < 1 || sim.cc_minor < 0))
		return fail(err, errlen, -1, "GPUPLAN_SIM_CC must look like 8.0, not '%s'", cc);
	sim.devices = (int)n;
	sim.bad_check = (uint32_t)bad;
	sim.no_nccl = env_flag("GPUPLAN_SIM_NO_NCCL");
	sim.no_peer = env_flag("GPUPLAN_SIM_NO_PEER");
	sim.jitter = env_flag("GPUPLAN_SIM_JITTER");
	const char *slow = getenv("GPUPLAN_SIM_SLOW");
	sim.slow = slow && *slow ? strtod(slow, NULL) : 1;
	if (!(sim.slow > 0 && sim.slow < 1e6))
		return fail(err, errlen, -1, "GPUPLAN_SIM_SLOW must be a factor above 0");
	if (fault_switches(err, errlen) || training_switches(err, errlen))
		return -1;
	sim.ready = 1;
	return 0;
}

static int sim_device_count(void)
{
	return sim.ready ? sim.devices : 0;
}

static int bad_device(int dev, char *err, size_t errlen)
{
	if (!sim.ready)
		return fail(err, errlen, -1, "simulated cuda plugin used before init");
	if (dev < 0 || dev >= sim.devices)
		return fail(err, errlen, -1, "cuda device %d out of range (%d found)",
			    dev, sim.devices);
	return 0;
}

/* An H100-like part; only name, cc and memory come from the switches. */
static int sim_device_info(int dev, struct gpuplan_cuda_device_info *out,
			   char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (bad_device(dev, err, errlen))
		return -1;
	const char *name = getenv("GPUPLAN_SIM_NAME");
	snprintf(out->name, sizeof(out->name), "%s",
		 name && *name ? name : "gpuplan simulated GPU");
	snprintf(out->uuid, sizeof(out->uuid),
		 "GPU-00000000-0000-4000-8000-%012x", (unsigned)dev);
	snprintf(out->pci_bus_id, sizeof(out->pci_bus_id), "0000:%02x:00.0",
		 0x10 + dev);
	out->cc_major = sim.cc_major;
	out->cc_minor = sim.cc_minor;
	out->sm_count = 132;
	out->total_mem_bytes = sim.memory;
	out->mem_bus_width_bits = 5120;
	out->sm_clock_max_hz = 1980000000u;
	out->mem_clock_hz = 2619000000u;
	out->mem_bandwidth_bytes_per_s =
		2.0 * (double)out->mem_clock_hz * out->mem_bus_width_bits / 8.0;
	out->driver_version = 13000;
	out->runtime_version = 13000;
	out->valid = 0xffu;	/* every GPUPLAN_CUDA_HAS_* bit */
	return 0;
}

/* A real triad over host memory, so a wrong result would still show; the
 * time is the roofline's, 24 B per element at memory speed. */
static int sim_self_test(int dev, size_t elements,
			 struct gpuplan_cuda_self_test *out, char *err,
			 size_t errlen)
{
	double *a, *b, *c;
	size_t i, bad = elements;

	memset(out, 0, sizeof(*out));
	if (bad_device(dev, err, errlen))
		return -1;
	if (sim.lost & (1u << dev))
		return fail(err, errlen, -1, "%s", SIM_LOST);
	if (elements == 0 || elements > sim.memory / 24)
		return fail(err, errlen, -1, "self-test of %zu elements does not fit cuda:%d",
			    elements, dev);
	a = malloc(3 * elements * sizeof(double));
	if (!a)
		return fail(err, errlen, -1, "out of host memory for the self-test");
	b = a + elements;
	c = b + elements;
	for (i = 0; i < elements; i++) {
		b[i] = (double)(i % 1024);
		c[i] = 0.5;
		a[i] = b[i] + 2.0 * c[i];
	}
	for (i = 0; i < elements; i++) {
		double e = fabs(a[i] - ((double)(i % 1024) + 1.0));

		if (e > out->max_abs_error)
			out->max_abs_error = e;
		if (e > 0.0 && bad == elements)
			bad = i;
	}
	out->elements = elements;
	out->bytes_moved = 24 * (uint64_t)elements;
	out->kernel_seconds = (double)out->bytes_moved / SIM_MEM_BW;
	out->bytes_per_s = SIM_MEM_BW;
	out->passed = bad == elements;
	free(a);
	return out->passed ? 0 : fail(err, errlen, -1, "self-test wrong at element %zu", bad);
}

static void sim_shutdown(void)
{
	memset(&sim, 0, sizeof(sim));
}

static double roofline(double flops, double peak, double bytes)
{
	double compute = flops / peak, memory = bytes / SIM_MEM_BW;

	return compute > memory ? compute : memory;
}

/* Buffer x holds product count - 1 at stride, of size elements. */
static int fits(const struct bench_program *p, int32_t x, int64_t count,
		int64_t stride, double size)
{
	return stride >= 0 &&
	       (double)(count - 1) * stride + size <= (double)p->buffer_elements[x];
}

static int bad_kernel(const struct bench_program *p, const struct bench_kernel *kn)
{
	int32_t nb = (int32_t)p->n_buffers;
	double rc = (double)kn->rows * kn->cols;

	if (kn->a < 0 || kn->a >= nb || kn->c < 0 || kn->c >= nb ||
	    kn->b < -1 || kn->b >= nb || kn->c == kn->a || kn->c == kn->b)
		return 1;
	switch (kn->kind) {
	case BENCH_KERNEL_GEMM:
		return kn->b < 0 || kn->m <= 0 || kn->n <= 0 || kn->k <= 0 || kn->count <= 0 ||
		       !fits(p, kn->a, kn->count, kn->a_stride, (double)kn->m * kn->k) ||
		       !fits(p, kn->b, kn->count, kn->b_stride, (double)kn->k * kn->n) ||
		       !fits(p, kn->c, kn->count, kn->c_stride, (double)kn->m * kn->n);
	case BENCH_KERNEL_STREAM:
		return kn->elements <= 0 || !fits(p, kn->c, 1, 0, (double)kn->elements);
	case BENCH_KERNEL_ROWNORM:
		return kn->rows <= 0 || kn->cols <= 0 || !fits(p, kn->a, 1, 0, rc) ||
		       !fits(p, kn->c, 1, 0, rc);
	}
	return 1;
}

/* The roofline time of one kernel, e bytes per element. */
static double kernel_seconds(const struct bench_kernel *kn, double peak, double e)
{
	double mn = (double)kn->m * kn->n, rc = (double)kn->rows * kn->cols;

	if (kn->kind == BENCH_KERNEL_GEMM)
		return roofline(2.0 * mn * kn->k * kn->count, peak,
				((double)kn->m * kn->k + (double)kn->k * kn->n + mn) *
					kn->count * e);
	if (kn->kind == BENCH_KERNEL_STREAM)
		return roofline(kn->flops * kn->elements, peak,
				(kn->b >= 0 ? 3.0 : 2.0) * kn->elements * e);
	return roofline(kn->flops * rc, peak, 3.0 * rc * e);
}

/* A program's memory (on j's device d) and time, after checking it all. */
static int plan_program(const struct bench_program *p, struct sim_job *j, int d,
			char *err, size_t errlen)
{
	uint64_t i;
	double e;

	if (!p || !p->n_buffers || !p->buffer_elements || !p->n_kernels || !p->kernels)
		return fail(err, errlen, BENCH_ERROR, "program job without buffers or kernels");
	if (p->precision != BENCH_FP32 && p->precision != BENCH_TF32 &&
	    p->precision != BENCH_FP16 && p->precision != BENCH_BF16)
		return fail(err, errlen, BENCH_UNSUPPORTED,
			    "programs run in fp32, tf32, fp16 or bf16, not precision %u",
			    (unsigned)p->precision);
	e = precisions[p->precision].in;
	for (i = 0; i < p->n_buffers; i++) {
		if (!p->buffer_elements[i])
			return fail(err, errlen, BENCH_ERROR, "program buffer %llu is empty",
				    (unsigned long long)i);
		j->need[d] += (double)p->buffer_elements[i] * e;
	}
	for (i = 0; i < p->n_kernels; i++) {
		if (bad_kernel(p, &p->kernels[i]))
			return fail(err, errlen, BENCH_ERROR,
				    "program kernel %llu (%.64s) is malformed",
				    (unsigned long long)i, p->kernels[i].label);
		j->iteration_s += kernel_seconds(&p->kernels[i],
						 precisions[p->precision].peak, e);
	}
	return BENCH_OK;
}

/* A GEMM beside a collective: its memory on every GPU of the collective
 * (the GEMM runs on each, holding `bytes` beside it, twice for a copy's
 * two ends), and its time stretched by the overlap switch. */
static int plan_beside(const struct gpuplan_cuda_job *job, struct sim_job *j,
		       double gemm_bytes, char *err, size_t errlen)
{
	int32_t n = job->n_devices, i;
	double comm = (double)job->bytes * (n >= 2 ? 1.0 : 2.0);

	if (n < 1 || n > sim.devices || (n >= 2 && job->device >= n) || !job->bytes)
		return fail(err, errlen, BENCH_ERROR,
			    "a gemm beside a collective of %d devices from cuda:%d (of %d), %llu bytes",
			    n, job->device, sim.devices, (unsigned long long)job->bytes);
	if (n >= 2 && sim.no_nccl)
		return fail(err, errlen, BENCH_UNSUPPORTED, "libnccl.so.2 not found");
	if (n == 1)
		j->need[job->device] = gemm_bytes + comm;
	for (i = 0; n >= 2 && i < n; i++)
		j->need[i] = gemm_bytes + comm;
	j->iteration_s *= 1.0 + sim.overlap;
	return BENCH_OK;
}

static int plan_gemm(const struct gpuplan_cuda_job *job, struct sim_job *j,
		     char *err, size_t errlen)
{
	double m = (double)job->m, n = (double)job->n, k = (double)job->k;
	double bytes = (m * k + k * n) * precisions[job->precision].in +
		       m * n * precisions[job->precision].out;
	uint32_t layout = job->flags & (GPUPLAN_JOB_A_PLAIN | GPUPLAN_JOB_B_TRANSPOSED);

	if (layout && (job->precision == BENCH_INT8 || job->precision == BENCH_FP8_E4M3))
		return fail(err, errlen, BENCH_UNSUPPORTED,
			    "int8 and fp8 gemms take the TN layout only");
	j->need[job->device] = bytes;
	j->iteration_s = roofline(2.0 * m * n * k, precisions[job->precision].peak,
				  bytes);
	if (job->flags & GPUPLAN_JOB_BESIDE_COMM)
		return plan_beside(job, j, bytes, err, errlen);
	return BENCH_OK;
}

static int plan_p2p(const struct gpuplan_cuda_job *job, struct sim_job *j,
		    struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	double b = (double)job->bytes;

	if (job->peer == job->device || job->peer < 0 || job->peer >= sim.devices)
		return fail(err, errlen, BENCH_ERROR,
			    "p2p peer %d must be another of the %d devices", job->peer,
			    sim.devices);
	/* Each side holds the source of one direction, the target of the other. */
	j->need[job->device] = j->need[job->peer] =
		(job->flags & GPUPLAN_JOB_BIDIRECTIONAL) ? 2.0 * b : b;
	j->iteration_s = b / (sim.no_peer ? SIM_PCIE_PINNED : SIM_PEER_BW);
	if (sim.no_peer)
		snprintf(info->note, sizeof(info->note),
			 "peer access unsupported: staged through the host");
	return BENCH_OK;
}

static int plan_allreduce(const struct gpuplan_cuda_job *job, struct sim_job *j,
			  char *err, size_t errlen)
{
	int32_t i, d = job->device, n = job->n_devices;

	if (n < 2 || n > sim.devices - d)
		return fail(err, errlen, BENCH_ERROR,
			    "all-reduce over %d devices from cuda:%d does not fit %d devices",
			    n, d, sim.devices);
	if (sim.no_nccl)
		return fail(err, errlen, BENCH_UNSUPPORTED, "libnccl.so.2 not found");
	for (i = d; i < d + n; i++)
		j->need[i] = (double)job->bytes;	/* in place */
	j->iteration_s = 2.0 * (n - 1) / n * (double)job->bytes / SIM_PEER_BW;
	return BENCH_OK;
}

/* Validates the job, and sets what it needs and takes per iteration. */
static int plan_job(const struct gpuplan_cuda_job *job, struct sim_job *j,
		    struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	uint32_t k = job->kind;
	double b = (double)job->bytes;
	int32_t d = job->device;

	if (bad_device(d, err, errlen))
		return BENCH_ERROR;
	if ((k == GPUPLAN_JOB_GEMM || k == GPUPLAN_JOB_ALLREDUCE) &&
	    (job->precision == 0 || job->precision >= N_PRECISIONS))
		return fail(err, errlen, BENCH_ERROR, "unknown precision %u",
			    (unsigned)job->precision);
	if (k >= GPUPLAN_JOB_COPY && k <= GPUPLAN_JOB_ALLREDUCE && job->bytes == 0)
		return fail(err, errlen, BENCH_ERROR, "job kind %u needs bytes > 0", (unsigned)k);
	switch (k) {
	case GPUPLAN_JOB_GEMM:
		if (job->m <= 0 || job->n <= 0 || job->k <= 0)
			return fail(err, errlen, BENCH_ERROR, "gemm needs m, n and k > 0");
		if (job->precision == BENCH_FP8_E4M3 && sim.cc_major * 10 + sim.cc_minor < 89)
			return fail(err, errlen, BENCH_UNSUPPORTED,
				    "fp8 gemm needs compute capability 8.9 or newer, cuda:%d is %d.%d",
				    d, sim.cc_major, sim.cc_minor);
		return plan_gemm(job, j, err, errlen);
	case GPUPLAN_JOB_COPY: case GPUPLAN_JOB_D2D: case GPUPLAN_JOB_TRIAD:
		j->need[d] = (k == GPUPLAN_JOB_TRIAD ? 3.0 : 2.0) * b;	/* arrays */
		j->iteration_s = j->need[d] / SIM_MEM_BW;
		return BENCH_OK;
	case GPUPLAN_JOB_H2D: case GPUPLAN_JOB_D2H:
		j->need[d] = b;
		j->iteration_s = b / ((job->flags & GPUPLAN_JOB_PINNED) ?
				      SIM_PCIE_PINNED : SIM_PCIE_PAGEABLE);
		return BENCH_OK;
	case GPUPLAN_JOB_P2P:
		return plan_p2p(job, j, info, err, errlen);
	case GPUPLAN_JOB_ALLREDUCE:
		return plan_allreduce(job, j, err, errlen);
	case GPUPLAN_JOB_LAUNCH:
		j->iteration_s = SIM_LAUNCH_S;
		return BENCH_OK;
	case GPUPLAN_JOB_PROGRAM:
		return plan_program(job->program, j, d, err, errlen);
	}
	return fail(err, errlen, BENCH_ERROR, "unknown job kind %u", (unsigned)k);
}

/* BENCH_OUT_OF_MEMORY unless every device has room for what j needs. */
static int reserve(struct sim_job *j, struct gpuplan_cuda_job_info *info,
		   char *err, size_t errlen)
{
	int d;

	for (d = 0; d < sim.devices; d++)
		if (j->need[d] > (double)(sim.memory - sim.held[d]))
			return fail(err, errlen, BENCH_OUT_OF_MEMORY,
				    "out of memory on cuda:%d: job needs %.0f bytes, %llu of %llu free",
				    d, j->need[d],
				    (unsigned long long)(sim.memory - sim.held[d]),
				    (unsigned long long)sim.memory);
	for (d = 0; d < sim.devices; d++) {
		sim.held[d] += (uint64_t)j->need[d];
		info->device_bytes += (uint64_t)j->need[d];
	}
	return BENCH_OK;
}

/* The devices a job runs on, as a mask (those in range). */
static uint32_t job_devices(const struct gpuplan_cuda_job *job)
{
	uint32_t m = 0;
	int32_t i, n = job->kind == GPUPLAN_JOB_ALLREDUCE ? job->n_devices : 1;

	for (i = 0; i < n; i++)
		if (job->device + i >= 0 && job->device + i < SIM_MAX_DEVICES)
			m |= 1u << (job->device + i);
	if (job->kind == GPUPLAN_JOB_P2P && job->peer >= 0 && job->peer < SIM_MAX_DEVICES)
		m |= 1u << job->peer;
	return m;
}

static int sim_job_prepare(const struct gpuplan_cuda_job *job, void **handle,
			   struct gpuplan_cuda_job_info *info, char *err,
			   size_t errlen)
{
	struct sim_job *j;
	int rc;

	*handle = NULL;
	memset(info, 0, sizeof(*info));
	if (!job)
		return fail(err, errlen, BENCH_ERROR, "no job to prepare");
	sim.jobs++;
	if (sim.lost & job_devices(job))
		return fail(err, errlen, BENCH_ERROR, "%s", SIM_LOST);
	j = calloc(1, sizeof(*j));
	if (!j)
		return fail(err, errlen, BENCH_OUT_OF_MEMORY, "out of host memory");
	j->kind = job->kind;
	j->id = sim.jobs;
	j->device = job->device;
	j->devices = job_devices(job);
	rc = plan_job(job, j, info, err, errlen);
	if (rc == BENCH_OK)
		rc = reserve(j, info, err, errlen);
	if (rc != BENCH_OK) {
		memset(info, 0, sizeof(*info));
		free(j);
		return rc;
	}
	*handle = j;
	return BENCH_OK;
}

/* +-1% in a fixed cycle of five, so repeated runs differ but reproducibly. */
static double jitter(void)
{
	static const double pattern[] = { 0.0, 0.01, -0.01, 0.005, -0.005 };

	return sim.slow * (sim.jitter ? 1.0 + pattern[sim.runs++ % 5] : 1.0);
}

/* The time the timer reports for a run that took t: the pattern's turn. */
static double timer(double t)
{
	size_t n = strlen(sim.timer);

	switch (n ? sim.timer[sim.timed++ % n] : 'g') {
	case 'b': return -t;
	case 'z': return 0.0;
	case 'n': return NAN;
	case 'i': return INFINITY;
	}
	return t;
}

/* The largest number of bytes j holds on one device. */
static double most_held(const struct sim_job *j)
{
	double most = 0;
	int d;

	for (d = 0; d < SIM_MAX_DEVICES; d++)
		if (j->need[d] > most)
			most = j->need[d];
	return most;
}

/* BENCH_OK, or the fault a switch asks for on this run of j. */
static int run_fault(const struct sim_job *j, char *err, size_t errlen)
{
	if (sim.lose && j->id > sim.lose_after && (j->devices & sim.lose_mask))
		sim.lost |= sim.lose_mask;
	if (sim.lost & j->devices)
		return fail(err, errlen, BENCH_ERROR, "%s", SIM_LOST);
	if (sim.fail_job && j->id == sim.fail_job)
		return fail(err, errlen, BENCH_ERROR,
			    "unspecified launch failure (simulated, job %llu)",
			    (unsigned long long)j->id);
	if (sim.oom_run && most_held(j) >= (double)sim.oom_run)
		return fail(err, errlen, BENCH_OUT_OF_MEMORY,
			    "out of memory for the run's workspace (simulated: the job holds %.0f bytes, GPUPLAN_SIM_OOM_RUN is %llu)",
			    most_held(j), (unsigned long long)sim.oom_run);
	return BENCH_OK;
}

static int sim_job_run(void *handle, int64_t iterations, double *seconds,
		       char *err, size_t errlen)
{
	struct sim_job *j = handle;
	int rc;

	*seconds = 0.0;
	if (!j || iterations < 1)
		return fail(err, errlen, BENCH_ERROR, "job_run needs a job and iterations >= 1");
	if ((rc = run_fault(j, err, errlen)) != BENCH_OK)
		return rc;
	*seconds = timer((SIM_OVERHEAD_S + (double)iterations * j->iteration_s) * jitter() *
			 (j->device == sim.straggler ? sim.straggler_slow : 1.0));
	j->ran = 1;
	return BENCH_OK;
}

static int sim_job_check(void *handle, char *err, size_t errlen)
{
	struct sim_job *j = handle;

	if (!j || !j->ran)
		return fail(err, errlen, BENCH_ERROR, "job_check before the job has run");
	if (sim.lost & j->devices)
		return fail(err, errlen, BENCH_ERROR, "%s", SIM_LOST);
	if (sim.bad_check && j->kind == sim.bad_check)
		return fail(err, errlen, BENCH_ERROR, "simulated wrong result at element 7");
	return BENCH_OK;
}

static void sim_job_release(void *handle)
{
	struct sim_job *j = handle;
	int d;

	if (!j)
		return;
	for (d = 0; d < sim.devices; d++)
		sim.held[d] -= (uint64_t)j->need[d];
	free(j);
}

static int sim_can_access_peer(int device, int peer, char *err, size_t errlen)
{
	if (bad_device(device, err, errlen) || bad_device(peer, err, errlen))
		return -1;
	return device != peer && !sim.no_peer;
}

static const struct gpuplan_cuda_plugin table = {
	.abi_version = GPUPLAN_CUDA_ABI_VERSION,
	.struct_size = sizeof(struct gpuplan_cuda_plugin),
	.build_info = "gpuplan simulated cuda plugin (no CUDA; tests/sim/sim_plugin.c)",
	.init = sim_init,
	.device_count = sim_device_count,
	.device_info = sim_device_info,
	.self_test = sim_self_test,
	.shutdown = sim_shutdown,
	.job_prepare = sim_job_prepare,
	.job_run = sim_job_run,
	.job_check = sim_job_check,
	.job_release = sim_job_release,
	.can_access_peer = sim_can_access_peer,
};

EXPORT const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void)
{
	return &table;
}
