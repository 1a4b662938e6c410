/*
 * png_out.h - a cairo image surface as PNG bytes, fast.
 *
 * cairo_surface_write_to_png lets libpng try every row filter and
 * compress at zlib's default level: 85% of a report's time went there
 * (perf, 28 charts at 1600 x 1000).  Charts are flat colour with
 * anti-aliased edges, so one filter (Up) and zlib's fastest level give
 * files about as small three times faster.  The bytes depend only on the pixels: same chart, same file.
 */
#ifndef GPUPLAN_REPORT_PNG_OUT_H
#define GPUPLAN_REPORT_PNG_OUT_H

#include <cairo.h>
#include <stddef.h>

/* Encodes an RGB24 or ARGB32 image surface (alpha dropped: charts are
 * drawn on white).  Returns malloc'd bytes and their count in *len, or
 * NULL with a reason in why. */
unsigned char *png_encode(cairo_surface_t *image, size_t *len, char *why,
			  size_t why_len);

#endif
