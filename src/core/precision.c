#include "precision.h"

#include <string.h>

static const char *const names[PREC_COUNT] = {
	"fp64", "fp64_tensor", "fp32", "tf32", "fp16", "bf16", "fp8", "int8",
};

static const int bytes[PREC_COUNT] = {8, 8, 4, 4, 2, 2, 1, 1};

const char *precision_name(enum precision p)
{
	return names[p];
}

int precision_from_name(const char *name)
{
	for (int p = 0; p < PREC_COUNT; p++)
		if (strcmp(name, names[p]) == 0)
			return p;
	return -1;
}

bool precision_is_integer(enum precision p)
{
	return p == PREC_INT8;
}

int precision_bytes(enum precision p)
{
	return bytes[p];
}

int precision_training_activation_bytes(enum precision p)
{
	return p == PREC_FP8 ? precision_bytes(PREC_BF16) : precision_bytes(p);
}
