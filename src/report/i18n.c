/*
 * i18n.c - the report's words.  English and Chinese side by side, so a
 * label added in one language is visibly missing in the other.
 */
#include "i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "option/wording.h"

static const char *const words[MSG_COUNT][2] = {
	[MSG_TITLE] = {"GPU rental plan", "GPU 租用方案"},
	[MSG_SUMMARY] = {"Summary: what to rent", "摘要：租用什么"},
	[MSG_SUMMARY_INTRO] = {
		"For each workload: the instance to rent, how many, how long it takes and what it costs, and the saving against the obvious choice (the fastest GPU on offer).",
		"每项工作负载：应租用的实例、数量、所需时间与费用，以及相对于直观选择（现有最快的 GPU）的节省。"},
	[MSG_TRAINING] = {"training", "训练"},
	[MSG_INFERENCE] = {"inference", "推理服务"},
	[MSG_RECOMMENDATION] = {"Recommendation", "推荐"},
	[MSG_TIME] = {"Time", "时间"},
	[MSG_COST] = {"Cost", "费用"},
	[MSG_COST_MONTH] = {"Cost per month", "每月费用"},
	[MSG_SAVING] = {"Saving against the obvious choice", "相对直观选择的节省"},
	[MSG_OBVIOUS_SAME] = {"This is also the obvious choice (the fastest GPU on offer).",
			      "这也是直观选择（现有最快的 GPU）。"},
	[MSG_NO_OPTION] = {"No option meets the constraints.", "没有方案满足约束条件。"},
	[MSG_OPTIONS] = {"Options", "方案"},
	[MSG_CONTINUED] = {"(continued)", "（续）"},
	[MSG_COL_INSTANCE] = {"Instance", "实例"},
	[MSG_COL_GPUS] = {"GPUs", "GPU"},
	[MSG_COL_TIME] = {"Time", "时间"},
	[MSG_COL_P99] = {"p99", "p99 延迟"},
	[MSG_COL_COST] = {"Cost", "费用"},
	[MSG_COL_SPOT] = {"Spot", "竞价"},
	[MSG_COL_GPU_HOURS] = {"GPU-h", "GPU 小时"},
	[MSG_COL_MEMORY] = {"Mem/GPU", "每 GPU 显存"},
	[MSG_COL_STATUS] = {"Status", "状态"},
	[MSG_COL_REPLICAS] = {"Replicas", "副本"},
	[MSG_COL_PER_MILLION] = {"Per million", "每百万请求"},
	[MSG_OK] = {"ok", "可行"},
	[MSG_CHART_TIME_COST] = {"Time against cost", "时间与费用"},
	[MSG_CHART_LATENCY_COST] = {"p99 latency against cost per month", "p99 延迟与每月费用"},
	[MSG_CHART_COST] = {"Cost per option", "各方案费用"},
	[MSG_CHART_BREAKDOWN] = {"Where the time goes (per step)", "时间构成（每步）"},
	[MSG_CHART_MEMORY] = {"Memory per GPU against capacity", "每 GPU 显存与容量"},
	[MSG_CHART_SCALING] = {"Scaling with GPU count", "随 GPU 数量的扩展"},
	[MSG_CHART_ROOFLINE] = {"Roofline", "屋顶线模型"},
	[MSG_CHART_LOAD] = {"p99 latency against load", "p99 延迟与负载"},
	[MSG_AXIS_TIME] = {"time", "时间"},
	[MSG_AXIS_P99] = {"p99 latency", "p99 延迟"},
	[MSG_AXIS_COST] = {"cost", "费用"},
	[MSG_AXIS_COST_MONTH] = {"cost per month", "每月费用"},
	[MSG_AXIS_SECONDS] = {"seconds per step", "每步秒数"},
	[MSG_AXIS_MEMORY] = {"memory per GPU (GB)", "每 GPU 显存 (GB)"},
	[MSG_AXIS_GPUS] = {"GPUs", "GPU 数量"},
	[MSG_AXIS_EFFICIENCY] = {"scaling efficiency (%)", "扩展效率 (%)"},
	[MSG_AXIS_RATE] = {"request rate (requests/s)", "请求速率 (次/秒)"},
	[MSG_E2E_P99] = {"end-to-end p99", "端到端 p99"},
	[MSG_TTFT_P99] = {"TTFT p99 (first token)", "首 token 延迟 p99 (TTFT)"},
	[MSG_TPOT_P99] = {"TPOT p99 (per output token)", "每 token 延迟 p99 (TPOT)"},
	[MSG_TARGET] = {"%s target %s", "%s 目标 %s"},
	[MSG_PLANNED_LOAD] = {"planned load %s/s", "计划负载 %s/s"},
	[MSG_SATURATED] = {"saturated at %s/s", "%s/s 时饱和"},
	[MSG_REPLICAS_N] = {"%ld replicas", "%ld 个副本"},
	[MSG_RUNNER_UP] = {"runner-up", "次优"},
	[MSG_SAMPLE_DEVICE] = {"On the measured device %s (%s)", "在实测设备 %s 上（%s）"},
	[MSG_SAMPLE_FORWARD] = {"forward pass of %ld", "%ld 个样本的前向计算"},
	[MSG_SAMPLE_STEP] = {"training step", "训练步"},
	[MSG_SAMPLE_RUN] = {"whole run", "整个训练"},
	[MSG_SAMPLE_RATE] = {"requests/s, one at a time", "每秒请求数（逐个处理）"},
	[MSG_RANGE] = {"%s (%s to %s)", "%s（%s 至 %s）"},
	[MSG_MEASURED_RANGE] = {"whiskers: 95% range from the measurement", "须线：实测的 95% 区间"},
	[MSG_ON_DEMAND] = {"on demand", "按需"},
	[MSG_SPOT] = {"spot", "竞价"},
	[MSG_FEASIBLE] = {"feasible", "可行"},
	[MSG_INFEASIBLE] = {"infeasible", "不可行"},
	[MSG_PARETO] = {"Pareto front", "帕累托前沿"},
	[MSG_DEADLINE] = {"deadline", "期限"},
	[MSG_OWNED] = {"owned", "自有"},
	[MSG_PERFORMANCE] = {"performance", "性能"},
	[MSG_INTENSITY] = {"arithmetic intensity", "算术强度"},
	[MSG_PEAK] = {"peak", "峰值"},
	[MSG_RIDGE] = {"ridge", "拐点"},
	[MSG_PRICE_AS_OF] = {"price as of", "价格日期"},
	[MSG_BUDGET] = {"budget", "预算"},
	[MSG_CAPACITY] = {"GPU memory", "GPU 显存"},
	[MSG_RECOMMENDED] = {"recommended", "推荐"},
	[MSG_COMPUTE] = {"compute", "计算"},
	[MSG_MEMORY_BOUND] = {"memory", "访存"},
	[MSG_COMMUNICATION] = {"communication", "通信"},
	[MSG_INPUT] = {"input", "数据输入"},
	[MSG_WEIGHTS] = {"weights", "权重"},
	[MSG_GRADIENTS] = {"gradients", "梯度"},
	[MSG_OPTIMIZER] = {"optimizer", "优化器状态"},
	[MSG_ACTIVATIONS] = {"activations", "激活"},
	[MSG_KV_CACHE] = {"KV cache", "KV 缓存"},
	[MSG_WORKSPACE] = {"workspace", "工作区"},
	[MSG_APPENDIX] = {"Appendix: assumptions and sources", "附录：假设与来源"},
	[MSG_ASSUMPTIONS] = {"Assumptions", "假设"},
	[MSG_SOURCES] = {"Sources", "来源"},
	[MSG_EXCHANGE_RATE] = {"Exchange rates", "汇率"},
	[MSG_FOOTNOTE] = {
		"Prices dated %s to %s; datasheet peaks and bandwidths are from the catalog; efficiencies are assumptions, not measurements (see the appendix).",
		"价格日期 %s 至 %s；峰值算力与带宽取自产品规格表；效率为假设值，非实测（见附录）。"},
	[MSG_PAGE] = {"page %d", "第 %d 页"},
	[MSG_ILLUSTRATIVE_PRICE] = {"illustrative price", "示意价格"},
	[MSG_PREFILL] = {"prefill", "预填充"},
	[MSG_DECODE] = {"decode", "解码"},
	[MSG_FP_MADE] = {"Plan of %s, made by %s.", "方案日期 %s，由 %s 生成。"},
	[MSG_FP_NOT_RECORDED] = {"The plan does not record its date or tool version (made by an older gpuplan).",
				 "方案未记录日期与工具版本（由旧版 gpuplan 生成）。"},
	[MSG_FP_ONE_OFF] = {"One-off spend, training: %s (range %s to %s); training runs: %zu.",
			    "一次性支出（训练）：%s（范围 %s 至 %s），共 %zu 次训练。"},
	[MSG_FP_MONTHLY] = {"Monthly spend, services: %s a month (range %s to %s); services: %zu.",
			    "每月支出（推理服务）：每月 %s（范围 %s 至 %s），共 %zu 项服务。"},
	[MSG_FP_RANGE_MEASURED] = {"Ranges: the measured 95%% intervals the plan records (calibration on a sample device).",
				   "范围：方案记录的实测 95%% 区间（样本设备校准）。"},
	[MSG_FP_RANGE_STATED] = {"Ranges (training): the %.0f%% range of the planner's stated assumptions (GEMM ceiling, memory and network rates, overlap slowdown, stragglers, the attention and memory-bound kernels a run uses, failures and checkpoints), each from its source; a run's software version is not in it. README, Backtest, shows how often measured runs fell inside.",
				 "范围（训练）：规划器各项已注明来源的假设（GEMM 上限、显存与网络速率、重叠减速、掉队者、运行所用的注意力与访存型内核、故障与检查点）的 %.0f%% 范围；运行所用的软件版本不在其中。README 的回测部分列出实测落在范围内的比例。"},
	[MSG_FP_RANGE_ASSUMED] = {"Ranges: no measurement covers these costs, so they are given as -/+%.0f%% (training) and -/+%.0f%% (services), the backtest's limits on the planner's mean error; an assumption, not a measurement.",
				  "范围：这些费用没有实测区间，故按回测对规划器平均误差的上限给出：训练 ±%.0f%%，推理服务 ±%.0f%%；此为假设，非实测。"},
	[MSG_FP_CHART_TRAIN] = {"Cost of each training run: recommended against the obvious choice",
				"每次训练的费用：推荐方案与直观选择"},
	[MSG_FP_CHART_SERVE] = {"Cost of each service per month: recommended against the obvious choice",
				"每项推理服务的每月费用：推荐方案与直观选择"},
	[MSG_FP_RECOMMENDED] = {"recommended", "推荐方案"},
	[MSG_FP_OBVIOUS] = {"obvious choice (fastest GPU)", "直观选择（最快的 GPU）"},
	[MSG_FP_INPUTS] = {"Illustrative inputs relied on", "所依赖的示意性输入"},
	[MSG_FP_PRICES] = {"Prices without a published source (illustrative): %s.",
			   "无公开来源的价格（示意）：%s。"},
	[MSG_FP_ASSUMED] = {"Efficiencies assumed, not measured: %s.", "假设而非实测的效率：%s。"},
	[MSG_FP_NO_ILLUSTRATIVE] = {"Every recommended price has a published source.",
				    "所有推荐方案的价格均有公开来源。"},
	[MSG_FP_LIMITS] = {"Limits of the model: %s.", "模型局限：%s。"},
	[MSG_FP_LIMIT_SIZE] = {"%ld GPUs is beyond the largest run the backtest covers (%d GPUs)",
			       "%ld 个 GPU 超出了回测覆盖的最大规模（%d 个 GPU）"},
	[MSG_FP_LIMIT_H100] = {"the backtest's H100 training runs reached a lower share of peak than the planner credits (known misses), so H100 times and costs may be low",
			       "回测中 H100 训练的实际峰值利用率低于规划器的估计（已知偏差），H100 的时间与费用可能偏低"},
	[MSG_FP_LIMIT_CPU] = {"the sample-device figures were measured on a CPU, not a GPU",
			      "样本设备数据是在 CPU 而非 GPU 上测得的"},
	[MSG_FP_GPU_HOURS] = {"Training GPU-hours: %s of wall clock (what is paid), %s of them compute: %.1f%% goodput, the rest lost to failures, restarts and checkpoints at published failure rates.",
			      "训练 GPU 小时：挂钟时间 %s（计费部分），其中计算 %s：有效训练时间比例 %.1f%%，其余按公开的故障率计为故障、重启与检查点的损失。"},
	[MSG_GOODPUT_LINE] = {"GPU-hours: %s of wall clock, %s of compute; goodput %s (%s to %s): failures, restarts and checkpoints take the rest.",
			      "GPU 小时：挂钟时间 %s，计算 %s；有效训练时间比例 %s（%s 至 %s），其余为故障、重启与检查点。"},
	[MSG_COL_GPU_HOURS_SPLIT] = {"GPU-h wall / compute", "GPU 小时 挂钟/计算"},
};

