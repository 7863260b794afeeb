#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fmt.h"

static const char *si(double v)
{
	static char buf[FMT_SI_LEN];
	return fmt_si(v, buf, sizeof buf);
}

static void fmt_si_should_print_the_tutorials_figures(void)
{
	CHECK_STR(si(3.03e9), "3.03 G");
	CHECK_STR(si(49.3e9), "49.3 G");
	CHECK_STR(si(629e9), "629 G");
	CHECK_STR(si(846e-6), "846 u");
	CHECK_STR(si(8.72e-3), "8.72 m");
	CHECK_STR(si(6.22e12), "6.22 T");
}

static void fmt_si_should_carry_rounding_into_the_next_prefix(void)
{
	CHECK_STR(si(999.6), "1.00 k");
	CHECK_STR(si(999.4), "999 ");
	CHECK_STR(si(9.996), "10.0 ");
	CHECK_STR(si(99.96e6), "100 M");
	CHECK_STR(si(0.9996e-3), "1.00 m");
	CHECK_STR(si(999.6e-9), "1.00 u");
}

static void fmt_si_should_handle_zero_nan_and_negatives(void)
{
	CHECK_STR(si(0.0), "0.00 ");
	CHECK_STR(si(-0.0), "0.00 ");
	CHECK_STR(si(NAN), "NaN ");
	CHECK_STR(si(INFINITY), "inf ");
	CHECK_STR(si(-INFINITY), "-inf ");
	CHECK_STR(si(-3.03e9), "-3.03 G");
	CHECK_STR(si(-846e-6), "-846 u");
	CHECK_STR(si(1.0), "1.00 ");
}

static void fmt_si_should_keep_the_extreme_prefix_outside_the_range(void)
{
	CHECK_STR(si(1e15), "1.00 P");
	CHECK_STR(si(2.5e18), "2.5e+03 P");
	CHECK_STR(si(1e-9), "1.00 n");
	CHECK_STR(si(5e-12), "0.005 n");
}

static void fmt_axis_should_carry_the_unit(void)
{
	char b[32];
	CHECK_STR(fmt_axis(1.5e12, "FLOPS", b, sizeof b), "1.50 TFLOPS");
	CHECK_STR(fmt_axis(0.02, "s", b, sizeof b), "20.0 ms");
	CHECK_STR(fmt_axis(1.98e9, "Hz", b, sizeof b), "1.98 GHz");
	CHECK_STR(fmt_axis(0.0, "B/s", b, sizeof b), "0 B/s");
	CHECK_STR(fmt_axis(3.0, "FLOPS", b, sizeof b), "3.00 FLOPS");
	/* counts: whole, then a prefix with nothing after it */
	CHECK_STR(fmt_axis(1000.0, "", b, sizeof b), "1000");
	CHECK_STR(fmt_axis(1.0, "", b, sizeof b), "1");
	CHECK_STR(fmt_axis(99999.0, "", b, sizeof b), "99999");
	CHECK_STR(fmt_axis(1.2e6, "", b, sizeof b), "1.20 M");
	CHECK_STR(fmt_axis(31.6, "", b, sizeof b), "31.6");
	CHECK_STR(fmt_axis(0.0, "", b, sizeof b), "0");
}

static void as_above_should_stand_for_the_row_aboves_reason(void)
{
	char prev[64] = "";
	const char *m = "the device has no cooperative matrices";
	CHECK_STR(fmt_as_above(m, prev, sizeof prev), m);
	CHECK_STR(fmt_as_above(m, prev, sizeof prev), "as above");
	CHECK_STR(fmt_as_above(m, prev, sizeof prev), "as above");
	CHECK(fmt_as_above(NULL, prev, sizeof prev) == NULL); /* a row without one ends the run */
	CHECK_STR(fmt_as_above(m, prev, sizeof prev), m);
	CHECK_STR(fmt_as_above("other", prev, sizeof prev), "other");
}

static void fmt_si_should_truncate_safely(void)
{
	char small[4];
	fmt_si(3.03e9, small, sizeof small);
	CHECK_STR(small, "3.0");
}

static void fmt_printable_should_drop_escapes_and_keep_utf8(void)
{
	char a[] = "NVIDIA \x1b[2J\x1b]0;owned\x07 H100\x7f";
	CHECK_STR(fmt_printable(a), "NVIDIA ?[2J?]0;owned? H100?");
	char b[] = "caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80"; /* cafe, TM, an emoji: kept */
	CHECK_STR(fmt_printable(b), "caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80");
	char c[] = "x\xc2\x9b" "2Jy\x9b\xff\xc3"; /* C1 CSI in UTF-8, a raw CSI, junk, a cut sequence */
	CHECK_STR(fmt_printable(c), "x??2Jy???");
	char d[] = "\xe0\x80\xaf\xf4\x90\x80\x80"; /* overlong, beyond U+10FFFF */
	CHECK_STR(fmt_printable(d), "???????");
	char e[] = "A\xed\xa0\x80" "B\xed\x9f\xbf" "C\xf5\x80\x80" "D"; /* a surrogate, U+D7FF (kept), a lead past F4 */
	CHECK_STR(fmt_printable(e), "A???B\xed\x9f\xbf" "C???D");
}

