#include "fmt.h"

#include <ctype.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char PREFIX_UP[] = { 0, 'k', 'M', 'G', 'T', 'P' };
static const char PREFIX_DOWN[] = { 0, 'm', 'u', 'n' };

char *fmt_si(double v, char *out, size_t len)
{
	if (isnan(v)) {
		snprintf(out, len, "NaN ");
		return out;
	}
	if (isinf(v)) {
		snprintf(out, len, "%sinf ", v < 0 ? "-" : "");
		return out;
	}
	if (v == 0.0) {
		snprintf(out, len, "0.00 ");
		return out;
	}
	const char *sign = v < 0 ? "-" : "";
	double a = fabs(v);

	/* Round to three significant digits first, so 999.6 becomes 1000 and
	 * then takes the next prefix instead of printing "1000". */
	int d = (int)floor(log10(a));
	double scale = pow(10.0, 2 - d);
	double r = round(a * scale) / scale;
	d = (int)floor(log10(r) + 1e-12);

	int group = d >= 0 ? d / 3 : -((-d + 2) / 3);
	int max_up = (int)sizeof PREFIX_UP - 1;
	int max_down = (int)sizeof PREFIX_DOWN - 1;
	if (group > max_up || group < -max_down) {
		/* Outside k..P / n..m: keep the extreme prefix and let %g carry
		 * the magnitude rather than print a misleading three digits. */
		int g = group > 0 ? max_up : -max_down;
		double s = r / pow(1000.0, g);
		char p = g > 0 ? PREFIX_UP[g] : PREFIX_DOWN[-g];
		snprintf(out, len, "%s%.3g %c", sign, s, p);
		return out;
	}
	double s = r / pow(1000.0, group);
	int digits = d - 3 * group; /* 0, 1 or 2 digits before the point, minus one */
	int decimals = 2 - digits;
	char p = group > 0 ? PREFIX_UP[group] : group < 0 ? PREFIX_DOWN[-group] : 0;
	if (p)
		snprintf(out, len, "%s%.*f %c", sign, decimals, s, p);
	else
		snprintf(out, len, "%s%.*f ", sign, decimals, s);
	return out;
}

char *fmt_axis(double v, const char *unit, char *out, size_t len)
{
	char a[FMT_SI_LEN];
	if (v == 0.0)
		snprintf(out, len, "0 %s", unit);
	else if (!*unit && fabs(v) < 99999.5 && fabs(v - round(v)) < 1e-9 * fabs(v) + 1e-12)
		snprintf(out, len, "%.0f", v);
	else
		snprintf(out, len, "%s%s", fmt_si(v, a, sizeof a), unit);
	/* a count's prefix without a unit after it: no trailing space */
	size_t n = strlen(out);
	if (n && out[n - 1] == ' ')
		out[n - 1] = 0;
	return out;
}

const char *fmt_as_above(const char *why, char *prev, size_t len)
{
	bool same = why && *why && !strcmp(why, prev);
	snprintf(prev, len, "%s", why ? why : "");
	return same ? "as above" : why;
}

/* Length of the UTF-8 sequence at s (2..4), 0 when it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) /* overlong */
		return 0;
	if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) /* U+D800..U+DFFF: UTF-16 surrogates */
		return 0;
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

char *fmt_printable(char *s)
{
	unsigned char *p = (unsigned char *)s;
	while (*p) {
		if (*p < 0x20 || *p == 0x7f) {
			*p++ = '?';
			continue;
		}
		if (*p < 0x80) {
			p++;
			continue;
		}
		size_t n = utf8_len(p);
		if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* U+0080..U+009F: C1 controls */
			p[0] = p[1] = '?';
			p += 2;
		} else if (n) {
			p += n;
		} else {
			*p++ = '?';
		}
	}
	return s;
}

char *fmt_ms(double ms, char *out, size_t len)
{
	if (ms >= 1000)
		snprintf(out, len, "%.3g s", ms / 1000);
	else if (ms >= 1 || ms <= 0)
		snprintf(out, len, "%.3g ms", ms);
	else
		snprintf(out, len, "%.3g us", ms * 1000);
	return out;
}

char *fmt_cell(double v, const char *fmt, char *out, size_t len)
{
	if (isfinite(v))
		snprintf(out, len, fmt, v);
	else
		snprintf(out, len, "-");
	return out;
}

char *fmt_at_ms(double ms, char *out, size_t len)
{
	if (fabs(ms) < 999.95)
		snprintf(out, len, "%.1f ms", ms);
	else
		snprintf(out, len, "%.2f s", ms / 1000);
	return out;
}

void fmt_csv_field(const char *s, char *out, size_t len, size_t *at)
{
	size_t o = *at;
	if (!len)
		return;
	if (o + 1 < len)
		out[o++] = '"';
	for (; *s && o + 3 < len; s++) {
		if (*s == '"')
			out[o++] = '"';
		out[o++] = *s;
	}
	if (o + 1 < len)
		out[o++] = '"';
	out[o < len ? o : len - 1] = '\0';
	*at = o < len ? o : len - 1;
}

char *fmt_exact(double v, char *out, size_t len)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(out, len, "%.*g", digits, v);
		if (strtod(out, NULL) == v)
			break;
	}
	return out;
}

char *fmt_seconds(double s, char *out, size_t len)
{
	static const struct { double s; const char *one, *many; } units[] = {
		{ 86400, "day", "days" }, { 3600, "h", "h" }, { 60, "min", "min" },
	};
	for (size_t k = 0; k < sizeof units / sizeof *units; k++)
		if (s >= units[k].s && fmod(s, units[k].s) == 0) {
			double n = s / units[k].s;
			snprintf(out, len, "%.0f %s", n, n == 1 ? units[k].one : units[k].many);
			return out;
		}
	snprintf(out, len, "%g s", s);
	return out;
}

/* The edit distance of a and b, case aside (Damerau: a swap of two
 * neighbours is one edit); stops counting past cap. */
static size_t distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return cap + 1;
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *fmt_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word + strspn(word, "-")), cap = len / 3; /* an option's dashes are no letters */
	if (cap < 1)
		cap = 1;
	if (cap > 3)
		cap = 3;
	const char *best = NULL;
	size_t best_d = cap + 1;
	for (size_t k = 0; k < n; k++) {
		size_t dd = distance(word, cands[k], cap);
		if (dd < best_d) {
			best_d = dd;
			best = cands[k];
		}
	}
	return best;
}
