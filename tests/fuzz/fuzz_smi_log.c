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

static void check_sample(const struct sample_series *s, size_t k)
{
	double t = s->t_s[k];
	if (!isfinite(t) || t < 0 || (k && t < s->t_s[k - 1]))
		fuzz_fail("smi_log_read", "sample time %g after %g", t,
			  k ? s->t_s[k - 1] : 0.0);
	if (series_has(s, SC_UTIL, k) &&
	    !(series_get(s, SC_UTIL, k) >= 0 && series_get(s, SC_UTIL, k) <= 100))
		fuzz_fail("smi_log_read", "utilization %g %%", series_get(s, SC_UTIL, k));
	for (int c = 0; c < SC_COLUMNS; c++) {
		if (!series_has(s, (enum series_column)c, k))
			continue;
		double v = series_get(s, (enum series_column)c, k);
		if (!isfinite(v) || v < 0)
			fuzz_fail("smi_log_read", "reading %d is %g", c, v);
	}
}

static void check_diagnosis(const struct smi_gpu *g)
{
	struct diagnose_context ctx = {.power_limit_w = g->power_limit_w,
				       .sm_clock_max_hz = g->sm_clock_max_hz,
				       .reasons_read = g->reasons_read};
	struct gpu_diagnosis d;
	diagnose_series(&g->s, &ctx, &d);
	if (!isfinite(d.duration_s) || !isfinite(d.lost_s) || d.lost_s < 0 ||
	    d.lost_s > d.duration_s + 1e-9)
		fuzz_fail("diagnose_gpu", "duration %g s, lost %g s", d.duration_s, d.lost_s);
	double end = g->s.n ? g->s.t_s[g->s.n - 1] + d.duration_s : 0;
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
			check_sample(&g->s, k);
		check_diagnosis(g);
	}
	smi_log_free(&loaded);
	return 0;
}
