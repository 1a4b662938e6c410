/*
 * num_format.h - a double as the shortest decimal that reads back exactly.
 *
 * JSON (output.c) and YAML (the profile, fitted and run writers) print
 * numbers through here, so 0.05 is written "0.05", not
 * "0.050000000000000003" (%.17g) or a rounded "0.0500000000000000" that
 * reads back as another double (%.15g of 0.1 + 0.2).  The text is the
 * shortest %.Ng (N = 1..17) that strtod turns back into the same bits;
 * -0.0 keeps its sign.  Not finite values are the caller's to refuse
 * (JSON has no NaN); here they print as %g does.
 *
 * Ownership: the text goes into the caller's buffer; NUM_SHORTEST() gives
 * a buffer that lives to the end of the enclosing statement's block.
 */
#ifndef GPUPLAN_CORE_NUM_FORMAT_H
#define GPUPLAN_CORE_NUM_FORMAT_H

#include <stddef.h>

/* "-2.2250738585072014e-308" is 24 characters; room to spare. */
#define NUM_SHORTEST_MAX 32

/* Writes the shortest round-trip text of v into buf (at least
 * NUM_SHORTEST_MAX bytes) and returns buf. */
char *num_shortest(double v, char *buf);

/* The same for a number JSON reads as a real: an exponent without '+' or
 * leading zeros (1e300, 1e-5), and ".0" after a whole number so that it
 * does not read back as an integer (jansson's own conventions). */
char *num_shortest_json(double v, char *buf);

/*
 * The same digits in plain decimal, never an exponent (a CSV cell a
 * spreadsheet reads as a number): 1.5e+20 as "150000000000000000000",
 * 1e-7 as "0.0000001".  A double's plain form is at most 330 characters
 * (5e-324), hence NUM_PLAIN_MAX.
 */
#define NUM_PLAIN_MAX 400
char *num_plain(double v, char *buf);

/* For printf arguments: fprintf(f, "x: %s\n", NUM_SHORTEST(x)). */
#define NUM_SHORTEST(v) num_shortest((v), (char[NUM_SHORTEST_MAX]){0})

#endif