const char *tr(enum report_lang lang, enum msg id)
{
	return words[id][lang == LANG_ZH];
}

void tr_trim_utf8(char *s)
{
	size_t n = strlen(s), k = n;
	/* back over continuation bytes to the last lead byte */
	while (k > 0 && ((unsigned char)s[k - 1] & 0xC0) == 0x80)
		k--;
	if (k == 0)
		return;
	unsigned char lead = (unsigned char)s[k - 1];
	size_t want = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2
		: (lead & 0xF0) == 0xE0 ? 3 : 4;
	if (n - (k - 1) < want)
		s[k - 1] = '\0';	/* the last character was cut: drop it */
}

const char *tr_assumption(enum report_lang lang, const char *key,
			  const char *english)
{
	/* the value is printed beside it, so no figures here */
	static const struct { const char *key, *zh; } notes[] = {
		{"compute_efficiency", "基准：大型 GEMM 以随机输入能达到的稠密峰值比例，按器件与精度取自 Bekman《Machine Learning Engineering》的最大可达矩阵乘 FLOPS 表（第二版），再取其最佳形状数值的 0.948（Horace He 测得 A100 上 8192³ 随机输入为 257 对 271.2 TFLOP/s）；表中没有的器件取 80%（假设）；每个矩阵运算再按其形状降低：输出分块按波次分布到各 SM 上（分块量化与波次量化），短归约另有折减（假设）"},
		{"memory_efficiency", "假设：达到规格表显存带宽的比例"},
		{"link_efficiency", "假设：节点内 NVLink/PCIe 达到标称速率的比例"},
		{"network_efficiency_rdma", "假设：支持 RDMA 的网络达到线速的比例"},
		{"network_efficiency_tcp", "假设：无 RDMA（TCP）的网络达到线速的比例"},
		{"overlap_slowdown", "实测（arXiv 2507.03114）：通信与计算重叠时计算核函数平均变慢的比例（4 卡 A100、H100、MI250、MI210 上的 GPT 与 LLaMA 模型）"},
		{"straggler_cv", "观察（Bekman《Machine Learning Engineering》）：同一 8 卡节点内 GPU 速度相差 5% 以上，折合变异系数；同步的一步要等最慢的 GPU"},
		{"spot_overhead", "假设：竞价实例因抢占和从检查点重启而多用的时间比例"},
		{"host_link_efficiency", "假设：锁页内存的主机到设备拷贝达到 PCIe 速率的比例"},
		{"kernel_gap_graph_s", "实测（NVIDIA《Getting Started with CUDA Graphs》，Tesla V100）：CUDA Graph 中每个核函数在其计算之外留下的空隙"},
		{"kernel_gap_stream_s", "实测（同上）：在流中逐个从主机启动时每个核函数留下的空隙"},
		{"kernel_floor_stream_s", "实测（同上）：从主机启动的核函数每个至少占用的时间"},
		{"llm_iteration_host_s", "实测（SGLang issue 5593）：大模型推理引擎每次迭代在重放 CUDA Graph 之前等待主机调度、准备输入和采样的时间；其他引擎沿用此假设"},
		{"goodput_failure_rate_per_gpu_hour", "实测（Llama 3 报告第 3.3.4 节）：预训练快照期内意外中断的次数除以 GPU 数与时长，即每 GPU 小时的故障率；范围见计划 JSON"},
		{"goodput_checkpoint_write_s", "实测（PyTorch 博客，分布式异步检查点一文）：7B 模型同步分布式检查点使训练暂停的平均时间，各框架默认同步保存；范围见计划 JSON"},
		{"goodput_restart_s", "实测（MegaScale 第 6.3 节）：发现故障并运行诊断测试的平均时间上限，重新加载检查点计入其中；范围见计划 JSON"},
	};
	if (lang != LANG_ZH)
		return english;
	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strcmp(notes[i].key, key))
			return notes[i].zh;
	return english;	/* an assumption this table does not know */
}

