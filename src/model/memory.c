#include "memory.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

static const char *const optim_names[] = {"adamw", "adam", "sgd"};
static const char *const recompute_names[] = {"none", "selective", "full"};
static const char *const part_names[MEM_PARTS] = {
	"weights", "gradients", "optimizer", "activations", "kv_cache",
	"workspace",
};

const char *optimizer_name(enum optimizer o) { return optim_names[o]; }
const char *recompute_name(enum recompute r) { return recompute_names[r]; }
const char *memory_part_name(enum memory_part p) { return part_names[p]; }

static int find(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

int optimizer_from_name(const char *s) { return find(optim_names, 3, s); }
int recompute_from_name(const char *s) { return find(recompute_names, 3, s); }

static const char *gb(double bytes, char *buf)
{
	return units_format(UNIT_BYTES, bytes, NULL, buf, 32);
}

/* ---- model state: weights, gradients, optimizer ---- */

/*
 * Bytes per parameter (Rajbhandari et al. 2020, ZeRO, section 3.1): mixed
 * precision keeps 16-bit weights and gradients and, for Adam, an fp32
 * master copy plus two fp32 moments (2 + 2 + 12 = 16 bytes); SGD with
 * momentum keeps the master copy and one moment (8).  Training in fp32 or
 * tf32 needs no master copy: 4 + 4 and 8 (Adam) or 4 (SGD).
 *
 * A framework's rules (g) change this: Megatron-LM keeps bf16 gradients
 * in an fp32 buffer (2 + 4 + 12 = 18 bytes) and, under fp16, fp32 main
 * gradients beside the optimizer (2 + 2 + 16 = 20; its
 * dist_optimizer.md table); PyTorch FSDP keeps the sharded parameter in
 * fp32 as its own master copy (4 + 4 + 8).
 */
struct state_bytes memory_state_bytes(enum precision p, enum optimizer o,
				      const struct grad_rules *g)
{
	bool full = p == PREC_FP32 || p == PREC_TF32;
	bool sgd = o == OPTIMIZER_SGD;
	if (full)
		return (struct state_bytes){4, 4, sgd ? 4 : 8, false,
			sgd ? "fp32 momentum" : "fp32 first and second moments"};
	struct state_bytes b = {2, 2, sgd ? 8 : 12, true,
		sgd ? "fp32 master weights + momentum"
		    : "fp32 master weights + two fp32 moments"};
	if (!g)
		return b;
	if (g->grad_bytes > 0)
		b.gradients = g->grad_bytes;
	if (g->main_grad_bytes > 0) {
		b.optimizer += g->main_grad_bytes;
		b.optimizer_what = sgd ? "fp32 master weights, main gradients + momentum"
				       : "fp32 master weights, main gradients + two fp32 moments";
	}
	if (g->fp32_params) {
		b.weights = 4;
		b.optimizer -= 4;
		b.master_copy = false;
		b.optimizer_what = sgd ? "fp32 momentum (the fp32 parameter is the master copy)"
				       : "fp32 first and second moments (the fp32 parameter is the master copy)";
	}
	return b;
}

static struct state_bytes state_per_param(const struct train_setup *t)
{
	return memory_state_bytes(t->precision, t->optimizer, &t->grads);
}

static void model_state(const struct memory_model *mm,
			const struct train_setup *t, bool explain,
			struct memory_breakdown *out)
{
	struct state_bytes b = state_per_param(t);
	double split = (double)t->tp * t->pp;
	double psi = mm->params / split;	/* parameters this GPU holds */
	char q[32], psi_text[64];
	if (explain)
		snprintf(psi_text, sizeof(psi_text), "%.4g params%s", psi,
			 split > 1 ? " (split over tp x pp)" : "");
	const struct { enum memory_part part; double per; int stage;
		       const char *what; } rows[] = {
		{MEM_WEIGHTS, b.weights, 3, "weights"},
		{MEM_GRADIENTS, b.gradients, 2, "gradients"},
		{MEM_OPTIMIZER, b.optimizer, 1, b.optimizer_what},
	};
	for (int i = 0; i < 3; i++) {
		bool sharded = t->zero >= rows[i].stage && t->dp > 1;
		double bytes = rows[i].per * psi / (sharded ? t->dp : 1);
		out->bytes[rows[i].part] = bytes;
		if (!explain)
			continue;
		snprintf(out->how[rows[i].part], sizeof(out->how[0]),
			 "%g B x %s: %s%s%s = %s", rows[i].per, psi_text,
			 rows[i].what,
			 sharded ? ", sharded over dp by ZeRO-" : "",
			 sharded ? (char[]){(char)('0' + t->zero), 0} : "",
			 gb(bytes, q));
		if (sharded) {
			size_t len = strlen(out->how[rows[i].part]);
			snprintf(out->how[rows[i].part] + len,
				 sizeof(out->how[0]) - len, " (/ %ld)", t->dp);
		}
	}
}

/* ---- activations ---- */

/*
 * Transformers (Korthikanti et al. 2022, "Reducing Activation Recomputation
 * in Large Transformer Models", section 4), bytes per layer and
 * micro-batch with 16-bit activations and sequence parallelism (the norms'
 * and dropouts' share divides by t too):
 *   s b h (34 + 5 a s / h) / t
 * where 34 = 11 (attention) + 4 (two norms) + 19 (a GELU MLP of width 4h:
 * 3 + 4 f / h).  A SwiGLU MLP keeps gate, up and their product: 3 + 8 f / h.
 * So the constant here is 15 + the MLP term (34 for BERT, 39.5 for
 * Llama-2-7B).  Without sequence parallelism 10 s b h of it (the norms' and
 * dropouts' inputs) is held whole by every tensor-parallel rank:
 *   s b h (10 + (k - 10) / t + 5 a s / (h t))   (their equation 2).
 * Selective recomputation drops the 5 a s / h term (the attention scores);
 * full recomputation keeps only each layer's 2 s b h byte input, plus one
 * layer's full working set while it is recomputed.
 * Under the 1F1B pipeline schedule the first stage holds p micro-batches
 * of L/p layers, i.e. L layers' worth whatever p is; with v interleaved
 * stages per GPU Megatron-LM's schedule warms up 2 (p - 1) + (v - 1) p
 * chunks of L / (p v) layers on the first stage (schedules.py,
 * forward_backward_pipelining_with_interleaving), so with the one in
 * flight it holds L (1 + (p - 1) / (p v)).  The last stage holds one
 * micro-batch of its L/p layers and the fp32 logits (4 s b V / t).
 */
static double sbh_constant(const struct transformer_config *tf)
{
	double f_over_h = (double)tf->ffn / tf->hidden;
	double mlp = tf->ffn_kind == FFN_SWIGLU ? 3 + 8 * f_over_h
						: 3 + 4 * f_over_h;
	return 15 + mlp;
}

static void transformer_activations(const struct memory_model *mm,
				    const struct train_setup *t, bool explain,
				    struct memory_breakdown *out)
{
	const struct transformer_config *tf = &mm->m->tf;
	double s = (double)mm->seq, b = (double)t->micro_batch, h = (double)tf->hidden;
	double a = (double)tf->heads, L = (double)tf->layers, k = sbh_constant(tf);
	double scale = precision_training_activation_bytes(t->precision) / 2.0;	/* 16-bit basis */
	double tp = (double)t->tp;
	bool sp = t->sequence_parallel || t->tp == 1;
	/* what every tensor-parallel rank holds of the k s b h */
	double kept = sp ? k / tp : 10 + (k - 10) / tp;
	/* the scores' softmax output, and with attention dropout its keep
	 * mask and output: 5 a s / h (2 a s / h without dropout), none of
	 * them stored by a fused attention kernel */
	double per_score = tf->attention_dropout > 0 ? 5 : 2;
	double scores = t->fused_attention ? 0 : per_score * a * s / (h * tp);
	double whole = s * b * h * (kept + scores);	/* one layer */
	double per_layer;
	char formula[96];
	switch (t->recompute) {
	case RECOMPUTE_FULL:
		per_layer = 2 * s * b * h;
		snprintf(formula, sizeof(formula), "2 s b h");
		break;
	case RECOMPUTE_SELECTIVE:
		per_layer = kept * s * b * h;
		snprintf(formula, sizeof(formula),
			 sp ? "%g s b h / t" : "s b h (10 + %g / t)", sp ? k : k - 10);
		break;
	default:
		per_layer = whole;
		if (t->fused_attention)
			snprintf(formula, sizeof(formula),
				 sp ? "%g s b h / t (fused attention)"
				    : "s b h (10 + %g / t) (fused attention)",
				 sp ? k : k - 10);
		else
			snprintf(formula, sizeof(formula),
				 sp ? "s b h (%g + %g a s / h) / t"
				    : "s b h (10 + (%g + %g a s / h) / t)",
				 sp ? k : k - 10, per_score);
		break;
	}
	double in_flight = 1;
	if (t->pp > 1 && t->interleave > 1)
		in_flight += (double)(t->pp - 1) / ((double)t->pp * t->interleave);
	double first = per_layer * L * in_flight * scale;
	if (t->recompute == RECOMPUTE_FULL)
		first += whole * scale;		/* the layer being recomputed */
	double logits = tf->arch == TF_DECODER ? 4 * s * b * tf->vocab / t->tp : 0;
	double last = per_layer * L / t->pp * scale + logits;
	double total = t->pp > 1 ? (first > last ? first : last) : first + logits;
	out->bytes[MEM_ACTIVATIONS] = total;
	if (!explain)
		return;
	char q1[32], q2[32], q3[32];
	snprintf(out->how[MEM_ACTIVATIONS], sizeof(out->how[0]),
		 "Korthikanti et al. 2022 %s sequence parallelism, recompute %s: %s per layer (s=%g b=%g h=%g a=%g t=%ld) x %g layers%s%s%s = %s; fp32 logits 4 s b V / t = %s%s; %s",
		 sp ? "with" : "without", recompute_name(t->recompute), formula,
		 s, b, h, a, t->tp, L,
		 in_flight > 1 ? " x (1 + (p - 1) / (p v)) interleaved" : "",
		 scale != 1 ? " x element size / 2" : "",
		 t->recompute == RECOMPUTE_FULL ? " + one layer recomputed" : "",
		 gb(first, q1), gb(logits, q2),
		 t->pp > 1 ? " on the last stage; the larger stage counts" : "",
		 gb(total, q3));
}

/*
 * Other graphs: the outputs backward needs, summed.  No recomputation keeps
 * every op's output (and attention scores); selective keeps the outputs of
 * matrix, pooling and data ops and recomputes norms and activations; full
 * keeps only the output of each checkpoint unit (a top-level item, a repeat
 * iteration, a residual block) plus the largest unit's working set while it
 * is recomputed.  A view (flatten) stores nothing.
 */
/* The largest checkpoint unit's own outputs: what full recomputation must
 * hold again while it recomputes that unit. */
static double largest_block(const struct model_graph *g)
{
	double best = 0, cur = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (i > 0 && g->ops[i].block != g->ops[i - 1].block)
			cur = 0;
		cur += g->ops[i].act_written + g->ops[i].scratch / 4;
		if (cur > best)
			best = cur;
	}
	return best;
}

