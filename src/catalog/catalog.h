/*
 * catalog.h - accelerator datasheets, rentable instances and exchange rates.
 *
 * The catalog is what the planner prices against, so every figure in it keeps
 * its source and the place (file:line) it was read from.  Values are SI
 * (bytes, bytes/s, FLOP/s, W); money keeps its currency.  The file format is
 * described in catalogs/README.md; loading is strict (see catalog_load()).
 *
 * Ownership: a struct catalog owns everything it holds; instances point at
 * accelerators inside the same catalog.  Free with catalog_free().
 */
#ifndef GPUPLAN_CATALOG_CATALOG_H
#define GPUPLAN_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/precision.h"
#include "core/provenance.h"
#include "core/units.h"

#define CATALOG_SCHEMA "gpuplan/catalog/v1"

enum link_kind { LINK_NONE, LINK_PCIE, LINK_NVLINK, LINK_NVSWITCH };
const char *link_kind_name(enum link_kind k);

struct link {
	enum link_kind kind;
	int generation;		/* 0 when not given */
	int lanes;		/* PCIe lanes; 0 when not given */
	double bandwidth;	/* B/s, bidirectional total; 0 for none */
};

struct mig_profile {
	char *profile;		/* "1g.10gb" */
	double memory;		/* B */
	int max_instances;
};

struct accelerator {
	char *name, *vendor, *architecture, *form_factor, *memory_type, *notes;
	double memory;			/* B, as the datasheet states it */
	double memory_reported;		/* B the device reports (nvidia-smi's
					 * memory.total); 0: not given */
	double memory_bandwidth;	/* B/s */
	double peak[PREC_COUNT];	/* dense op/s; valid where has_peak */
	bool has_peak[PREC_COUNT];
	bool lacks[PREC_COUNT];		/* no such format in hardware (`lacks:`);
					 * a precision neither here nor in
					 * has_peak has no sourced peak */
	struct link interconnect;	/* GPU to GPU */
	struct link host_interface;	/* GPU to host */
	double tdp;			/* W */
	long sms;			/* streaming multiprocessors; 0: not given */
	double sustained_fraction;	/* share of the datasheet clock the part
					 * holds under full tensor load at its
					 * power limit; 0: not given (1) */
	/* `matmul_ceiling:` the share of the dense peak a large GEMM with
	 * random inputs reaches on this part, by precision, measured (the
	 * entry's notes and sources say where); 0: not measured (the
	 * planner's default ceiling, hwmodel/efficiency.h) */
	double matmul_ceiling[PREC_COUNT];
	struct mig_profile *mig;
	size_t n_mig;
	bool illustrative;
	struct sources sources;
	struct origin at;
};

struct purchase {
	struct money price;		/* whole machine */
	double lifetime;		/* s */
	struct money power_price;	/* per kWh */
	double pue;			/* facility power / IT power */
	double host_power;		/* W, besides the GPUs */
};

struct instance {
	char *name, *provider, *region, *notes, *as_of;
	/* What outputs call it (instance_key.h): label is unique in the
	 * catalog (the bare name unless another region sells it too);
	 * shown is what a plan's tables print (the name, or REGION/NAME
	 * when its options span regions).  Set by
	 * catalog_label_instances(). */
	char *label, *shown;
	char *accelerator_name;
	struct origin accelerator_at;	/* where the name was written */
	const struct accelerator *acc;	/* resolved; NULL only on error */
	int gpus, vcpus;
	double memory;			/* host RAM, B */
	struct link intra;		/* kind and bandwidth only */
	double network_bandwidth;	/* B/s, the node's total over all NICs */
	int network_nics;		/* NICs the bandwidth is spread over, >= 1 */
	bool network_rdma;		/* RDMA (InfiniBand, RoCE, EFA) */
	bool network_gpudirect;		/* GPUDirect RDMA: NICs read and write
					 * GPU memory without a host copy */
	char *network_name;		/* may be NULL */
	struct money on_demand;		/* per hour, whole instance */
	bool has_spot;
	struct money spot;		/* per hour */
	char *spot_as_of;		/* the date of the spot price, which
					 * moves daily; set with has_spot */
	bool owned;			/* on-premises: on_demand is derived */
	struct purchase purchase;	/* valid when owned */
	bool illustrative;
	struct sources sources;
	struct origin at;
};

struct rate {
	char code[4];
	double per_base;	/* units of code per one unit of base */
};

struct exchange_rates {
	bool present;
	char base[4];
	char *as_of;
	struct rate *v;		/* in file order (as printed) */
	size_t n;
	struct rate *sorted;	/* the same by code, for lookups */
	struct sources sources;
	struct origin at;
};

/* Orders rates by currency code (fx->sorted; bsearch with it too). */
int rate_by_code(const void *a, const void *b);

struct catalog {
	struct accelerator *acc;
	size_t n_acc, cap_acc;
	struct instance *inst;
	size_t n_inst, cap_inst;
	struct exchange_rates fx;
	char **files;		/* every file loaded, in load order */
	size_t n_files;
};

void catalog_init(struct catalog *c);
void catalog_free(struct catalog *c);

/*
 * Loads the given files together (see catalogs/README.md for the rule on
 * shipped accelerators and exchange rates, applied when data_dir is not
 * NULL).  Every problem in every file is added to errs; returns 0 when
 * there were none, -1 otherwise (the catalog may then be partly filled and
 * must not be used, only freed).
 */
int catalog_load(struct catalog *c, const char *const *paths, size_t n,
		 const char *data_dir, struct gp_errors *errs);

/* Loads every *.yaml file of DATA_DIR/catalogs, in name order. */
int catalog_load_shipped(struct catalog *c, const char *data_dir,
			 struct gp_errors *errs);

/*
 * The memory the planner fits work into: what the device reports where the
 * catalog gives it (80GB on the datasheet is 81,559 MiB on an H100 SXM),
 * else the datasheet figure.  B.
 */
double accelerator_memory_capacity(const struct accelerator *a);

/*
 * The dense peak the part sustains at precision p (op/s): a tensor-core
 * precision's datasheet peak times the sustained clock fraction where the
 * catalog gives one (a 70 W T4 cannot hold its boost clock under tensor
 * load); fp32 and fp64 (no tensor cores) as the datasheet gives them.  0
 * when the catalog has no peak for p.
 */
double accelerator_sustained_peak(const struct accelerator *a,
				  enum precision p);

const struct accelerator *catalog_find_accelerator(const struct catalog *c,
						   const char *name);
/* Instances are found by what a person calls them in instance_key.h
 * (catalog_find_instance, catalog_lookup_instance). */

/* Hourly cost of owning an instance, straight-line over its life, running
 * flat out: price / lifetime + (gpus x tdp + host power) x PUE x power
 * price.  Money in the purchase currency. */
struct money catalog_owning_cost_per_hour(const struct instance *inst);

/*
 * Converts m into currency `to` with the catalog's dated rates.  Returns 0,
 * or -1 with a reason when either currency has no rate.
 */
/* catalog_convert, saying in why where the amount was written (at, a
 * file position) and what it is ("instance 'p5.48xlarge' is priced"). */
int catalog_convert_at(const struct catalog *c, const struct money *m,
		       const char *to, const struct origin *at,
		       const char *what, struct money *out, char *why,
		       size_t len);
int catalog_convert(const struct catalog *c, const struct money *m,
		    const char *to, struct money *out, char *why, size_t len);

#endif