const char *tr_op_class(enum report_lang lang, const char *name)
{
	static const struct { const char *key, *zh; } classes[] = {
		{"gemm", "矩阵乘 (GEMM)"}, {"attention", "注意力"},
		{"norm", "归一化"}, {"elementwise", "逐元素"},
		{"pool", "池化"}, {"data", "数据搬运"},
	};
	if (lang != LANG_ZH)
		return name;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].key, name))
			return classes[i].zh;
	return name;	/* a class this table does not know keeps its name */
}

double tr_time_unit(enum report_lang lang, double seconds, const char **name)
{
	static const struct { double scale; const char *en, *zh; } units[] = {
		{365 * 86400.0, "y", "年"}, {86400, "d", "天"}, {3600, "h", "小时"},
		{60, "min", "分钟"}, {1, "s", "秒"}, {1e-3, "ms", "毫秒"},
	};
	size_t i = 0;
	/* the largest unit that keeps at least 2 of it (48 h, not 2 d) */
	while (i + 1 < sizeof(units) / sizeof(units[0]) && seconds < 2 * units[i].scale)
		i++;
	*name = lang == LANG_ZH ? units[i].zh : units[i].en;
	return units[i].scale;
}

char *tr_duration(enum report_lang lang, double s, char *buf, size_t len)
{
	const char *unit;
	double v = s / tr_time_unit(lang, s, &unit);
	snprintf(buf, len, v >= 100 ? "%.0f %s" : "%.3g %s", v, unit);
	return buf;
}

