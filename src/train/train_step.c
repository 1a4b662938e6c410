#include "train/train_step.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

static double max2(double a, double b)
{
	return a > b ? a : b;
}

static double coll(const struct step_job *j, enum coll_op op, double bytes,
		   struct coll_group g)
{
	struct coll_cost c;
	if (bytes <= 0 || g.ranks <= 1)
		return 0;
	collective_time(j->fabric, op, bytes, &g, &c);
	return c.time;
}

/*
 * Megatron-LM's rank order puts a tensor-parallel group's ranks next to
 * each other, then data-parallel, then pipeline (tp innermost), so tensor
 * parallelism stays inside a node and a data-parallel group has
 * min(dp, GPUs per node / tp) members in each node.  All GPUs of a node
 * run their data-parallel collective at the same time and share its NICs.
 */
static struct coll_group tp_group(const struct step_job *j, const struct layout *l)
{
	long gpn = j->in->gpus;
	long per_node = l->tp < gpn ? l->tp : gpn;
	return (struct coll_group){l->tp, per_node, gpn / per_node};
}

static struct coll_group dp_group(const struct step_job *j, const struct layout *l)
{
	long gpn = j->in->gpus;
	long per_node = l->dp;
	if (j->nodes > 1)
		per_node = l->tp >= gpn ? 1 : (l->dp < gpn / l->tp ? l->dp : gpn / l->tp);
	return (struct coll_group){l->dp, per_node, gpn / per_node > 1 ? gpn / per_node : 1};
}

/* Adjacent pipeline stages are tp x dp ranks apart: in the same node only
 * when that is less than a node. */
static struct coll_group pp_pair(const struct step_job *j, const struct layout *l)
{
	long gpn = j->in->gpus;
	bool same = j->nodes == 1 || l->tp * l->dp < gpn;
	return (struct coll_group){2, same ? 2 : 1, same ? (gpn > 2 ? gpn / 2 : 1) : gpn};
}

/* Bytes of one micro-batch's activations at a layer boundary on one rank:
 * s b h elements; with tensor parallelism each rank sends its 1/t (Megatron
 * 2021's scatter/gather; sequence parallelism holds 1/t already). */
static double boundary_bytes(const struct step_job *j, const struct layout *l)
{
	const struct model *m = j->w->model;
	if (m->kind != MODEL_TRANSFORMER)
		return 0;
	return (double)j->w->train.seq * l->micro * m->tf.hidden *
	       precision_training_activation_bytes(j->w->precision);
}

/*
 * Tensor parallelism (Shoeybi et al. 2019): each layer all-reduces its
 * activations twice in forward and twice in backward, and twice more when
 * the forward is recomputed.  Sequence parallelism (Korthikanti et al.
 * 2022) replaces each all-reduce by a reduce-scatter and an all-gather of
 * the same bytes, which take the same time.  On the critical path.
 */
static double tp_time(const struct step_job *j, const struct layout *l)
{
	if (l->tp <= 1 || j->w->model->kind != MODEL_TRANSFORMER)
		return 0;
	double bytes = boundary_bytes(j, l);
	struct coll_group g = tp_group(j, l);
	double once = l->sp ? coll(j, COLL_REDUCE_SCATTER, bytes, g) +
				      coll(j, COLL_ALL_GATHER, bytes, g)
			    : coll(j, COLL_ALL_REDUCE, bytes, g);
	double per_layer = l->recompute == RECOMPUTE_FULL ? 6 : 4;
	double layers = (double)j->w->model->tf.layers / l->pp;
	return layers * per_layer * once;
}

/* Activations forward and their gradients back, once per chunk (v per
 * micro-batch with interleaving), between adjacent stages. */
static double pp_time(const struct step_job *j, const struct layout *l)
{
	if (l->pp <= 1)
		return 0;
	double bytes = boundary_bytes(j, l) / l->tp;
	return 2.0 * l->v * coll(j, COLL_SEND_RECV, bytes, pp_pair(j, l));
}

/* One stage's share of the forward: its layers, and on the end stages the
 * embedding or the output head (the slower end stage paces the pipeline). */
static double stage_share(const struct step_job *j, long pp)
{
	if (pp <= 1)
		return 1;
	return (1 - j->edge_share) / pp + j->edge_share;
}

/*
 * Forward, a backward of twice the forward (Kaplan et al. 2020), and what
 * is computed again: the whole forward under full recomputation; the
 * attention core under selective recomputation, and whenever attention is
 * fused, as FlashAttention's backward recomputes the scores it never
 * stored (Dao et al. 2022).
 */