/* Activation elements per sample that backward keeps, per recompute mode. */
static double kept_elements(const struct model_graph *g, enum recompute r)
{
	double elems = r == RECOMPUTE_FULL ? largest_block(g) : 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		enum op_class c = op_kind_class(o->kind);
		bool last_of_block = i + 1 == g->n || g->ops[i + 1].block != o->block;
		bool keep;
		switch (r) {
		case RECOMPUTE_FULL: keep = last_of_block; break;
		case RECOMPUTE_SELECTIVE:
			keep = c != OPC_NORM && c != OPC_ELEMENTWISE;
			break;
		default: keep = true; break;
		}
		if (keep)
			elems += o->act_written +
				 (r == RECOMPUTE_NONE ? o->scratch / 4 : 0);
	}
	return elems;
}

static void graph_activations(const struct memory_model *mm,
			      const struct train_setup *t, bool explain,
			      struct memory_breakdown *out)
{
	double elems = mm->kept[t->recompute];
	int e = precision_training_activation_bytes(t->precision);
	double total = elems * e * t->micro_batch;
	out->bytes[MEM_ACTIVATIONS] = total;
	if (!explain)
		return;
	char q[32];
	snprintf(out->how[MEM_ACTIVATIONS], sizeof(out->how[0]),
		 "saved op outputs (recompute %s): %.4g elements per sample x %d B x micro-batch %ld = %s",
		 recompute_name(t->recompute), elems, e, t->micro_batch,
		 gb(total, q));
}

