/*
 * goodput.c - the wall clock of a training run: failures, restarts and
 * checkpoints (goodput.h), with the sourced defaults of each input.
 */
#include "train/goodput.h"

#include <math.h>

#define HOUR 3600.0
#define DAY 86400.0

/*
 * Failures per GPU per s.  The Llama 3 report (Llama Team, "The Llama 3
 * Herd of Models", arXiv 2407.21783, section 3.3.4): "During a 54-day
 * snapshot period of pre-training, we experienced a total of 466 job
 * interruptions. Of these, 47 were planned [...] The remaining 419 were
 * unexpected interruptions".  The report trains on "up to 16K H100 GPUs"
 * (3.3.1) and its largest configuration is 16,384 (Table 4): the snapshot
 * is taken to run on all of them.  419 / (54 d x 16,384) = 1.97e-5 per
 * GPU-hour.  The planned 47 are left out: maintenance waits for a
 * checkpoint and loses no work.
 */
#define LLAMA3_RATE (419 / (54 * DAY * 16384))
/*
 * The high end: OPT-175B (Zhang et al., "OPT: Open Pre-trained Transformer
 * Language Models", arXiv 2205.01068): 992 80GB A100s (section 2.4);
 * "hardware failures contributed to at least 35 manual restarts [...] over
 * the course of 2 months [...] we estimate 70+ automatic restarts due to
 * hardware failures" (section 2.5).  105 restarts over 60 days on 992 GPUs
 * = 7.35e-5 per GPU-hour, a floor ("at least", "70+").
 */
#define OPT_RATE (105 / (60 * DAY * 992))

/*
 * The checkpoint's pause.  PyTorch blog, "Reducing Model Checkpointing
 * Times by Over 10x with PyTorch Distributed Asynchronous Checkpointing"
 * (Pasqualin, Wright, Zhang, Huang of Meta with IBM Research): "7B model
 * 'down time' for a checkpoint goes from an average of 148.8 seconds to
 * 6.3 seconds"
 * (synchronous to asynchronous distributed checkpointing); and, of the
 * older single-writer save, "torch.save could take up to 30 minutes".
 * The default is the synchronous save: Megatron-LM's `async_save` is off
 * unless asked for (megatron/training/config/training_config.py:516 at
 * commit d98e8a64ddf3).
 */
#define SYNC_CHECKPOINT 148.8
#define ASYNC_CHECKPOINT 6.3
#define TORCH_SAVE_CHECKPOINT (30 * 60.0)

/*
 * The restart, lost work apart.  MegaScale (Jiang et al., arXiv
 * 2402.15627, section 6.3): "The average time required for detecting
 * failure and executing diagnostic tests is less than 10 minutes", and
 * training is back where it crashed "within 15 minutes from the latest
 * checkpoints" (lost work included): 10 minutes is taken for detection,
 * diagnosis and reload.  Its section 3.5: stock Megatron-LM takes "approximately
 * 1047 seconds" to initialise its communication groups on 2,048 GPUs,
 * which MegaScale's changes bring under 30 s; the high end adds it.
 */
#define MEGASCALE_RESTART 600.0
#define MEGATRON_INIT_2048 1047.0

static const struct goodput_value defaults[GOODPUT_INPUTS] = {
	[GOODPUT_FAILURE_RATE] = {
		LLAMA3_RATE, LLAMA3_RATE / 2, OPT_RATE,
		"Llama 3 (arXiv 2407.21783, section 3.3.4): 419 unexpected interruptions in a 54-day snapshot of pre-training on 16,384 H100s (Table 4's largest configuration): 1.97e-5 per GPU-hour",
		"low: assumption, half the Llama 3 rate (a fleet screened for failing parts); high: OPT-175B (arXiv 2205.01068, sections 2.4-2.5): at least 35 manual and 70+ automatic restarts in 2 months (taken as 60 days) on 992 A100s, 7.35e-5 per GPU-hour",
		false},
	[GOODPUT_CHECKPOINT_WRITE] = {
		SYNC_CHECKPOINT, ASYNC_CHECKPOINT, TORCH_SAVE_CHECKPOINT,
		"PyTorch blog, Reducing Model Checkpointing Times by Over 10x with PyTorch Distributed Asynchronous Checkpointing: a 7B model's checkpoint stops training 148.8 s on average with synchronous distributed checkpointing, Megatron-LM's default (async_save false)",
		"the same blog: low 6.3 s with asynchronous checkpointing; high 30 min, what torch.save could take",
		false},
	[GOODPUT_RESTART] = {
		MEGASCALE_RESTART, MEGASCALE_RESTART / 2,
		MEGASCALE_RESTART + MEGATRON_INIT_2048,
		"MegaScale (arXiv 2402.15627, section 6.3): detecting a failure and running the diagnostic tests takes under 10 minutes on average, taken at that bound with the reload inside it",
		"low: assumption, half of it (a restart automated further); high: MegaScale section 3.5, plus the 1047 s stock Megatron-LM takes to initialise on 2,048 GPUs",
		false},
};

