/*
 * source_publisher.h - a source's title and URL must name the same
 * publisher.
 *
 * A title such as "Xinhua: central parity rates ..." tells the reader who
 * published the figure; a URL on some other host (a mirror, a proxy, a
 * scraper) is then a different publisher under that name.  The rule,
 * simple enough to test:
 *
 *   when the part of the title before its first ':' begins with a
 *   publisher of the table in source_publisher.c (whole words, case-
 *   blind: "Xinhua", "AWS", "Alibaba Cloud", "European Central Bank"...)
 *   and does not say "mirror", the URL's host must be one of that
 *   publisher's own domains or a subdomain of one.
 *
 * A title that begins with anything else (a repository, "skypilot-org/
 * skypilot-catalog ...") is not checked; one that says "(mirror)" is
 * honest about where it was read.  A source with a `document` and no URL
 * is not checked.  No memory is kept.
 */
#ifndef GPUPLAN_CATALOG_SOURCE_PUBLISHER_H
#define GPUPLAN_CATALOG_SOURCE_PUBLISHER_H

#include <stdbool.h>
#include <stddef.h>

/* True when title and url agree (or the rule does not apply); false with
 * the reason in why: "the title names Xinhua but the URL is on
 * www.example.com, not news.cn or xinhuanet.com". */
bool source_publisher_agrees(const char *title, const char *url, char *why,
			     size_t len);

#endif
