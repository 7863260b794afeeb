#include "procs.h"

#include <limits.h>
#include <errno.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A "KEY:\tVALUE [UNIT]" line's value in bytes (or ns: no unit). */
static double scaled(const char *v)
{
	char *end;
	double x = strtod(v, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	double k = !strncmp(end, "KiB", 3) ? 1024.0 : !strncmp(end, "MiB", 3) ? 1048576.0
	         : !strncmp(end, "GiB", 3) ? 1073741824.0 : 1.0;
	return x * k;
}

bool procs_drm_client(const char *text, const char *pdev, DrmClient *c)
{
	bool dev = false, has_id = false;
	c->id = 0;
	c->engine_ns = 0;
	c->mem_bytes = NAN;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *colon = strchr(l, ':'), *nl = strchr(l, '\n');
		if (!colon || (nl && colon > nl))
			continue;
		size_t klen = (size_t)(colon - l);
		const char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (klen == 8 && !strncmp(l, "drm-pdev", 8)) {
			size_t n = strlen(pdev);
			dev = !strncmp(v, pdev, n) && (v[n] == '\n' || v[n] == '\0' || v[n] == ' ');
		} else if (klen == 13 && !strncmp(l, "drm-client-id", 13)) {
			c->id = strtoull(v, NULL, 10);
			has_id = true;
		} else if (klen > 11 && !strncmp(l, "drm-engine-", 11) && strncmp(l, "drm-engine-capacity-", 20)) {
			c->engine_ns += scaled(v);
		} else if ((klen == 15 && !strncmp(l, "drm-memory-vram", 15)) ||
		           (klen > 17 && !strncmp(l, "drm-resident-vram", 17)) ||
		           (klen > 18 && !strncmp(l, "drm-resident-local", 18))) {
			c->mem_bytes = (isnan(c->mem_bytes) ? 0 : c->mem_bytes) + scaled(v);
		}
	}
	return dev && has_id;
}

const char *const procs_kind_names[] = { "-", "compute", "graphics", "both" };
const char *const procs_col_names[PROC_COL_COUNT] = { "pid", "user", "type", "GPU util", "GPU memory", "command" };

/* a before b (ascending), unknown figures last */
static int cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return a < b ? -1 : a > b;
}

static int cmp_col(const ProcInfo *a, const ProcInfo *b, ProcCol col)
{
	switch (col) {
	case PROC_COL_USER: return strcmp(a->user, b->user);
	case PROC_COL_KIND: return (int)a->kind - (int)b->kind;
	case PROC_COL_UTIL: return cmp_num(a->sm_pct, b->sm_pct);
	case PROC_COL_MEM: return cmp_num(a->mem_bytes, b->mem_bytes);
	case PROC_COL_CMD: return strcmp(a->cmd[0] ? a->cmd : a->name, b->cmd[0] ? b->cmd : b->name);
	default: return (a->pid > b->pid) - (a->pid < b->pid);
	}
}

void procs_sort(ProcInfo *p, size_t n, ProcCol col, bool descending)
{
	/* insertion: a table of at most PROCS_SHOWN rows, stable */
	for (size_t i = 1; i < n; i++) {
		ProcInfo x = p[i];
		size_t j = i;
		for (; j > 0; j--) {
			const ProcInfo *y = &p[j - 1];
			bool unknown_x = (col == PROC_COL_UTIL && isnan(x.sm_pct)) || (col == PROC_COL_MEM && isnan(x.mem_bytes));
			bool unknown_y = (col == PROC_COL_UTIL && isnan(y->sm_pct)) || (col == PROC_COL_MEM && isnan(y->mem_bytes));
			int c = cmp_col(y, &x, col);
			if (descending && !unknown_x && !unknown_y)
				c = -c;
			if (c == 0)
				c = y->pid > x.pid ? 1 : -1;
			if (c <= 0)
				break;
			p[j] = p[j - 1];
		}
		p[j] = x;
	}
}

bool procs_stat_ended(const char *stat_line)
{
	const char *close = strrchr(stat_line, ')');
	return close && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

bool procs_stat_start(const char *stat_line, unsigned long long *start)
{
	const char *p = strrchr(stat_line, ')');
	if (!p)
		return false;
	/* field 3 (the state) follows the name; the start time is field 22 */
	for (int field = 2; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return false;
	}
	char *end;
	errno = 0;
	*start = strtoull(p + 1, &end, 10);
	return end != p + 1 && (*end == ' ' || *end == '\0' || *end == '\n') && errno == 0;
}

bool procs_may_signal(long self, long euid, long target, char *why, size_t len)
{
	if (euid == 0 || (target >= 0 && target == self))
		return true;
	if (target < 0)
		snprintf(why, len, "its owner is unknown: only root may end it");
	else
		snprintf(why, len, "another user's process (uid %ld): only root may end it", target);
	return false;
}

double procs_table_mem(const ProcTable *t)
{
	if (t->foreign || t->n != t->total)
		return NAN;
	double sum = 0;
	for (unsigned k = 0; k < t->n; k++)
		sum += t->p[k].mem_bytes; /* NaN where one is unknown: the sum is */
	return sum;
}

void procs_table_describe(const ProcTable *t, char *out, size_t len)
{
	unsigned pids[PROCS_SHOWN];
	const char *names[PROCS_SHOWN];
	for (unsigned k = 0; k < t->n && k < PROCS_SHOWN; k++) {
		pids[k] = t->p[k].pid;
		names[k] = t->p[k].name;
	}
	procs_describe(pids, names, t->n, t->total, out, len);
}

void procs_line(const ProcInfo *p, char *out, size_t len)
{
	int n = snprintf(out, len, "%u%s%s", p->pid, p->name[0] ? " " : "", p->name);
	if (p->user[0] && n >= 0 && (size_t)n < len)
		n += snprintf(out + n, len - (size_t)n, " (%s)", p->user);
	if (isfinite(p->sm_pct) && n >= 0 && (size_t)n < len)
		n += snprintf(out + n, len - (size_t)n, " util %.0f%%", p->sm_pct);
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

bool procs_lock_holder(const char *line, unsigned dev_major, unsigned dev_minor, unsigned long long ino,
                       unsigned *pid)
{
	char kind[16], advice[16], mode[16];
	long p;
	unsigned a, b;
	unsigned long long i;
	/* a waiter's "->" takes kind's place: the pid then reads a word */
	if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%llu", kind, advice, mode, &p, &a, &b, &i) != 7)
		return false;
	if (strcmp(kind, "FLOCK") || a != dev_major || b != dev_minor || i != ino || p <= 0 || p > (long)UINT_MAX)
		return false;
	*pid = (unsigned)p;
	return true;
}
