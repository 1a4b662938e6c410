/*
 * samples.h - the GPU samples of a measured profile: clocks, temperature,
 * power and throttle reasons, one reading a period while a bench ran, and
 * the names of NVML's throttle reasons as the profile writes them.
 *
 * It lives in src/profile, not src/bench, because the samples are part of
 * the measured profile's record: the writer and loader (profile_gpu.c) and
 * the checks that tie them to the figures read and write them, and so does
 * anything that reads a profile back.  Taking them (NVML on a thread of
 * its own) is measuring, and stays in bench/gpu_sampler.h.
 *
 * A run is "throttled" when any sample shows a reason that lowers clocks
 * below what the board can give: software power cap, hardware slowdown,
 * software or hardware thermal slowdown, or the power brake.  Idle, an
 * applications-clocks setting, sync boost and display clocks do not count.
 *
 * Ownership: struct gpu_samples owns its array; free with gpu_samples_free.
 */
#ifndef GPUPLAN_PROFILE_SAMPLES_H
#define GPUPLAN_PROFILE_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NVML's clocks-event (throttle) reason bits, as nvml.h numbers them. */
#define GPU_THROTTLE_GPU_IDLE			0x0000000000000001ULL
#define GPU_THROTTLE_APPLICATIONS_CLOCKS	0x0000000000000002ULL
#define GPU_THROTTLE_SW_POWER_CAP		0x0000000000000004ULL
#define GPU_THROTTLE_HW_SLOWDOWN		0x0000000000000008ULL
#define GPU_THROTTLE_SYNC_BOOST			0x0000000000000010ULL
#define GPU_THROTTLE_SW_THERMAL			0x0000000000000020ULL
#define GPU_THROTTLE_HW_THERMAL			0x0000000000000040ULL
#define GPU_THROTTLE_HW_POWER_BRAKE		0x0000000000000080ULL
#define GPU_THROTTLE_DISPLAY_CLOCKS		0x0000000000000100ULL

/* The reasons that make a run throttled (see above). */
#define GPU_THROTTLE_SLOWING \
	(GPU_THROTTLE_SW_POWER_CAP | GPU_THROTTLE_HW_SLOWDOWN | \
	 GPU_THROTTLE_SW_THERMAL | GPU_THROTTLE_HW_THERMAL | \
	 GPU_THROTTLE_HW_POWER_BRAKE)

/* Bits of gpu_sample.valid: a reading NVML refused is absent, never 0. */
enum gpu_sample_valid {
	GPU_SAMPLE_SM_CLOCK = 1u << 0,
	GPU_SAMPLE_MEM_CLOCK = 1u << 1,
	GPU_SAMPLE_TEMPERATURE = 1u << 2,
	GPU_SAMPLE_POWER = 1u << 3,
	GPU_SAMPLE_THROTTLE = 1u << 4,
	GPU_SAMPLE_UTILIZATION = 1u << 5,	/* util_gpu_pct and util_mem_pct */
	GPU_SAMPLE_MEMORY = 1u << 6,		/* mem_used/total_bytes */
	GPU_SAMPLE_PROCESSES = 1u << 7,
	GPU_SAMPLE_POWER_LIMIT = 1u << 8,
};

struct gpu_sample {
	double t_s;		/* seconds since the sampler started (monotonic) */
	double sm_clock_hz;	/* NVML_CLOCK_SM, MHz converted to Hz */
	double mem_clock_hz;	/* NVML_CLOCK_MEM */
	double temperature_c;	/* NVML_TEMPERATURE_GPU, degrees Celsius */
	double power_w;		/* nvmlDeviceGetPowerUsage, mW converted to W */
	uint64_t throttle;	/* GPU_THROTTLE_* bits */
	/* nvmlDeviceGetUtilizationRates: percent of the last sample period
	 * in which a kernel ran (gpu) or device memory was read or written
	 * (memory), as nvidia-smi's utilization.gpu/.memory */
	double util_gpu_pct, util_mem_pct;
	/* nvmlDeviceGetMemoryInfo: device memory in use and in all, bytes */
	double mem_used_bytes, mem_total_bytes;
	/* compute processes on the GPU (nvmlDeviceGetComputeRunningProcesses):
	 * more than one is a second job sharing it */
	unsigned processes;
	/* the power limit in force (nvidia-smi's power.limit), W: a limit
	 * lowered mid-log (nvidia-smi -pl) shows here */
	double power_limit_w;
	uint32_t valid;		/* enum gpu_sample_valid bits */
	/* what the bench was measuring then ("" before the first mark): a
	 * figure's label, whole (figure.h's BENCH_LABEL_MAX) */
	char during[96];
};

struct gpu_samples {
	struct gpu_sample *v;
	size_t n, cap;
	double interval_s;	/* the sampling period asked for */
	/* the wall clock (CLOCK_REALTIME, seconds since the Unix epoch) at
	 * t_s = 0, so samples can be given timestamps; 0 when unknown */
	double wall_start_s;
	uint64_t throttle_seen;	/* OR of every sample's reasons */
	bool throttled;		/* throttle_seen & GPU_THROTTLE_SLOWING */
};

/*
 * What the samples of one sustained figure's steady part show: those
 * labelled with the figure (during == its label) taken in the last
 * `window_s` seconds of that label (the steady phase's length, its
 * time.elapsed_s: the phase ends where the label's last sample is, to
 * within one sampling period).  The medians are of the samples that hold
 * the reading; a reading no sample held is absent (has_* false), never 0.
 */
struct gpu_window {
	size_t samples;			/* samples in the window; 0: none */
	bool has_sm_clock, has_power;
	double sm_clock_median_hz;	/* Hz */
	double power_median_w;		/* W */
	double temperature_max_c;	/* the hottest sample; valid with has_temperature */
	bool has_temperature;
	uint64_t throttle;		/* the union of the window's reasons */
};

/* The window of `label` over the last window_s seconds (above) into out
 * (zeroed first: no sample, samples 0). */
void gpu_samples_window(const struct gpu_samples *s, const char *label,
			double window_s, struct gpu_window *out);

/* Whether two windows say the same (every field, exactly). */
bool gpu_window_equal(const struct gpu_window *a, const struct gpu_window *b);

/* The median of v[0..n) (reordered; the mean of the middle two when n is
 * even); 0 when n is 0. */
double gpu_median(double *v, size_t n);

void gpu_samples_init(struct gpu_samples *s);
void gpu_samples_free(struct gpu_samples *s);
/* Appends one sample and updates throttle_seen and throttled. */
void gpu_samples_push(struct gpu_samples *s, const struct gpu_sample *x);

/* Names of the bits set in reasons, comma-separated, in bit order:
 * "sw_power_cap,hw_thermal"; "" when none.  Names: gpu_idle,
 * applications_clocks, sw_power_cap, hw_slowdown, sync_boost, sw_thermal,
 * hw_thermal, hw_power_brake, display_clocks; unknown bits as 0x....  */
void gpu_throttle_names(uint64_t reasons, char *buf, size_t len);

/* The bit of one name, or 0 when unknown (for the profile loader). */
uint64_t gpu_throttle_bit(const char *name);

#endif
