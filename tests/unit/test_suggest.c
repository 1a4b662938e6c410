/* Did-you-mean: edit distances computed by hand, and the cut-off. */
#include "check.h"
#include "core/suggest.h"

int main(void)
{
	CHECK(edit_distance("", "") == 0);
	CHECK(edit_distance("gpus", "gpus") == 0);
	CHECK(edit_distance("gpu_cout", "gpu_count") == 1);	/* insertion */
	CHECK(edit_distance("gpu_cuont", "gpu_count") == 1);	/* swap */
	CHECK(edit_distance("kitten", "sitting") == 3);
	CHECK(edit_distance("GPUS", "gpus") == 0);		/* case-blind */

	const char *const keys[] = {"name", "gpus", "vcpus", "memory", "price",
				    NULL};
	CHECK_STR(suggest_nearest("gpu", keys, (size_t)-1), "gpus");
	CHECK_STR(suggest_nearest("memroy", keys, (size_t)-1), "memory");
	CHECK_STR(suggest_nearest("prise", keys, 5), "price");
	CHECK(suggest_nearest("accelerator", keys, 5) == NULL);	/* too far */
	CHECK(suggest_nearest("x", keys, 5) == NULL);

	char buf[64];
	CHECK_STR(suggest_hint("vcpu", keys, 5, buf, sizeof(buf)),
		  "did you mean 'vcpus'?");
	return check_summary("suggest");
}
