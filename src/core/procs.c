#include "procs.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

void procs_line(const ProcInfo *p, char *out, size_t len)
{
	int n = snprintf(out, len, "%u%s%s", p->pid, p->name[0] ? " " : "", p->name);
	if (p->user[0] && n >= 0 && (size_t)n < len)
		n += snprintf(out + n, len - (size_t)n, " (%s)", p->user);
	if (isfinite(p->sm_pct) && n >= 0 && (size_t)n < len)
		n += snprintf(out + n, len - (size_t)n, " SM util %.0f%%", p->sm_pct);
	if (isfinite(p->mem_bytes) && n >= 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, " %.1f GiB", p->mem_bytes / (1024.0 * 1024 * 1024));
}

size_t procs_others(const unsigned *pids, size_t n, unsigned self, unsigned *out, size_t cap)
{
	size_t k = 0, total = 0;
	for (size_t i = 0; i < n; i++) {
		if (pids[i] == self)
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = pids[j] == pids[i];
		if (seen)
			continue;
		total++;
		/* the smallest cap of them, in order (insertion) */
		if (k == cap && cap && pids[i] < out[cap - 1])
			k--; /* the largest kept gives way */
		if (k < cap) {
			size_t at = k++;
			while (at > 0 && out[at - 1] > pids[i]) {
				out[at] = out[at - 1];
				at--;
			}
			out[at] = pids[i];
		}
	}
	return total;
}

void procs_describe(const unsigned *pids, const char *const *names, size_t n, size_t total, char *out,
                    size_t len)
{
	if (!len)
		return;
	out[0] = '\0';
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		char one[64], more[32] = "";
		const char *name = names && names[i] ? names[i] : "";
		snprintf(one, sizeof one, "%s%u%s%.40s", i ? ", " : "", pids[i], name[0] ? " " : "", name);
		size_t rest = total - i - 1;
		if (rest)
			snprintf(more, sizeof more, " and %zu more", rest);
		/* this one, and room for saying how many more there are */
		if (w + strlen(one) + strlen(more) >= len) {
			snprintf(out + w, len - w, " and %zu more", total - i);
			return;
		}
		w += (size_t)snprintf(out + w, len - w, "%s", one);
	}
	if (total > n && w < len)
		snprintf(out + w, len - w, " and %zu more", total - n);
}
