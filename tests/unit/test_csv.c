#include <math.h>
/* csvread: CSV as RFC 4180 defines it, and a series that runs forward (issue 27). */
#include <stdlib.h>

#include "check.h"
#include "csvread.h"

static int parse(const char *text, double **t, double **x, size_t *n, char *err, size_t errlen)
{
	return csv_parse_series(text, strlen(text), "f.csv", t, x, n, err, errlen);
}

/* Quoted headers and fields (a spreadsheet's export), "" inside quotes, a
 * comma and a line break inside a quoted field, CRLF line ends: all read. */
static void quoted_csv_should_read_as_rfc4180_says(void)
{
	double *t, *x;
	size_t n;
	char err[300];
	const char *text = "\"t_ms\",\"note\",\"flops\"\r\n"
	                   "1,\"a, \"\"quoted\"\" note\",10\r\n"
	                   "2,\"two\nlines\",20\r\n"
	                   "3,plain,\"30\"\r\n";
	CHECK(parse(text, &t, &x, &n, err, sizeof err) == 0);
	CHECK(n == 3);
	if (n == 3)
		CHECK(t[0] == 1 && x[0] == 10 && t[1] == 2 && x[1] == 20 && t[2] == 3 && x[2] == 30);
	free(t);
	free(x);
	/* the old reader's own files still read: no quotes, a steady column, comments */
	CHECK(parse("# a comment\nt_ms,flops,steady\n1,5,0\n2,6,1\n\n3,7,1", &t, &x, &n, err, sizeof err) == 0 && n == 2);
	free(t);
	free(x);
}

/* What is wrong is said, with the line: a quote never closed, a quote in an
 * unquoted field, text after a closing quote, time that runs backwards. */
static void bad_csv_should_say_what_and_where(void)
{
	const char *bad[][2] = {
		{ "t_ms,flops\n1,\"10\n2,20\n", "f.csv:2: a quoted field is not closed" },
		{ "t_ms,flops\n1,1\"0\n", "f.csv:2: a \" inside an unquoted field" },
		{ "t_ms,flops\n1,\"10\"x\n", "f.csv:2: text after a closing quote" },
		{ "t_ms,flops\n1,10\n5,10\n3,10\n", "f.csv:4: time runs backwards (t_ms 3 after 5 at line 3)" },
		{ "t_ms,note,flops\n1,\"a\nb\",10\n0,c,10\n", "f.csv:4: time runs backwards" },
		{ "\"time\",\"flops\"\n1,2\n", "f.csv:1: the header has no t_ms" },
		{ "t_ms,flops\n1,abc\n", "f.csv:2: column 2 is not a number" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		double *t, *x;
		size_t n;
		char err[300] = "";
		CHECK(parse(bad[i][0], &t, &x, &n, err, sizeof err) == -1 && t == NULL && n == 0);
		if (!strstr(err, bad[i][1]))
			fprintf(stderr, "  case %zu: \"%s\" lacks \"%s\"\n", i, err, bad[i][1]), check_failed_now = 1;
	}
}

/* flopscope's own export carries the clock (sm_mhz), a recorded trace may
 * carry more telemetry by the log's names (throttle, other_gpu, ...): read
 * where asked, NaN for an empty cell or a file without the column. */
static void clock_column_should_be_read_where_asked(void)
{
	const char text[] = "seq,t_ms,rate,steady,sm_mhz,other_gpu\n0,1,5,1,1980,0\n1,2,6,0,1980,0\n2,3,7,1,,1\n";
	double *t, *x, (*c)[TEL_FIELD_COUNT];
	size_t n;
	char err[200];
	CHECK(csv_parse_trace(text, sizeof text - 1, "e.csv", &t, &x, &c, &n, err, sizeof err) == 0);
	CHECK(n == 2 && t[1] == 3 && x[0] == 5 && c[0][TEL_SM_MHZ] == 1980 && isnan(c[1][TEL_SM_MHZ]));
	CHECK(c[0][TEL_OTHER_GPU] == 0 && c[1][TEL_OTHER_GPU] == 1 && isnan(c[1][TEL_THROTTLE]));
	free(t);
	free(x);
	free(c);
	const char plain[] = "t_ms,flops\n1,5\n";
	CHECK(csv_parse_trace(plain, sizeof plain - 1, "p.csv", &t, &x, &c, &n, err, sizeof err) == 0);
	CHECK(n == 1 && isnan(c[0][TEL_SM_MHZ]));
	free(t);
	free(x);
	free(c);
	const char bad[] = "t_ms,flops,sm_mhz\n1,5,fast\n";
	CHECK(csv_parse_trace(bad, sizeof bad - 1, "b.csv", &t, &x, &c, &n, err, sizeof err) == -1);
	CHECK_STR(err, "b.csv:2: column 3 is not a number: \"fast\"");
}

int main(void)
{
	RUN(clock_column_should_be_read_where_asked);
	RUN(quoted_csv_should_read_as_rfc4180_says);
	RUN(bad_csv_should_say_what_and_where);
	return CHECK_DONE();
}