static void workspace_and_total(bool explain, struct memory_breakdown *out)
{
	double rest = 0;
	for (int p = 0; p < MEM_PARTS; p++)
		if (p != MEM_WORKSPACE)
			rest += out->bytes[p];
	double ws = ceil(WORKSPACE_FIXED_BYTES + WORKSPACE_FRACTION * rest);
	out->bytes[MEM_WORKSPACE] = ws;
	out->total = rest + ws;
	if (!explain)
		return;
	char q[32];
	snprintf(out->how[MEM_WORKSPACE], sizeof(out->how[0]),
		 "assumption: 1 GiB (CUDA context, library workspaces) + 10%% of the above for allocator fragmentation = %s",
		 gb(ws, q));
}

void memory_model_init(struct memory_model *mm, const struct model *m,
		       const struct model_graph *g)
{
	memset(mm, 0, sizeof(*mm));
	mm->m = m;
	mm->seq = g->seq;
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		double live = o->act_read + o->act_written + o->scratch / 2;
		mm->params += o->params;
		if (live > mm->serve_peak)
			mm->serve_peak = live;
	}
	if (m->kind != MODEL_TRANSFORMER)
		for (int r = 0; r < 3; r++)
			mm->kept[r] = kept_elements(g, (enum recompute)r);
}

