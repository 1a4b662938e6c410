/* cpu_program.c - being written; see cpu_program.h. */
#include "bench/cpu_program.h"
