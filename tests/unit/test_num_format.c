/* Shortest round-trip numbers: each expected text worked out by hand from
 * the double's exact value (Python's repr() gives the same shortest form). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/num_format.h"

static void check_round_trip(double v)
{
	char buf[NUM_SHORTEST_MAX];
	num_shortest(v, buf);
	double back = strtod(buf, NULL);
	CHECK(back == v && signbit(back) == signbit(v));
	num_shortest_json(v, buf);
	back = strtod(buf, NULL);
	CHECK(back == v && signbit(back) == signbit(v));
}

int main(void)
{
	char buf[NUM_SHORTEST_MAX];
	CHECK_STR(num_shortest(0.05, buf), "0.05");
	CHECK_STR(num_shortest(0.1 + 0.2, buf), "0.30000000000000004");
	CHECK_STR(num_shortest(0.3, buf), "0.3");
	CHECK_STR(num_shortest(1e-300, buf), "1e-300");
	CHECK_STR(num_shortest(5e-324, buf), "5e-324");
	CHECK_STR(num_shortest(DBL_MAX, buf), "1.7976931348623157e+308");
	CHECK_STR(num_shortest(-0.0, buf), "-0");
	CHECK_STR(num_shortest(0.0, buf), "0");
	CHECK_STR(num_shortest(42.0, buf), "42");
	CHECK_STR(num_shortest(-7.0, buf), "-7");
	CHECK_STR(num_shortest(123456789012345680.0, buf), "1.2345678901234568e+17");
	CHECK_STR(num_shortest(2.0 / 3.0, buf), "0.6666666666666666");
	CHECK_STR(num_shortest(1.0 / 3.0, buf), "0.3333333333333333");
	CHECK_STR(num_shortest(32.77, buf), "32.77");

	/* JSON: a real stays a real, the exponent is tidied */
	CHECK_STR(num_shortest_json(0.05, buf), "0.05");
	CHECK_STR(num_shortest_json(1e-300, buf), "1e-300");
	CHECK_STR(num_shortest_json(5e-324, buf), "5e-324");
	CHECK_STR(num_shortest_json(DBL_MAX, buf), "1.7976931348623157e308");
	CHECK_STR(num_shortest_json(-0.0, buf), "-0.0");
	CHECK_STR(num_shortest_json(42.0, buf), "42.0");
	CHECK_STR(num_shortest_json(1e-5, buf), "1e-5");
	CHECK_STR(num_shortest_json(123456789012345680.0, buf), "1.2345678901234568e17");

	/* plain decimal: the same digits, no exponent */
	char plain[NUM_PLAIN_MAX];
	CHECK_STR(num_plain(46.25, plain), "46.25");
	CHECK_STR(num_plain(1.5e20, plain), "150000000000000000000");
	CHECK_STR(num_plain(-1.25e17, plain), "-125000000000000000");
	CHECK_STR(num_plain(1.2345e18, plain), "1234500000000000000");
	CHECK_STR(num_plain(1e-7, plain), "0.0000001");
	CHECK_STR(num_plain(-2.5e-6, plain), "-0.0000025");
	CHECK_STR(num_plain(0.1 + 0.2, plain), "0.30000000000000004");
	CHECK_STR(num_plain(1e16, plain), "10000000000000000");
	CHECK(strlen(num_plain(5e-324, plain)) == 326);	/* "0.", 323 zeros, "5" */
	CHECK(strtod(num_plain(DBL_MAX, plain), NULL) == DBL_MAX);
	CHECK(strtod(num_plain(5e-324, plain), NULL) == 5e-324);

	/* the macro gives each argument its own buffer */
	char line[128];
	snprintf(line, sizeof(line), "%s %s", NUM_SHORTEST(0.5), NUM_SHORTEST(0.25));
	CHECK_STR(line, "0.5 0.25");

	const double values[] = {0.05, 0.1 + 0.2, 1e-300, 5e-324, DBL_MAX, -0.0,
				 DBL_MIN, 1e23, 9007199254740993.0, 3.141592653589793, -1e-310};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		check_round_trip(values[i]);
	return check_summary("num_format");
}