static double stage_compute(const struct step_job *j, const struct layout *l,
			    const struct roofline *fwd, double f)
{
	double c = 3 * f;
	if (l->recompute == RECOMPUTE_FULL)
		c += f;
	if (l->recompute == RECOMPUTE_SELECTIVE || j->w->train.fused_attention)
		c += fwd->class_time[OPC_ATTENTION] / l->pp;
	return c;
}

/*
 * Work the op graph leaves out, per micro-batch on the stage that paces
 * the pipeline, all of it memory-bound or launch-bound:
 *   The loss over the vocabulary, on the last stage of a decoder: PyTorch's
 *     cross-entropy casts the 16-bit logits to fp32 (2 B read, 4 B
 *     written per logit), takes the log-softmax (4 + 4) and in the
 *     backward writes softmax minus one-hot and casts it back (4 + 4,
 *     4 + 2): 28 bytes per logit, s x b x V / t logits.  Our count of
 *     those kernels' traffic; fused losses (Liger, Cut Cross-Entropy)
 *     move less.
 *   Rotary embeddings, on models with them: the query and key rotated in
 *     place in the forward and their gradients in the backward, a read
 *     and a write of 2-byte elements each time: 8 s b (h + h_kv) / t
 *     bytes per layer.
 *   Launch gaps: each kernel of the forward, twice that in the backward
 *     (a data- and a weight-gradient kernel per product), leaves the GPU
 *     idle eff->stream_gap (efficiency.c: NVIDIA's CUDA Graphs note).
 */
static double micro_non_gemm(const struct step_job *j, const struct layout *l)
{
	const struct model *m = j->w->model;
	double bw = j->in->acc->memory_bandwidth * j->eff->memory;
	double gaps = 3 * j->kernels / l->pp * j->eff->stream_gap;
	if (m->kind != MODEL_TRANSFORMER || bw <= 0)
		return gaps;
	const struct transformer_config *tf = &m->tf;
	double tokens = (double)j->w->train.seq * l->micro;
	double bytes = 0;
	if (tf->arch == TF_DECODER)	/* encoders: masked tokens only */
		bytes += 28.0 * tokens * (double)tf->vocab / l->tp;
	if (tf->positions == POS_ROPE) {
		double kv = tf->kv_heads > 0 ? (double)tf->hidden * tf->kv_heads / tf->heads
					     : (double)tf->hidden;
		bytes += 8.0 * tokens * (tf->hidden + kv) / l->tp *
			 ((double)tf->layers / l->pp);
	}
	return gaps + bytes / bw;
}

/* Model state one GPU updates and reduces: its tp x pp share. */
static double local_params(const struct step_job *j, const struct layout *l)
{
	return j->params / ((double)l->tp * l->pp);
}

static const struct framework *framework_of(const struct step_job *j)
{
	return framework_or_generic(j->w->train.framework);
}

struct grad_rules train_grad_rules(const struct workload *w, int zero)
{
	return framework_rules(w->train.framework, w->precision, zero);
}

/* Layers one GPU's share of the model holds (1 for non-transformers). */
static double stage_layers(const struct step_job *j, const struct layout *l)
{
	const struct model *m = j->w->model;
	return m->kind == MODEL_TRANSFORMER ? (double)m->tf.layers / l->pp : 1;
}

/*
 * The gradients of one GPU reduced the way its framework buckets them:
 * buckets of max(bucket_min, bucket_per_rank x dp) parameters (Megatron-
 * Core, DeepSpeed), or one per wrapped transformer block (FSDP); one
 * bucket for everything when reduction is not overlapped (Megatron-Core
 * then sets no bucket size).  Each bucket is its own collective and pays
 * its own latency.  *last: the final bucket's time, which no backward
 * hides.
 */
static double bucketed(const struct step_job *j, const struct layout *l,
		       enum coll_op op, double params, double bytes_per,
		       double *last)
{
	const struct framework *f = framework_of(j);
	double bucket = f->bucket_min > 0
		? max2(f->bucket_min, f->bucket_per_rank * (double)l->dp)
		: params / stage_layers(j, l);
	if (!l->overlap || bucket >= params) {
		*last = coll(j, op, params * bytes_per, dp_group(j, l));
		return *last;
	}
	double n = ceil(params / bucket);
	double rest = params - (n - 1) * bucket;
	*last = coll(j, op, rest * bytes_per, dp_group(j, l));
	return (n - 1) * coll(j, op, bucket * bytes_per, dp_group(j, l)) + *last;
}

/*
 * Communication that overlaps compute still costs the compute: NCCL's
 * kernels take SMs and memory bandwidth from the kernels beside them, so
 * the overlapped span runs slower by eff->overlap_slowdown.
 */
static double overlap_cost(const struct step_job *j, double hidden)
{
	return hidden > 0 ? hidden * j->eff->overlap_slowdown : 0;
}