static const char interval_from[] =
	"the Young/Daly optimum sqrt(2 x checkpoint_write x cluster MTBF) (Young 1974, CACM 17(9); Daly 2006, Future Generation Computer Systems 22(3)), recomputed at each end of the range";

static const char lost_work_from[] =
	"half a checkpoint interval: failures arriving as a Poisson process fall anywhere in an interval alike (the first-order model of Young 1974 and Daly 2006)";

const char *goodput_input_key(enum goodput_input i)
{
	static const char *const keys[GOODPUT_INPUTS] = {
		[GOODPUT_FAILURE_RATE] = "failure_rate_per_gpu_hour",
		[GOODPUT_CHECKPOINT_WRITE] = "checkpoint_write_s",
		[GOODPUT_RESTART] = "restart_s",
	};
	return keys[i];
}

double goodput_json_scale(enum goodput_input i)
{
	return i == GOODPUT_FAILURE_RATE ? HOUR : 1;
}

const char *goodput_lost_work_from(void)
{
	return lost_work_from;
}

void goodput_defaults(struct goodput_model *m)
{
	m->off = false;
	for (int i = 0; i < GOODPUT_INPUTS; i++)
		m->in[i] = defaults[i];
	m->interval = 0;
	m->interval_from = interval_from;
}

/* A value the workload gives stands alone: the team knows its cluster. */
static void given(struct goodput_value *v, double value)
{
	if (!(value > 0))
		return;
	*v = (struct goodput_value){value, value, value, "the workload's goodput:",
				    "the workload's own value: no range", true};
}

void goodput_model_for(const struct goodput_inputs *w, struct goodput_model *m)
{
	goodput_defaults(m);
	m->off = w->off;
	given(&m->in[GOODPUT_FAILURE_RATE], w->failure_rate);
	given(&m->in[GOODPUT_CHECKPOINT_WRITE], w->checkpoint_write);
	given(&m->in[GOODPUT_RESTART], w->restart);
	if (w->checkpoint_interval > 0) {
		m->interval = w->checkpoint_interval;
		m->interval_from = "the workload's goodput: checkpoint_interval";
	}
}

struct goodput_point goodput_at(double rate, double write, double restart,
				double interval, long gpus, double productive)
{
	struct goodput_point p = {0};
	p.mtbf = 1 / (rate * (double)gpus);
	double tau = interval > 0 ? interval : sqrt(2 * write * p.mtbf);
	/* a run shorter than its interval writes no checkpoint on the way,
	 * and a failure loses half of what it has run */
	bool writes = tau < productive;
	p.interval = writes ? tau : productive;
	p.waste_checkpoints = writes ? write / tau : 0;
	p.waste_failures = (p.interval / 2 + restart) / p.mtbf;
	double waste = p.waste_checkpoints + p.waste_failures;
	p.feasible = waste < 1;
	p.fraction = p.feasible ? 1 - waste : 0;
	return p;
}

/* Every input at its low (end 0), value (1) or high (2). */
static struct goodput_point at_end(const struct goodput_model *m, int end,
				   long gpus, double productive)
{
	double v[GOODPUT_INPUTS];
	for (int i = 0; i < GOODPUT_INPUTS; i++)
		v[i] = end == 0 ? m->in[i].low : end == 1 ? m->in[i].value
							   : m->in[i].high;
	return goodput_at(v[GOODPUT_FAILURE_RATE], v[GOODPUT_CHECKPOINT_WRITE],
			  v[GOODPUT_RESTART], m->interval, gpus, productive);
}

void goodput_of(const struct goodput_model *m, long gpus, double productive,
		struct goodput *g)
{
	if (m->off) {
		*g = (struct goodput){{true, 1, 0, 0, 0, 0}, 1, 1};
		return;
	}
	g->mid = at_end(m, 1, gpus, productive);
	/* every input's low end is its optimistic one: fewer failures,
	 * shorter pauses */
	g->high = at_end(m, 0, gpus, productive).fraction;
	g->low = at_end(m, 2, gpus, productive).fraction;
}
