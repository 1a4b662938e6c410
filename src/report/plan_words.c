/*
 * plan_words.c - a loaded plan's figures in words; see plan_words.h.
 */
#include "plan_words.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "workload/workload.h"

void r_gpus_text(const struct r_option *o, char *buf, size_t len)
{
	if (o->slices > 0 && o->mig_profile)
		snprintf(buf, len, "%ld x %s as %ld x %s", o->gpus, o->accelerator,
			 o->slices, o->mig_profile);
	else
		snprintf(buf, len, "%ld x %s", o->gpus, o->accelerator);
}

/* "1 x p5.48xlarge (8 x H100-SXM)" */
static void shortfall_rig(const struct r_option *o, char *buf, size_t len)
{
	char g[600];
	r_gpus_text(o, g, sizeof(g));
	snprintf(buf, len, "%ld x %s (%s)", o->nodes, o->instance, g);
}

/* The serving target's name as the report words it ("TTFT p99"). */
static const char *target_label(const char *json)
{
	for (int t = 0; json && t < TARGET_COUNT; t++)
		if (!strcmp(target_name((enum latency_target)t)->json, json))
			return target_name((enum latency_target)t)->label;
	return "p99";
}

/* Some option's first reason is a cluster that makes no progress
 * between failures (goodput). */
static bool no_progress(const struct r_workload *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].reason.code && !strcmp(w->v[i].reason.code, "goodput"))
			return true;
	return false;
}

void r_shortfall_sentence(const struct r_plan *p, const struct r_workload *w,
			  enum report_lang lang, char *buf, size_t len)
{
	bool zh = lang == LANG_ZH;
	if ((!w->has_shortfall || w->closest < 0) && no_progress(w)) {
		snprintf(buf, len, "%s", zh
			 ? "没有方案满足约束条件；没有实例能运行它：集群故障过于频繁，来不及保存检查点和重启：请减少 GPU 数量，或加快检查点与重启。"
			 : "No option meets the constraints, and no instance can run it: the cluster fails more often than it can checkpoint and restart; use fewer GPUs, or checkpoint and restart faster.");
		return;
	}
	if (!w->has_shortfall || w->closest < 0) {
		snprintf(buf, len, "%s", zh
			 ? "没有方案满足约束条件；没有实例能运行它：请换用每块 GPU 显存更大的实例，或更小的模型或批量。"
			 : "No option meets the constraints, and no instance can run it: use an instance with more memory per GPU, or a smaller model or batch.");
		return;
	}
	const struct r_option *o = &w->v[w->closest];
	char rig[800], t[48], c[64], x[64];
	shortfall_rig(o, rig, sizeof(rig));
	double cost = w->spot_acceptable && o->has_spot ? o->cost_spot : o->cost;
	int k;
	if (w->training)
		k = snprintf(buf, len, zh ? "没有方案满足约束条件；最接近的是 %s，用时 %s，费用 %s："
					  : "No option meets the constraints; the closest, %s, takes %s for %s:",
			     rig, tr_duration(lang, o->time_s, t, sizeof(t)),
			     tr_money(cost, p->currency, c, sizeof(c)));
	else
		k = snprintf(buf, len, zh ? "没有方案满足延迟目标；最接近的是 %s，p99 延迟 %s"
					  : "No option meets the latency targets; the closest, %s, reaches p99 %s",
			     rig, tr_duration(lang, o->p99_s, t, sizeof(t)));
	const char *sep = zh ? "" : " ";
	if (w->deadline_over_s > 0 && k > 0 && (size_t)k < len) {
		k += snprintf(buf + k, len - (size_t)k, zh ? "%s期限放宽 %s" : "%sallow %s more",
			      sep, tr_duration(lang, w->deadline_over_s, t, sizeof(t)));
		sep = zh ? "，或" : ", or ";
	}
	if (w->budget_over > 0 && k > 0 && (size_t)k < len) {
		k += snprintf(buf + k, len - (size_t)k, zh ? "%s预算增加 %s" : "%sraise the budget by %s",
			      sep, tr_money(w->budget_over, p->currency, x, sizeof(x)));
		sep = zh ? "，或" : ", or ";
	}
	if (w->meets_deadline >= 0 && w->meets_deadline != w->closest &&
	    w->meets_deadline_over > 0 && k > 0 && (size_t)k < len) {
		shortfall_rig(&w->v[w->meets_deadline], rig, sizeof(rig));
		k += snprintf(buf + k, len - (size_t)k,
			      zh ? "%s预算增加 %s 改用能按期完成的 %s" : "%sraise the budget by %s for %s, which meets the deadline",
			      sep, tr_money(w->meets_deadline_over, p->currency, x, sizeof(x)), rig);
	}
	if (!w->training && w->target && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k,
			      zh ? "：%s 目标需放宽 %s" : ": allow %s more on the %s target",
			      zh ? target_label(w->target) : tr_duration(lang, w->target_over_s, t, sizeof(t)),
			      zh ? tr_duration(lang, w->target_over_s, t, sizeof(t)) : target_label(w->target));
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "%s", zh ? "。" : ".");
	tr_trim_utf8(buf);
}

void r_hours_text(double h, char *buf, size_t len)
{
	tr_money(h, "", buf, len);
	size_t n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

bool r_goodput_sentence(const struct r_option *o, enum report_lang lang,
			char *buf, size_t len)
{
	if (!(o->gpu_hours_compute > 0) || !(o->goodput[0] > 0) ||
	    o->goodput[0] >= 0.9995)
		return false;
	char a[64], b[64], g[3][16];
	r_hours_text(o->gpu_hours, a, sizeof(a));
	r_hours_text(o->gpu_hours_compute, b, sizeof(b));
	for (int k = 0; k < 3; k++)
		snprintf(g[k], sizeof(g[k]), "%.1f%%", 100 * o->goodput[k]);
	snprintf(buf, len, tr(lang, MSG_GOODPUT_LINE), a, b, g[0], g[1], g[2]);
	return true;
}