/* One format for times: never "1e+03 ms". */
static void fmt_ms_should_pick_the_unit(void)
{
	char b[32];
	CHECK(!strcmp(fmt_ms(20, b, sizeof b), "20 ms"));
	CHECK(!strcmp(fmt_ms(1000, b, sizeof b), "1 s"));
	CHECK(!strcmp(fmt_ms(2500, b, sizeof b), "2.5 s"));
	CHECK(!strcmp(fmt_ms(10000, b, sizeof b), "10 s"));
	CHECK(!strcmp(fmt_ms(0.5, b, sizeof b), "500 us"));
	CHECK(!strcmp(fmt_ms(0.001, b, sizeof b), "1 us"));
	CHECK(!strcmp(fmt_ms(1.25, b, sizeof b), "1.25 ms"));
	/* a table's cell: the figure, or "-" where not read */
	CHECK_STR(fmt_cell(1785.2, "%.0f MHz", b, sizeof b), "1785 MHz");
	CHECK_STR(fmt_cell(NAN, "%.0f MHz", b, sizeof b), "-");
	/* a moment of a run: seconds past one, to a sample's 10 ms */
	CHECK_STR(fmt_at_ms(241.54, b, sizeof b), "241.5 ms");
	CHECK_STR(fmt_at_ms(999.94, b, sizeof b), "999.9 ms");
	CHECK_STR(fmt_at_ms(999.96, b, sizeof b), "1.00 s");
	CHECK_STR(fmt_at_ms(14536.0, b, sizeof b), "14.54 s");
	CHECK_STR(fmt_at_ms(3600000, b, sizeof b), "3600.00 s");
}

/* One CSV field: quoted, a quote doubled; cut within the buffer, always
 * terminated. */
static void csv_field_should_quote_and_fit(void)
{
	char b[32];
	size_t at = 0;
	fmt_csv_field("a \"b\", c", b, sizeof b, &at);
	CHECK_STR(b, "\"a \"\"b\"\", c\"");
	CHECK(at == strlen(b));
	b[at++] = ',';
	fmt_csv_field("x", b, sizeof b, &at);
	CHECK_STR(b, "\"a \"\"b\"\", c\",\"x\"");
	char s[8];
	at = 0;
	fmt_csv_field("abcdefghijk", s, sizeof s, &at);
	CHECK(strlen(s) < sizeof s && s[0] == '"' && at == strlen(s));
}

/* Seconds in words; the word a typo meant, or none. */
static void seconds_and_near_misses_should_read_as_a_person_writes(void)
{
	char b[32];
	CHECK_STR(fmt_seconds(2592000, b, sizeof b), "30 days");
	CHECK_STR(fmt_seconds(86400, b, sizeof b), "1 day");
	CHECK_STR(fmt_seconds(7200, b, sizeof b), "2 h");
	CHECK_STR(fmt_seconds(90, b, sizeof b), "90 s");
	CHECK_STR(fmt_seconds(0.5, b, sizeof b), "0.5 s");
	const char *const words[] = { "--list", "--logs", "--target-ms", "--duration" };
	CHECK(strcmp(fmt_nearest("--lsit", words, 4), "--list") == 0); /* a swap is one edit */
	CHECK(strcmp(fmt_nearest("--TARGET-MS", words, 4), "--target-ms") == 0);
	CHECK(fmt_nearest("--bogus", words, 4) == NULL);
	CHECK(fmt_nearest("x", words, 4) == NULL);
}

/* A setting written as it will be read: the fewest digits that read back
 * to the same double (--save-config wrote target_ms 1234.5678 as 1234.57). */
static void fmt_exact_should_read_back_to_the_same_number(void)
{
	char b[32];
	CHECK_STR(fmt_exact(1234.5678, b, sizeof b), "1234.5678");
	CHECK_STR(fmt_exact(0.1, b, sizeof b), "0.1");
	CHECK_STR(fmt_exact(5, b, sizeof b), "5");
	CHECK_STR(fmt_exact(0.001, b, sizeof b), "0.001");
	const double v[] = { 1.0 / 3, 2.345678901234567, 9999.999999999998, 1e-300, 0.30000000000000004 };
	for (size_t k = 0; k < sizeof v / sizeof *v; k++)
		CHECK(strtod(fmt_exact(v[k], b, sizeof b), NULL) == v[k]);
}

int main(void)
{
	RUN(seconds_and_near_misses_should_read_as_a_person_writes);
	RUN(fmt_exact_should_read_back_to_the_same_number);
	RUN(csv_field_should_quote_and_fit);
	RUN(fmt_ms_should_pick_the_unit);
	RUN(fmt_si_should_print_the_tutorials_figures);
	RUN(fmt_si_should_carry_rounding_into_the_next_prefix);
	RUN(fmt_printable_should_drop_escapes_and_keep_utf8);
	RUN(fmt_si_should_handle_zero_nan_and_negatives);
	RUN(fmt_si_should_keep_the_extreme_prefix_outside_the_range);
	RUN(fmt_si_should_truncate_safely);
	RUN(fmt_axis_should_carry_the_unit);
	RUN(as_above_should_stand_for_the_row_aboves_reason);
	return CHECK_DONE();
}