/*
 * ZeRO-3 (Rajbhandari et al. 2020): every micro-batch gathers the
 * parameters for the forward and again for the backward and reduce-
 * scatters the gradients, 1.5x ZeRO-0's traffic, one message per wrapped
 * unit or weight matrix (the framework's zero3_gathers_per_layer), each
 * paying its latency.  Prefetching hides the traffic behind that micro-
 * batch's compute; the first gather and the last reduce-scatter are
 * exposed.
 */
static void zero3_time(const struct step_job *j, const struct layout *l,
		       double weights, double grads, struct step *st)
{
	struct coll_group g = dp_group(j, l);
	const struct framework *f = framework_of(j);
	double msgs = stage_layers(j, l) * (f->zero3_gathers_per_layer > 0
					    ? f->zero3_gathers_per_layer : 1);
	double gather = coll(j, COLL_ALL_GATHER, weights / msgs, g);
	double scatter = coll(j, COLL_REDUCE_SCATTER, grads / msgs, g);
	double per_micro = msgs * (2 * gather + scatter);
	st->dp_comm = per_micro * l->accumulation;
	if (!l->overlap) {
		st->dp_exposed = st->dp_comm;
		return;
	}
	double exposed = max2(per_micro - st->stage_compute, gather + scatter);
	st->overlap_extra = overlap_cost(j, per_micro - exposed) * l->accumulation;
	st->dp_exposed = exposed * l->accumulation + st->overlap_extra;
}

/*
 * Data parallelism and ZeRO, per step: the traffic, and what is left
 * exposed once overlap has hidden what it can.
 *   ZeRO-0: all-reduce of the gradients, bucketed during the backward pass
 *           of the last micro-batch (the others accumulate locally).
 *   ZeRO-1/2: reduce-scatter of the gradients the same way, then after the
 *           optimizer an all-gather of the updated parameters, which can
 *           hide behind the next step's first forward (Megatron-LM's
 *           overlapped parameter gather).
 *   ZeRO-3: zero3_time().
 * Gradients travel in the framework's precision (Megatron-LM reduces bf16
 * gradients in fp32).  Without overlap everything is exposed.
 */
static void dp_time(const struct step_job *j, const struct layout *l,
		    struct step *st)
{
	if (l->dp <= 1)
		return;
	struct coll_group g = dp_group(j, l);
	const struct framework *f = framework_of(j);
	double params = local_params(j, l);
	double wire = framework_grad_bytes(f, j->w->precision, l->zero, true);
	struct state_bytes per = memory_state_bytes(j->w->precision,
						    j->w->train.optimizer, NULL);
	double weights = params * per.weights;	/* gathered in 16 bits */
	if (l->zero == 3) {
		zero3_time(j, l, weights, params * wire, st);
		return;
	}
	double last;
	double reduce = bucketed(j, l, l->zero >= 1 ? COLL_REDUCE_SCATTER
						     : COLL_ALL_REDUCE,
				 params, wire, &last);
	double gather = l->zero >= 1 ? coll(j, COLL_ALL_GATHER, weights, g) : 0;
	st->dp_comm = reduce + gather;
	if (!l->overlap) {
		st->dp_exposed = st->dp_comm;
		return;
	}
	double backward = st->stage_compute - st->stage_forward;
	double reduce_exposed = max2(reduce - backward, last);
	double gather_exposed = max2(gather - st->stage_forward, 0);
	double hidden = st->dp_comm - reduce_exposed - gather_exposed;
	st->overlap_extra = overlap_cost(j, hidden);
	st->dp_exposed = reduce_exposed + gather_exposed + st->overlap_extra;
}

/*
 * The optimizer step reads and writes every state it keeps (model/memory.h:
 * the moments, and under mixed precision the fp32 master weights), reads
 * the gradients, and writes the weights (reading them too when they are
 * the master copy): memory-bound, on the share of the parameters this GPU
 * updates (1/dp of them from ZeRO-1 on).  Before it, gradient clipping
 * reads the gradients for their norm and scales them in place (a read
 * and a write): three passes over them (Megatron-LM's clip_grad_norm_fp32
 * and multi_tensor_scale; PyTorch's clip_grad_norm_ likewise).  And a
 * framework that does not fuse accumulation into the weight-gradient
 * GEMM (Megatron-LM's gradient_accumulation_fusion, on by default, does)
 * adds each later micro-batch's 16-bit gradients into the buffer: a read
 * of them and a read and write of the buffer per micro-batch.
 */
