/*
 * Model descriptions as a hostile or careless author writes them: the
 * limits of model.h (ops counted before building, files read once and
 * capped, op entries capped), the include rule (the model's folder and
 * below, or the shipped models; regular files only), content of files
 * that are not models never quoted, names refused with controls, and
 * tensors held within MODEL_MAX_TENSOR_ELEMENTS.  Every file is written
 * into a fresh folder under /tmp; the expected counts are worked by hand
 * next to each case.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "model/graph.h"
#include "model/op_count.h"

static char top[] = "/tmp/gpuplan-model-input.XXXXXX";

/* Writes top/name (folders made as needed) with printf-style content. */
static void put(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(const char *name, const char *fmt, ...)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", top, name);
	for (char *p = path + strlen(top) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static const char *at(const char *name)
{
	static char path[1024];
	snprintf(path, sizeof(path), "%s/%s", top, name);
	return path;
}

/* A loaded (and, when it loaded, built) model with its problems as
 * printed. */
struct loaded {
	struct model m;
	struct model_graph g;
	int load_rc, build_rc;
	char msgs[16384];
};

static void collect(struct loaded *l, const struct gp_errors *e)
{
	size_t used = strlen(l->msgs);
	for (size_t i = 0; i < e->n && used + 1 < sizeof(l->msgs); i++) {
		char line[4096];
		gp_error_format(&e->v[i], line, sizeof(line));
		snprintf(l->msgs + used, sizeof(l->msgs) - used, "%s\n", line);
		used = strlen(l->msgs);
	}
}

static void load(struct loaded *l, const char *name, bool build)
{
	memset(l, 0, sizeof(*l));
	struct gp_errors e;
	gp_errors_init(&e);
	l->load_rc = model_load(&l->m, at(name), &e);
	l->build_rc = -1;
	if (l->load_rc == 0 && build)
		l->build_rc = model_build(&l->m, 0, &l->g, &e);
	collect(l, &e);
	gp_errors_free(&e);
}

static void unload(struct loaded *l)
{
	model_graph_free(&l->g);
	model_free(&l->m);
}

#define GRAPH "schema: gpuplan/model/v1\nname: g\nkind: graph\n"
#define BLOCK "schema: gpuplan/model/v1\nname: b\nkind: block\n"
#define IMAGE "input: {channels: 4, height: 8, width: 8}\n"

/* ---- counting before building ---- */

static void counts(void)
{
	/* Each case: what it is written as, and the ops it builds, by hand. */
	static const struct { const char *input, *ops; uint64_t want; } t[] = {
		{IMAGE, "ops: [relu]\n", 1},
		/* conv + its fused norm + its fused activation */
		{IMAGE, "ops:\n  - conv: {out: 4, kernel: 3, padding: 1, norm: batchnorm, act: relu}\n", 3},
		/* 4 x (relu, sigmoid) */
		{IMAGE, "ops:\n  - repeat: 4\n    ops: [relu, sigmoid]\n", 8},
		/* body of 2 + the add */
		{IMAGE, "ops:\n  - residual: {ops: [relu, relu]}\n", 3},
		/* body 1 + shortcut 1 + the add */
		{IMAGE, "ops:\n  - residual: {ops: [{conv: {out: 4, kernel: 1}}], shortcut: [{conv: {out: 4, kernel: 1}}]}\n", 3},
		/* Q/K/V projection, attention core, output projection */
		{"input: {tokens: 8, features: 16}\n", "ops:\n  - attention: {heads: 4}\n", 3},
		/* 5 x the 2-op block, then the block once more: 12 */
		{IMAGE, "ops:\n  - repeat: 5\n    ops:\n      - include: two.yaml\n  - include: two.yaml\n", 12},
	};
	put("two.yaml", BLOCK "ops: [relu, sigmoid]\n");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		put("count.yaml", GRAPH "%s%s", t[i].input, t[i].ops);
		struct loaded l;
		load(&l, "count.yaml", true);
		CHECK(l.build_rc == 0);
		CHECK(model_op_count(&l.m) == t[i].want);
		CHECK(l.g.n == t[i].want);
		if (l.g.n != t[i].want)
			fprintf(stderr, "  case %zu: built %zu, want %llu\n%s", i,
				l.g.n, (unsigned long long)t[i].want, l.msgs);
		unload(&l);
	}
}

/* The counts of the shipped models match what the builders make. */
static void shipped_counts(void)
{
	static const char *const names[] = {"resnet-50", "vit-b-16", "bert-base",
					    "llama-2-7b", "llama-2-70b",
					    "yolo-inspect-640", "tiny-cnn"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/profiles/models/%s.yaml",
			 GPUPLAN_SOURCE_DIR, names[i]);
		struct model m;
		struct model_graph g;
		struct gp_errors e;
		gp_errors_init(&e);
		memset(&g, 0, sizeof(g));
		CHECK(model_load(&m, path, &e) == 0 && model_build(&m, 0, &g, &e) == 0);
		CHECK(model_op_count(&m) == g.n);
		gp_errors_print(&e, stderr);
		gp_errors_free(&e);
		model_graph_free(&g);
		model_free(&m);
	}
}