void memory_training_of(const struct memory_model *mm,
			const struct train_setup *t, bool explain,
			struct memory_breakdown *out)
{
	memset(out->bytes, 0, sizeof(out->bytes));
	model_state(mm, t, explain, out);
	if (mm->m->kind == MODEL_TRANSFORMER)
		transformer_activations(mm, t, explain, out);
	else
		graph_activations(mm, t, explain, out);
	if (explain)
		snprintf(out->how[MEM_KV_CACHE], sizeof(out->how[0]),
			 "none: training keeps no KV cache");
	workspace_and_total(explain, out);
}

void memory_training(const struct model *m, const struct model_graph *g,
		     const struct train_setup *t, struct memory_breakdown *out)
{
	struct memory_model mm;
	memset(out, 0, sizeof(*out));
	memory_model_init(&mm, m, g);
	memory_training_of(&mm, t, true, out);
}

/* ---- serving ---- */

double kv_cache_bytes_per_token(const struct model *m, int elem_bytes)
{
	if (m->kind != MODEL_TRANSFORMER || m->tf.arch != TF_DECODER)
		return 0;
	const struct transformer_config *tf = &m->tf;
	/* K and V, per layer, kv_heads x head_dim each */
	return 2.0 * tf->layers * tf->kv_heads * (tf->hidden / tf->heads) *
	       elem_bytes;
}

void memory_serving_of(const struct memory_model *mm,
		       const struct serve_setup *s, bool explain,
		       struct memory_breakdown *out)
{
	const struct model *m = mm->m;
	int e = precision_bytes(s->precision);
	char q[32], q2[32];
	memset(out->bytes, 0, sizeof(out->bytes));
	out->bytes[MEM_WEIGHTS] = mm->params * e / s->tp;
	int kv_e = precision_bytes(s->kv_precision);
	double per_token = kv_cache_bytes_per_token(m, kv_e);
	/* Tensor parallelism splits the KV heads; past kv_heads ranks each
	 * rank still holds one head (they are replicated). */
	long kv_split = s->tp;
	if (m->kind == MODEL_TRANSFORMER && kv_split > m->tf.kv_heads)
		kv_split = m->tf.kv_heads;
	out->bytes[MEM_KV_CACHE] = per_token * s->context * s->batch / kv_split;
	/* The largest single op's inputs, output and scratch are live at
	 * once.  An approximation: tensors kept for later ops (a residual's
	 * input, a named output) are not added. */
	out->bytes[MEM_ACTIVATIONS] = mm->serve_peak * e * s->batch / s->tp;
	workspace_and_total(explain, out);
	if (!explain)
		return;
	snprintf(out->how[MEM_WEIGHTS], sizeof(out->how[0]),
		 "%d B x %.4g params (%s)%s = %s", e, mm->params,
		 precision_name(s->precision), s->tp > 1 ? " / tp" : "",
		 gb(out->bytes[MEM_WEIGHTS], q));
	snprintf(out->how[MEM_GRADIENTS], sizeof(out->how[0]), "none: serving");
	snprintf(out->how[MEM_OPTIMIZER], sizeof(out->how[0]), "none: serving");
	if (per_token > 0)
		snprintf(out->how[MEM_KV_CACHE], sizeof(out->how[0]),
			 "2 x %ld layers x %ld kv heads x %ld head dim x %d B (%s) = %s per token, x context %ld x batch %ld%s = %s",
			 m->tf.layers, m->tf.kv_heads, m->tf.hidden / m->tf.heads,
			 kv_e, precision_name(s->kv_precision),
			 gb(per_token, q2), s->context, s->batch,
			 kv_split > 1 ? " / min(tp, kv heads)" : "",
			 gb(out->bytes[MEM_KV_CACHE], q));
	else
		snprintf(out->how[MEM_KV_CACHE], sizeof(out->how[0]),
			 "none: the model keeps no KV cache");
	snprintf(out->how[MEM_ACTIVATIONS], sizeof(out->how[0]),
		 "largest op's live inputs and outputs: %.4g elements x %d B x batch %ld%s = %s",
		 mm->serve_peak, e, s->batch, s->tp > 1 ? " / tp" : "",
		 gb(out->bytes[MEM_ACTIVATIONS], q));
}

void memory_serving(const struct model *m, const struct model_graph *g,
		    const struct serve_setup *s, struct memory_breakdown *out)
{
	struct memory_model mm;
	memset(out, 0, sizeof(*out));
	memory_model_init(&mm, m, g);
	memory_serving_of(&mm, s, true, out);
}

double training_flops_per_step(const struct model_graph *g,
			       const struct model_cost *c,
			       enum recompute r, long batch)
{
	double forward = c->flops_per_sample * batch;
	if (r == RECOMPUTE_FULL)
		return 4 * forward;
	double attention = 0;
	if (r == RECOMPUTE_SELECTIVE)
		for (size_t i = 0; i < g->n; i++)
			if (g->ops[i].kind == OP_ATTENTION)
				attention += g->ops[i].flops * batch;
	return 3 * forward + attention;
}
