/*
 * fuzz_smi_log.c - an nvidia-smi --query-gpu log (src/diagnose/smi_log.h)
 * read as `gpuplan diagnose LOG` reads it, then diagnosed.
 *
 * Besides the loaders' invariants (fuzz.h): every GPU read has samples
 * whose times are finite, from 0 and never going back; every reading
 * marked valid is finite and not negative, utilisation within 0..100 %;
 * and the detectors, run on whatever was read, give finite figures and
 * findings whose spans lie inside the log.
 */
#include <math.h>

#include "diagnose/findings.h"
#include "diagnose/smi_log.h"
#include "fuzz.h"

static struct smi_log loaded;

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	smi_log_free(&loaded);
	return smi_log_read(&loaded, f->path[0], NULL, 0, errs);
}

static void check_sample(const struct gpu_sample *x, const struct gpu_sample *prev)
{
	if (!isfinite(x->t_s) || x->t_s < 0 || (prev && x->t_s < prev->t_s))
		fuzz_fail("smi_log_read", "sample time %g after %g", x->t_s,
			  prev ? prev->t_s : 0.0);
	if ((x->valid & GPU_SAMPLE_UTILIZATION) &&
	    !(x->util_gpu_pct >= 0 && x->util_gpu_pct <= 100))
		fuzz_fail("smi_log_read", "utilization %g %%", x->util_gpu_pct);
	double v[] = {x->sm_clock_hz, x->temperature_c, x->power_w,
		      x->mem_used_bytes, x->mem_total_bytes};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]) || v[i] < 0)
			fuzz_fail("smi_log_read", "reading %zu is %g", i, v[i]);
}

static void check_diagnosis(const struct smi_gpu *g)
{
	struct diagnose_context ctx = {.power_limit_w = g->power_limit_w,
				       .sm_clock_max_hz = g->sm_clock_max_hz,
				       .reasons_read = g->reasons_read};
	struct gpu_diagnosis d;
	diagnose_gpu(&g->s, &ctx, &d);
	if (!isfinite(d.duration_s) || !isfinite(d.lost_s) || d.lost_s < 0 ||
	    d.lost_s > d.duration_s + 1e-9)
		fuzz_fail("diagnose_gpu", "duration %g s, lost %g s", d.duration_s, d.lost_s);
	double end = g->s.n ? g->s.v[g->s.n - 1].t_s + d.duration_s : 0;
	for (size_t i = 0; i < d.n; i++) {
		const struct finding *f = &d.f[i];
		if (!(f->start_s >= 0 && f->end_s >= f->start_s && f->end_s <= end) ||
		    !isfinite(f->lost_s) || f->lost_s < 0)
			fuzz_fail("diagnose_gpu", "%s spans %g..%g s of %g, lost %g s",
				  finding_kind_name(f->kind), f->start_s, f->end_s,
				  end, f->lost_s);
	}
	gpu_diagnosis_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "log.csv", &f);
	fuzz_check_loader("smi_log_read", load, &f);
	for (size_t i = 0; i < loaded.n; i++) {
		const struct smi_gpu *g = &loaded.gpu[i];
		if (g->s.n == 0)
			fuzz_fail("smi_log_read", "GPU %s read with no samples", g->key);
		for (size_t k = 0; k < g->s.n; k++)
			check_sample(&g->s.v[k], k ? &g->s.v[k - 1] : NULL);
		check_diagnosis(g);
	}
	smi_log_free(&loaded);
	return 0;
}