static double optimizer_time(const struct step_job *j, const struct layout *l)
{
	const struct accelerator *a = j->in->acc;
	struct grad_rules g = train_grad_rules(j->w, l->zero);
	struct state_bytes b = memory_state_bytes(j->w->precision,
						  j->w->train.optimizer, &g);
	double per_param = 2 * b.optimizer + b.gradients +
			   (b.master_copy ? 1 : 2) * b.weights + 3 * b.gradients;
	double n = local_params(j, l) / (l->zero >= 1 ? l->dp : 1);
	double accumulate = 0;
	if (!framework_of(j)->accumulation_fused && l->accumulation > 1) {
		double held = local_params(j, l) / (l->zero >= 2 ? l->dp : 1);
		accumulate = (double)(l->accumulation - 1) * held *
			     (2 + 2 * b.gradients);
	}
	double bw = a->memory_bandwidth * j->eff->memory;
	return bw > 0 ? (n * per_param + accumulate) / bw : 0;
}

/* Decoding on all vCPUs of a node and copying each GPU's share over its
 * host link, overlapped with compute; only what is left over stalls. */
static double input_time(const struct step_job *j, const struct layout *l)
{
	const struct training *t = &j->w->train;
	if (!t->has_input)
		return 0;
	double per_node = (double)t->global_batch / j->nodes;
	double decode = per_node * t->decode_time_per_sample / j->in->vcpus;
	double link = j->in->acc->host_interface.bandwidth / 2 * j->eff->host_link;
	double local = (double)l->micro * l->accumulation;
	double copy = link > 0 ? local * t->bytes_per_sample / link : 0;
	return max2(decode, copy);
}

/*
 * A synchronous step waits for its slowest GPU: tensor-parallel
 * collectives every layer, pipeline sends every micro-batch and the
 * gradient reduction every step tie all N GPUs together.  GPUs of one
 * model differ in speed (eff->straggler_cv, the spread as a coefficient
 * of variation); the slowest of N normal draws lies z(N) spreads above
 * the mean, with Blom's approximation to the expected maximum,
 * z(N) = Phi^-1((N - 0.375) / (N + 0.25)): 0 for one GPU, 1.42 for 8,
 * 3.2 for 1,024.
 */
double train_straggler_factor(const struct efficiency *e, long gpus)
{
	if (gpus <= 1 || e->straggler_cv <= 0)
		return 1;
	double z = gsl_cdf_ugaussian_Pinv((gpus - 0.375) / (gpus + 0.25));
	return 1 + e->straggler_cv * z;
}

/* Micro-batch slots of one stage in the 1F1B schedule, bubble included. */
static double slots_of(const struct layout *l)
{
	return (double)l->accumulation + (double)(l->pp - 1) / l->v;
}

double train_step_lower_bound(const struct step_job *j, const struct layout *l,
			      const struct roofline *fwd)
{
	return slots_of(l) * 3 * fwd->time * stage_share(j, l->pp);
}

void train_step_time(const struct step_job *j, const struct layout *l,
		     const struct roofline *fwd, struct step *st)
{
	memset(st, 0, sizeof(*st));
	st->fwd = *fwd;
	double share = stage_share(j, l->pp);
	st->stage_forward = fwd->time * share;
	st->straggler = j->straggler;
	st->non_gemm = micro_non_gemm(j, l);
	st->stage_compute = (stage_compute(j, l, fwd, st->stage_forward) +
			     st->non_gemm) * st->straggler;
	st->tp_comm = tp_time(j, l);
	st->pp_comm = pp_time(j, l);
	double slot = st->stage_compute + st->tp_comm + st->pp_comm;
	double slots = slots_of(l);
	st->pipeline = slots * slot;
	st->bubble = (double)(l->pp - 1) / l->v * slot;
	dp_time(j, l, st);
	st->optimizer = optimizer_time(j, l);
	st->input = input_time(j, l);
	st->exposed_input = max2(st->input - st->pipeline, 0);
	st->total = st->pipeline + st->dp_exposed + st->optimizer + st->exposed_input;
	/* what bounds it: communication on the critical path, then the
	 * compute slots split as the roofline split the forward */
	st->communication = slots * (st->tp_comm + st->pp_comm) + st->dp_exposed;
	double work = slots * st->stage_compute;
	double bound = fwd->time > 0 ? fwd->compute_bound / fwd->time : 1;
	st->compute = work * bound;
	st->memory = work - st->compute + st->optimizer;
	/* the shares of that work in attention and in the work the graph
	 * leaves out, for the step's range (train_range.h) */
	double fwd_work = st->stage_compute - st->non_gemm * st->straggler;
	st->attention = fwd->time > 0 && st->stage_compute > 0
		? work * fwd_work / st->stage_compute *
		  fwd->class_time[OPC_ATTENTION] / fwd->time
		: 0;
}
