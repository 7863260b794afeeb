/* verdict: a verdict's causes (verdict.h). */
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const severity_names[SEV_COUNT] = { "ok", "info", "warn", "fail", "error" };

const VerdictCauseInfo verdict_causes[VC_COUNT] = {
#define VERDICT_CAUSE(id, ...) [VC_##id] = { .code = #id, __VA_ARGS__ },
#include "verdict_rows.h"
#undef VERDICT_CAUSE
};

_Static_assert(VC_COUNT <= 64, "the metrics rows carry the codes as the bits of a uint64_t");

/* The figures a row names. */
static size_t row_figures(VerdictCode code)
{
	size_t n = 0;
	while (n < VC_FIGURES && verdict_causes[code].fig[n])
		n++;
	return n;
}

void verdict_add(Causes *cs, bool first, VerdictCode code, const double *figs, const char *fmt, ...)
{
	if (code < 0 || code >= VC_COUNT)
		return;
	Cause c = { .code = code };
	size_t nf = row_figures(code);
	for (size_t k = 0; k < VC_FIGURES; k++)
		c.fig[k] = figs && k < nf ? figs[k] : NAN;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c.text, sizeof c.text, fmt, ap);
	va_end(ap);
	if (cs->n == VC_MAX) {
		/* full: the least severe of the list makes room, unless the new one is
		 * less severe still */
		size_t least = 0;
		for (size_t k = 1; k < cs->n; k++)
			if (verdict_causes[cs->c[k].code].sev <= verdict_causes[cs->c[least].code].sev)
				least = k;
		if (verdict_causes[cs->c[least].code].sev > verdict_causes[code].sev)
			return;
		memmove(&cs->c[least], &cs->c[least + 1], (cs->n - least - 1) * sizeof cs->c[0]);
		cs->n--;
	}
	if (first) {
		memmove(&cs->c[1], &cs->c[0], cs->n * sizeof cs->c[0]);
		cs->c[0] = c;
	} else {
		cs->c[cs->n] = c;
	}
	cs->n++;
}

void verdict_drop(Causes *cs, VerdictCode code)
{
	size_t m = 0;
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].code != code)
			cs->c[m++] = cs->c[k];
	cs->n = m;
}

bool verdict_has(const Causes *cs, VerdictCode code)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].code == code)
			return true;
	return false;
}

/* The strings of each cause joined with sep into out (cut whole where it
 * fills). */
static void join(const Causes *cs, bool codes, const char *sep, char *out, size_t len)
{
	if (!len)
		return;
	out[0] = '\0';
	size_t n = 0;
	for (size_t k = 0; k < cs->n && n < len; k++) {
		const char *s = codes ? verdict_causes[cs->c[k].code].code : cs->c[k].text;
		if (!s[0])
			continue;
		int w = snprintf(out + n, len - n, "%s%s", n ? sep : "", s);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void verdict_text(const Causes *cs, char *out, size_t len)
{
	join(cs, false, "; ", out, len);
}

void verdict_codes(const Causes *cs, const char *sep, char *out, size_t len)
{
	join(cs, true, sep, out, len);
}

uint64_t verdict_code_bits(const Causes *cs)
{
	uint64_t b = 0;
	for (size_t k = 0; k < cs->n; k++)
		b |= (uint64_t)1 << cs->c[k].code;
	return b;
}

Severity verdict_worst(const Causes *cs)
{
	Severity w = SEV_OK;
	for (size_t k = 0; k < cs->n; k++)
		if (verdict_causes[cs->c[k].code].sev > w)
			w = verdict_causes[cs->c[k].code].sev;
	return w;
}

int verdict_find(const char *code)
{
	for (int k = 0; k < VC_COUNT; k++)
		if (!strcmp(verdict_causes[k].code, code))
			return k;
	return -1;
}
