/* cli_num: numbers and durations as the command line and the config file
 * take them, refused with the option's name and the range. Pure. */
#include "cli_num.h"

#include "fmt.h"

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

bool cli_time_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1
	            : !strcmp(end, "ms")                    ? 1e-3
	            : !strcmp(end, "m")                     ? 60
	            : !strcmp(end, "h")                     ? 3600
	                                                    : 0;
	if (!*s || end == s || errno == ERANGE || !isfinite(v) || !unit)
		return false;
	*out = v * unit;
	return true;
}

int cli_parse_duration(const char *opt, const char *s, double lo, double hi, double *out, char *err,
                       size_t errlen)
{
	double v;
	if (!cli_time_seconds(s, &v)) {
		snprintf(err, errlen, "%s: \"%.40s%s\" is not a duration (" CLI_TIME_FORMS ")", opt, s,
		         strlen(s) > 40 ? "..." : "");
		return -1;
	}
	if (v < lo || v > hi) {
		char a[32], b[32];
		snprintf(err, errlen, "%s: %.40s%s is out of range (%s .. %s)", opt, s, strlen(s) > 40 ? "..." : "",
		         fmt_seconds(lo, a, sizeof a), fmt_seconds(hi, b, sizeof b));
		return -1;
	}
	*out = v;
	return 0;
}