static void saturation(void)
{
	CHECK(ops_add(3, 4) == 7);
	CHECK(ops_add(MODEL_OPS_MANY - 1, 2) == MODEL_OPS_MANY);
	CHECK(ops_mul(0, MODEL_OPS_MANY) == 0);
	CHECK(ops_mul(1ULL << 31, 1ULL << 32) == 1ULL << 63);
	CHECK(ops_mul(1ULL << 32, 1ULL << 32) == MODEL_OPS_MANY);
	CHECK(ops_mul(MODEL_OPS_MANY, 2) == MODEL_OPS_MANY);
}

/* 1000 x 2 = 2000 ops: within a limit of 2000, not of 1999, and the
 * error lands on the repeat (line 6, column 5). */
static void limit_boundary(void)
{
	put("two-thousand.yaml", GRAPH IMAGE "ops:\n  - repeat: 1000\n    ops: [relu, relu]\n");
	struct loaded l;
	load(&l, "two-thousand.yaml", false);
	CHECK(l.load_rc == 0);
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(model_check_op_count(&l.m, 2000, "--ops lists", NULL, &e) == 0);
	CHECK(gp_errors_count(&e) == 0);
	CHECK(model_check_op_count(&l.m, 1999, "--ops lists", NULL, &e) == -1);
	collect(&l, &e);
	CHECK_HAS(l.msgs, "two-thousand.yaml:6:5: this repeat (1000 x 2) expands to 2000 ops: --ops lists at most 1999");
	gp_errors_free(&e);
	unload(&l);
}

/* ---- reading once, and the caps on reading ---- */

/* c1, c2 and c3 each include the next 10 times, c4 is one relu: 1000 ops
 * from 5 files (the model and 4 parts), each read once. */
static void read_once(void)
{
	for (int i = 1; i <= 3; i++) {
		char name[32], body[512] = "";
		snprintf(name, sizeof(name), "chain/c%d.yaml", i);
		for (int k = 0; k < 10; k++)
			snprintf(body + strlen(body), sizeof(body) - strlen(body),
				 "  - include: c%d.yaml\n", i + 1);
		put(name, BLOCK "ops:\n%s", body);
	}
	put("chain/c4.yaml", BLOCK "ops: [relu]\n");
	put("chain/top.yaml", GRAPH IMAGE "ops:\n  - include: c1.yaml\n");
	struct loaded l;
	load(&l, "chain/top.yaml", true);
	CHECK(l.build_rc == 0);
	CHECK(l.m.n_files == 5);
	CHECK(l.m.n_blocks == 4);
	CHECK(l.g.n == 1000);
	unload(&l);
}

/* The model and parts d1..d15 fill the 16 places of the include stack:
 * d15's include of d16 is refused, wherever the chain ends. */
