/* cli_num: numbers and durations as the command line and the config file
 * take them, refused with the option's name and the range. Pure. */
#include "cli_num.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_number(const char *opt, const char *s, double lo, double hi, bool lo_open, double *out, char *err,
               size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || end == s || isnan(v)) {
		snprintf(err, errlen, "%s: \"%.40s%s\" is not a number", opt, s, strlen(s) > 40 ? "..." : "");
		return -1;
	}
	/* a number too large (or too small) for a double is a number still:
	 * out of range, not "not a number" */
	if (errno == ERANGE || !isfinite(v)) {
		snprintf(err, errlen, "%s: %.40s%s is out of range (%s%g .. %g)", opt, s, strlen(s) > 40 ? "..." : "",
		         lo_open ? "above " : "", lo, hi);
		return -1;
	}
	if ((lo_open ? v <= lo : v < lo) || v > hi) {
		snprintf(err, errlen, "%s: %.40s%s is out of range (%s%g .. %g)", opt, s, strlen(s) > 40 ? "..." : "",
		         lo_open ? "above " : "", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_duration(const char *opt, const char *s, double lo, double hi, double *out, char *err,
                       size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 0;
	if (!*s || end == s || errno == ERANGE || !isfinite(v) || !unit) {
		snprintf(err, errlen, "%s: \"%s\" is not a duration (30, 30s, 2m, 1h)", opt, s);
		return -1;
	}
	v *= unit;
	if (v < lo || v > hi) {
		snprintf(err, errlen, "%s: %s is out of range (%g s .. %g s)", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

