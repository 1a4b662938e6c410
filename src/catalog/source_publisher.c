/*
 * source_publisher.c - the publishers a source title may name and the
 * hosts each publishes from; see source_publisher.h.
 */
#include "source_publisher.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

struct publisher {
	const char *name;		/* as a title begins with it */
	const char *domains[4];		/* its own hosts, NULL-terminated */
};

/* Publishers of figures this catalog cites (prices, datasheets, rates).
 * Longer names first where one begins another ("Alibaba Cloud" before
 * "Alibaba"). */
static const struct publisher publishers[] = {
	{"Xinhua", {"news.cn", "xinhuanet.com", NULL}},
	{"CFETS", {"chinamoney.com.cn", NULL}},
	{"China Foreign Exchange Trade System", {"chinamoney.com.cn", NULL}},
	{"PBOC", {"pbc.gov.cn", NULL}},
	{"People's Bank of China", {"pbc.gov.cn", NULL}},
	{"ECB", {"ecb.europa.eu", NULL}},
	{"European Central Bank", {"ecb.europa.eu", NULL}},
	{"Federal Reserve", {"federalreserve.gov", NULL}},
	{"NVIDIA", {"nvidia.com", NULL}},
	{"AWS", {"amazon.com", "amazonaws.com", "awsstatic.com", NULL}},
	{"Amazon", {"amazon.com", "amazonaws.com", "awsstatic.com", NULL}},
	{"Google Cloud", {"google.com", NULL}},
	{"Microsoft", {"microsoft.com", "azure.com", NULL}},
	{"Azure", {"microsoft.com", "azure.com", NULL}},
	{"Alibaba Cloud", {"alibabacloud.com", "aliyun.com", NULL}},
	{"Aliyun", {"alibabacloud.com", "aliyun.com", NULL}},
	{"Tencent Cloud", {"tencent.com", "tencentcloud.com", NULL}},
	{"Huawei Cloud", {"huaweicloud.com", NULL}},
};

/* Whether text begins with word followed by a word boundary. */
static bool begins_with_word(const char *text, size_t len, const char *word)
{
	size_t n = strlen(word);
	if (n > len || strncasecmp(text, word, n) != 0)
		return false;
	if (n == len)
		return true;
	char next = text[n];
	return !(next >= 'a' && next <= 'z') && !(next >= 'A' && next <= 'Z') &&
	       !(next >= '0' && next <= '9') && next != '-' && next != '/';
}

static bool contains_nocase(const char *text, size_t len, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp(text + i, word, n) == 0)
			return true;
	return false;
}

/* The host of url ("https://user@host:port/path" -> host) into buf. */
static const char *url_host(const char *url, char *buf, size_t len)
{
	const char *p = strstr(url, "://");
	p = p ? p + 3 : url;
	size_t n = strcspn(p, "/?#");
	const char *at = memchr(p, '@', n);
	if (at) {
		n -= (size_t)(at + 1 - p);
		p = at + 1;
	}
	size_t colon = strcspn(p, ":");
	if (colon < n)
		n = colon;
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

/* host is domain or ends with ".domain". */
static bool host_in(const char *host, const char *domain)
{
	size_t h = strlen(host), d = strlen(domain);
	if (h == d)
		return strcasecmp(host, domain) == 0;
	return h > d && host[h - d - 1] == '.' &&
	       strcasecmp(host + h - d, domain) == 0;
}

static void say_domains(const struct publisher *p, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; p->domains[i] && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s",
				 i == 0 ? "" : p->domains[i + 1] ? ", " : " or ",
				 p->domains[i]);
		at += w > 0 ? (size_t)w : 0;
	}
}

bool source_publisher_agrees(const char *title, const char *url, char *why,
			     size_t len)
{
	if (!title || !url)
		return true;
	const char *colon = strchr(title, ':');
	if (!colon)
		return true;
	size_t n = (size_t)(colon - title);
	if (contains_nocase(title, n, "mirror"))
		return true;
	for (size_t i = 0; i < sizeof(publishers) / sizeof(*publishers); i++) {
		const struct publisher *p = &publishers[i];
		if (!begins_with_word(title, n, p->name))
			continue;
		char host[256], own[160];
		url_host(url, host, sizeof(host));
		for (int d = 0; p->domains[d]; d++)
			if (host_in(host, p->domains[d]))
				return true;
		say_domains(p, own, sizeof(own));
		snprintf(why, len,
			 "the source title names %s but its URL is on %s, not %s",
			 p->name, host[0] ? host : "no host", own);
		return false;
	}
	return true;
}