static void depth_cap(void)
{
	for (int i = 1; i <= 17; i++) {
		char name[32];
		snprintf(name, sizeof(name), "deep/d%d.yaml", i);
		put(name, BLOCK "ops:\n  - include: d%d.yaml\n", i + 1);
	}
	put("deep/d18.yaml", BLOCK "ops: [relu]\n");
	put("deep/top.yaml", GRAPH IMAGE "ops:\n  - include: d1.yaml\n");
	struct loaded l;
	load(&l, "deep/top.yaml", false);
	CHECK(l.load_rc == -1);
	CHECK_HAS(l.msgs, "d15.yaml:5:14: includes nest deeper than 16 files");
	unload(&l);
	put("deep/top.yaml", GRAPH IMAGE "ops:\n  - include: d4.yaml\n");
	load(&l, "deep/top.yaml", true);	/* d4..d18: 15 parts deep */
	CHECK(l.build_rc == 0 && l.g.n == 1);
	unload(&l);
}

/* Top and 99 parts is 100 files: loads.  Top and 100 parts: the include
 * of the 100th part (line 105, its value at column 14) is refused. */
static void files_cap(void)
{
	char *ops = calloc(101, 32);
	for (int i = 0; i < 100; i++) {
		char name[32];
		snprintf(name, sizeof(name), "many/p%d.yaml", i);
		put(name, BLOCK "ops: [relu]\n");
		snprintf(ops + strlen(ops), 32, "  - include: p%d.yaml\n", i);
		if (i == 98) {
			put("many/ninety-nine.yaml", GRAPH IMAGE "ops:\n%s", ops);
			struct loaded l;
			load(&l, "many/ninety-nine.yaml", true);
			CHECK(l.build_rc == 0 && l.m.n_files == 100);
			unload(&l);
		}
	}
	put("many/hundred.yaml", GRAPH IMAGE "ops:\n%s", ops);
	free(ops);
	struct loaded l;
	load(&l, "many/hundred.yaml", false);
	CHECK(l.load_rc == -1);
	CHECK_HAS(l.msgs, "hundred.yaml:105:14: a model may read at most 100 files");
	unload(&l);
}

/* Three parts of 400,000 entries each: the 1,000,001st entry, in the
 * third part, stops the reading. */
static void entries_cap(void)
{
	size_t n = 400000;
	char *list = malloc(n * 5 + 16);
	char *p = list;
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "relu,");
	p[-1] = '\0';
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "big/e%d.yaml", i);
		put(name, BLOCK "ops: [%s]\n", list);
	}
	free(list);
	put("big/top.yaml", GRAPH IMAGE
	    "ops:\n  - include: e0.yaml\n  - include: e1.yaml\n  - include: e2.yaml\n");
	struct loaded l;
	load(&l, "big/top.yaml", false);
	CHECK(l.load_rc == -1);
	CHECK_HAS(l.msgs, "e2.yaml:4:");
	CHECK_HAS(l.msgs, "the model's files hold more than 1000000 op entries");
	unload(&l);
}

/* ---- where an include may reach ---- */

