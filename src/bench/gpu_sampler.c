/* gpu_sampler.c - being written; see gpu_sampler.h. */
#include "bench/gpu_sampler.h"
