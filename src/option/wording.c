/*
 * wording.c - one way to write an option's GPUs, GPU-hours, bytes and a
 * ratio of times.
 */
#include <stdio.h>

#include "option/wording.h"

void plan_gpus_text(const struct plan_option *o, char *buf, size_t len)
{
	if (o->slices > 0 && o->sharing[0])
		snprintf(buf, len, "%ld x %s as %ld x %s", o->gpus,
			 o->inst->acc->name, o->slices, o->sharing);
	else
		snprintf(buf, len, "%ld x %s", o->gpus, o->inst->acc->name);
}

const char *plan_gpu_hours_text(double h, char *buf, size_t len)
{
	snprintf(buf, len, h >= 1e15 ? "%.3g" : h >= 100 ? "%.0f" : "%.3g", h);
	return buf;
}

const char *plan_gb_text(double bytes, char *buf, size_t len)
{
	if (bytes >= 1e12)
		snprintf(buf, len, "%.3g TB", bytes / 1e12);
	else
		snprintf(buf, len, "%.3g GB", bytes / 1e9);
	return buf;
}

const char *plan_slower_text(double slow, double fast, char *buf, size_t len)
{
	double ratio = fast > 0 ? slow / fast : 1;
	if (ratio >= 2)
		snprintf(buf, len, "%.3gx the time", ratio);
	else if (ratio >= 1)
		snprintf(buf, len, "%.0f%% slower", 100 * (ratio - 1));
	else if (ratio > 0.5)
		snprintf(buf, len, "%.0f%% faster", 100 * (1 - ratio));
	else	/* "96% faster" would hide that it is 22 times as fast */
		snprintf(buf, len, "%.3gx as fast", 1 / ratio);
	return buf;
}