static void include_rule(void)
{
	char other[] = "/tmp/gpuplan-model-other.XXXXXX";
	CHECK(mkdtemp(other) != NULL);
	char outside[1100], link[1100];
	snprintf(outside, sizeof(outside), "%s/block.yaml", other);
	FILE *f = fopen(outside, "w");
	fputs(BLOCK "ops: [relu]\n", f);
	fclose(f);
	put("rule/parts/b.yaml", BLOCK "ops: [relu]\n");
	put("rule/outside-sibling.yaml", BLOCK "ops: [relu]\n");
	snprintf(link, sizeof(link), "%s/rule/m/out-link.yaml", top);
	put("rule/m/placeholder", "%s", "");
	CHECK(symlink(outside, link) == 0);
	snprintf(link, sizeof(link), "%s/rule/m/null-link.yaml", top);
	CHECK(symlink("/dev/null", link) == 0);
	snprintf(link, sizeof(link), "%s/rule/m/in-link.yaml", top);
	CHECK(symlink("parts/b.yaml", link) == 0);
	put("rule/m/parts/b.yaml", BLOCK "ops: [relu]\n");
	snprintf(link, sizeof(link), "%s/rule/m/fifo.yaml", top);
	CHECK(mkfifo(link, 0600) == 0);
	snprintf(link, sizeof(link), "%s/rule/m/a-folder", top);
	CHECK(mkdir(link, 0700) == 0);

	static const struct { const char *include, *want; } t[] = {
		{"parts/b.yaml", NULL},		/* below the model's folder */
		{"in-link.yaml", NULL},		/* a link that stays inside */
		{"OUTSIDE", "is outside the model's folder"},
		{"../outside-sibling.yaml", "is outside the model's folder"},
		{"out-link.yaml", "is outside the model's folder"},
		{"null-link.yaml", "is outside the model's folder"},
		{"/dev/zero", "is outside the model's folder"},
		{"fifo.yaml", "included 'fifo.yaml' is a FIFO, not a model file"},
		{"a-folder", "included 'a-folder' is a folder, not a model file"},
		{"SHIPPED", NULL},		/* the shipped models folder */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char inc[1100];
		if (strcmp(t[i].include, "OUTSIDE") == 0)
			snprintf(inc, sizeof(inc), "%s", outside);
		else if (strcmp(t[i].include, "SHIPPED") == 0)
			snprintf(inc, sizeof(inc), "%s/profiles/models/parts/yolov5s-backbone.yaml",
				 GPUPLAN_SOURCE_DIR);
		else
			snprintf(inc, sizeof(inc), "%s", t[i].include);
		put("rule/m/model.yaml", GRAPH IMAGE "ops:\n  - include: %s\n", inc);
		struct loaded l;
		load(&l, "rule/m/model.yaml", false);
		CHECK((l.load_rc == 0) == (t[i].want == NULL));
		if (t[i].want)
			CHECK_HAS(l.msgs, t[i].want);
		else if (l.load_rc != 0)
			fprintf(stderr, "  include %s: %s", inc, l.msgs);
		unload(&l);
	}
	unlink(outside);
	rmdir(other);
}

/* ---- content that is not a model is never quoted ---- */

static void never_quoted(void)
{
	static const char *const files[] = {
		"root:x:0:0:SECRET-ROOT:/root:/bin/bash\ndaemon:x:1:1:SECRET-D:/usr/sbin:/bin/false\n",
		"services:\n  db:\n    environment:\n      SECRET_KEY: SECRET-VALUE\n",
		"- SECRET-ITEM\n- another\n",
		"schema: SECRET schema value\nSECRET_KEY: 1\n",
		"\x89PNG\r\n\x1a\n\xff\xfeSECRET-BINARY\n",
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUSECRET\n-----END OPENSSH PRIVATE KEY-----\n",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		put("quote/part.txt", "%s", files[i]);
		put("quote/model.yaml", GRAPH IMAGE "ops:\n  - include: part.txt\n");
		for (int as_root = 0; as_root < 2; as_root++) {
			struct loaded l;
			load(&l, as_root ? "quote/part.txt" : "quote/model.yaml", false);
			CHECK(l.load_rc == -1);
			CHECK(strstr(l.msgs, "SECRET") == NULL);
			if (strstr(l.msgs, "SECRET"))
				fprintf(stderr, "  quoted: %s", l.msgs);
			unload(&l);
		}
	}
}

/* ---- names ---- */