char *tr_money(double amount, const char *currency, char *buf, size_t len)
{
	if (amount < 100) {
		snprintf(buf, len, "%.2f %s", amount, currency);
		return buf;
	}
	if (amount >= 1e15) {	/* beyond any budget: no 300-digit figures */
		snprintf(buf, len, "%.3g %s", amount, currency);
		return buf;
	}
	char digits[48], grouped[64];
	snprintf(digits, sizeof(digits), "%.0f", amount);
	size_t n = strlen(digits), k = 0;
	for (size_t i = 0; i < n && k + 2 < sizeof(grouped); i++) {
		if (i && (n - i) % 3 == 0)
			grouped[k++] = ',';
		grouped[k++] = digits[i];
	}
	grouped[k] = '\0';
	snprintf(buf, len, "%s %s", grouped, currency);
	return buf;
}

/* Decimal GB, as the plan's own reasons and the catalog word GPU memory:
 * the terminal and the PDF compare a need against a capacity alike. */
static char *bytes_text(double b, char *buf)
{
	return (char *)plan_gb_text(b, buf, 32);
}

char *tr_reason(enum report_lang lang, const struct plan_reason_figures *r,
		const char *currency, char *buf, size_t len)
{
	char x[48], y[48];
	bool zh = lang == LANG_ZH;
	const char *c = r->code ? r->code : "";
	if (!strcmp(c, "memory") || !strcmp(c, "serve_memory"))
		snprintf(buf, len, zh ? "显存不足：需要 %s，%s 仅有 %s"
				      : "out of memory: needs %s, %s has %s",
			 bytes_text(r->a, x), r->s1 ? r->s1 : "", bytes_text(r->b, y));
	else if (!strcmp(c, "deadline"))
		snprintf(buf, len, zh ? "用时 %s，超过 %s 的期限" : "takes %s, past the %s deadline",
			 tr_duration(lang, r->a, x, sizeof(x)),
			 tr_duration(lang, r->b, y, sizeof(y)));
	else if (!strcmp(c, "budget"))
		snprintf(buf, len, zh ? "费用 %s，超出 %s 的预算" : "costs %s, over the %s budget",
			 tr_money(r->a, currency, x, sizeof(x)),
			 tr_money(r->b, currency, y, sizeof(y)));
	else if (!strcmp(c, "illustrative_price"))
		snprintf(buf, len, zh ? "价格为示意值（无公开来源）" : "price is illustrative (no published source)");
	else if (!strcmp(c, "precision") && r->n1)
		snprintf(buf, len, zh ? "以 %s 运行：%s 不支持 %s" : "runs as %s: %s has no %s",
			 r->used ? r->used : "", r->s1 ? r->s1 : "", r->wanted ? r->wanted : "");
	else if (!strcmp(c, "precision"))
		snprintf(buf, len, zh ? "以 %s 运行：目录中没有 %s 的 %s 峰值（无可靠来源）"
				      : "runs as %s: the catalog has no sourced %s peak for %s",
			 r->used ? r->used : "", zh ? (r->s1 ? r->s1 : "") : (r->wanted ? r->wanted : ""),
			 zh ? (r->wanted ? r->wanted : "") : (r->s1 ? r->s1 : ""));
	else if (!strcmp(c, "input_starvation"))
		snprintf(buf, len, zh ? "数据加载不足：GPU 空闲 %.0f%%" : "data loading starves the GPUs: %.0f%% idle",
			 100 * r->c);
	else if (!strcmp(c, "serve_too_slow"))
		snprintf(buf, len, zh ? "单个请求需 %s，超过 p99 目标 %s" : "one request takes %s, above the %s p99 target",
			 tr_duration(lang, r->a, x, sizeof(x)),
			 tr_duration(lang, r->b, y, sizeof(y)));
	else if (!strcmp(c, "mig_isolated"))
		snprintf(buf, len, zh ? "MIG 切片硬件隔离：假设互不干扰" : "MIG slices are isolated: no interference assumed");
	else if (!strcmp(c, "serve_rate"))
		snprintf(buf, len, zh ? "超过 %ld 台实例仍无法承载每秒 %.4g 个请求"
				      : "needs more than %ld instances for %.4g requests/s",
			 r->n1, r->a);
	else if (!strcmp(c, "serve_p99"))
		snprintf(buf, len, zh ? "超过 %ld 台实例仍无法满足 %s 的 p99"
				      : "needs more than %ld instances to hold the p99 under %s",
			 r->n1, tr_duration(lang, r->a, x, sizeof(x)));
	else if (!strcmp(c, "llm_target") && r->n1)
		snprintf(buf, len, zh ? "即使副本空闲，%s 也达 %s，高于目标 %s"
				      : "even on an idle replica the %s is %s, above the %s target",
			 r->s1 ? r->s1 : "", tr_duration(lang, r->a, x, sizeof(x)),
			 tr_duration(lang, r->b, y, sizeof(y)));
	else if (!strcmp(c, "llm_target"))
		snprintf(buf, len, zh ? "超过 %ld 台实例仍无法使 %s 低于 %s"
				      : "needs more than %ld instances to bring the %s under %s",
			 r->n2, r->s1 ? r->s1 : "", tr_duration(lang, r->b, y, sizeof(y)));
	else if (!strcmp(c, "serve_on_demand"))
		snprintf(buf, len, zh ? "推理服务按需计费（不用竞价实例）" : "serving stays on demand (no spot)");
	else if (!strcmp(c, "no_exchange_rate"))
		snprintf(buf, len, zh ? "缺少 %s 到 %s 的汇率" : "no exchange rate from %s to %s",
			 r->s1 ? r->s1 : "", r->s2 ? r->s2 : "");
	else if (!strcmp(c, "goodput"))
		snprintf(buf, len, zh ? "无法推进：%ld 个 GPU 每 %s 故障一次"
				      : "makes no progress: %ld GPUs fail every %s",
			 r->n1, tr_duration(lang, r->a, x, sizeof(x)));
	else if (!strcmp(c, "out_of_range"))
		snprintf(buf, len, zh ? "估算超出范围（%s 不是有限的非负数）"
				      : "estimate out of range (%s is not a finite, non-negative number)",
			 r->s1 ? r->s1 : (zh ? "某个数值" : "a figure"));
	else
		snprintf(buf, len, zh ? "受限（详见 JSON）" : "limited (see the plan JSON)");
	return buf;
}