static void names(void)
{
	char long_name[300];
	memset(long_name, 'n', 257);
	long_name[257] = '\0';
	static const struct { const char *ops, *want; } t[] = {
		{"  - {conv: {out: 4, kernel: 1}, name: \"a\\tb\"}\n", "'name' holds a tab"},
		{"  - {conv: {out: 4, kernel: 1}, name: \"a\\nb\"}\n", "'name' holds a line break"},
		{"  - {conv: {out: 4, kernel: 1}, name: a}\n  - {relu: , from: \"a\\e[2J\"}\n",
		 "'from' holds an escape character"},
		{"  - {conv: {out: 4, kernel: 1}, name: a}\n  - add: {with: \"a\\u202e\"}\n",
		 "'with' holds a bidirectional override"},
		{"  - {residual: {ops: [relu]}, name: \"r\\x07\"}\n", "'name' holds"},
		{"  - {conv: {out: 4, kernel: 1}, name: LONG}\n", "'name' is too long: 257 bytes, at most 256"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char ops[1024];
		const char *p = strstr(t[i].ops, "LONG");
		if (p)
			snprintf(ops, sizeof(ops), "%.*s%s%s", (int)(p - t[i].ops),
				 t[i].ops, long_name, p + 4);
		else
			snprintf(ops, sizeof(ops), "%s", t[i].ops);
		put("names.yaml", GRAPH IMAGE "ops:\n%s", ops);
		struct loaded l;
		load(&l, "names.yaml", false);
		CHECK(l.load_rc == -1);
		CHECK_HAS(l.msgs, t[i].want);
		unload(&l);
	}
	put("names.yaml", "schema: gpuplan/model/v1\nname: \"x\\ty\"\nkind: graph\n" IMAGE "ops: [relu]\n");
	struct loaded l;
	load(&l, "names.yaml", false);
	CHECK_HAS(l.msgs, "names.yaml:2:9: 'name' holds a tab");
	unload(&l);
	long_name[256] = '\0';	/* 256 bytes: the most a name may have */
	put("names.yaml", GRAPH IMAGE "ops:\n  - {relu: , name: %s}\n", long_name);
	load(&l, "names.yaml", true);
	CHECK(l.build_rc == 0);
	unload(&l);
}

/* ---- named tensors ---- */

/* x is (4,8,8), then (2,8,8): the add after a third conv of 2 channels
 * matches only the later x. */
static void shadowing(void)
{
	put("shadow.yaml", GRAPH IMAGE
	    "ops:\n  - {conv: {out: 4, kernel: 1}, name: x}\n"
	    "  - {conv: {out: 2, kernel: 1}, name: x}\n"
	    "  - conv: {out: 2, kernel: 1}\n  - add: {with: x}\n"
	    "  - {conv: {out: 3, kernel: 1}, name: p3}\n  - add: {with: p4}\n");
	struct loaded l;
	load(&l, "shadow.yaml", true);
	CHECK(l.build_rc == -1);
	CHECK_HAS(l.msgs, "shadow.yaml:11:5: no tensor named 'p4' before this op (did you mean 'p3'?)");
	unload(&l);
	/* 20,000 named tensors, each added to the next: linear lookups. */
	size_t n = 20000;
	char *ops = malloc(n * 64);
	char *p = ops;
	p += sprintf(p, "  - {relu: , name: t0}\n");
	for (size_t i = 1; i < n; i++)
		p += sprintf(p, "  - {add: {with: t%zu}, name: t%zu}\n", i - 1, i);
	put("named.yaml", GRAPH IMAGE "ops:\n%s", ops);
	free(ops);
	load(&l, "named.yaml", true);
	CHECK(l.build_rc == 0 && l.g.n == n);
	unload(&l);
}

/* ---- quantities ---- */

static void tensor_bounds(void)
{
	static const struct { const char *text, *want; } t[] = {
		{"input: {channels: 1000000, height: 1000000, width: 2}\nops: [relu]\n",
		 "'input' has 2e+12 elements per sample, beyond the 1.1e+12"},
		/* (10^7, 10^6, 1): 10^13 elements */
		{"input: {channels: 1, height: 1000000, width: 1}\nops:\n  - conv: {out: 10000000, kernel: 1}\n",
		 "conv would make a tensor (10000000, 1000000, 1) of 1e+13 elements"},
		/* 10^6 x 10^7 weights */
		{"input: {tokens: 1, features: 1000000}\nops:\n  - linear: {out: 10000000}\n",
		 "linear would have 1e+13 weights"},
		/* 2^18 x 2^22 = 2^40 weights: exactly the bound, allowed */
		{"input: {tokens: 1, features: 262144}\nops:\n  - linear: {out: 4194304, bias: false}\n",
		 NULL},
		/* 2^18 x (2^22 + 1): one row of weights past it */
		{"input: {tokens: 1, features: 262144}\nops:\n  - linear: {out: 4194305, bias: false}\n",
		 "linear would have 1.1e+12 weights"},
		/* 1024 x 1024 x 1024 = 2^30, upsampled x32 each side: 2^40,
		 * allowed; x2 more: 2^42 */
		{"input: {channels: 1024, height: 1024, width: 1024}\nops:\n  - upsample: {scale: 32}\n",
		 NULL},
		{"input: {channels: 1024, height: 1024, width: 1024}\nops:\n  - upsample: {scale: 32}\n  - upsample: {scale: 2}\n",
		 "upsample would make a tensor of 4.4e+12 elements"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		put("bounds.yaml", GRAPH "%s", t[i].text);
		struct loaded l;
		load(&l, "bounds.yaml", true);
		CHECK(l.build_rc == (t[i].want ? -1 : 0));
		if (t[i].want)
			CHECK_HAS(l.msgs, t[i].want);
		unload(&l);
	}
}

/* llama-2-7b's widest tensor is its output head, 32,000 wide:
 * 2^40 / 32000 = 34,359,738.4 tokens at most; its score matrix, 32 heads
 * x S x S, holds S to sqrt(2^50 / 32) = 5,931,641.6 tokens. */
static void transformer_bounds(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/profiles/models/llama-2-7b.yaml",
		 GPUPLAN_SOURCE_DIR);
	struct model m;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(model_load(&m, path, &e) == 0);
	struct model_graph g;
	CHECK(model_build(&m, 5931641, &g, &e) == 0);
	model_graph_free(&g);
	CHECK(model_build(&m, 5931642, &g, &e) == -1);
	model_graph_free(&g);
	CHECK(model_build(&m, 34359739, &g, &e) == -1);
	model_graph_free(&g);
	struct loaded l;
	memset(&l, 0, sizeof(l));
	collect(&l, &e);
	CHECK_HAS(l.msgs, "sequence length 5931642 makes the attention score matrix of llama-2-7b 1.13e+15 elements per sample (32 heads x 5931642 x 5931642)");
	CHECK_HAS(l.msgs, "sequence length 34359739 makes the output head of llama-2-7b 1.1e+12 elements per sample");
	gp_errors_free(&e);
	model_free(&m);
	put("wide.yaml",
	    "schema: gpuplan/model/v1\nname: t\nkind: transformer\ntransformer:\n"
	    "  architecture: decoder\n  layers: 2\n  hidden: 4096\n  heads: 32\n"
	    "  ffn: 11008\n  ffn_kind: swiglu\n  vocab: 10000000\n  norm: rmsnorm\n"
	    "  positions: rope\n  max_seq: 1000000\n");
	load(&l, "wide.yaml", false);
	CHECK(l.load_rc == -1);
	CHECK_HAS(l.msgs, "wide.yaml:14:12: 'max_seq' makes the output head 1e+13 elements per sample");
	unload(&l);
}

int main(void)
{
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("GPUPLAN_DATA_DIR", GPUPLAN_SOURCE_DIR, 1);
	counts();
	shipped_counts();
	saturation();
	limit_boundary();
	read_once();
	depth_cap();
	files_cap();
	entries_cap();
	include_rule();
	never_quoted();
	names();
	shadowing();
	tensor_bounds();
	transformer_bounds();
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", top);
	return check_summary("model_input");
}
