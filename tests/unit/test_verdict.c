/* Unit tests for the verdict's causes (core/verdict.c) and docs/FLEET.md's
 * table of codes, held to the rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "verdict.h"

static void causes_should_keep_the_lead_first_and_join_their_words(void)
{
	Causes cs = { .n = 0 };
	double f[] = { 0.72, 0.9, 0.75 };
	verdict_add(&cs, false, VC_BELOW_PEAK, f, "%.0f%% of the peak", 72.0);
	verdict_add(&cs, false, VC_POWER_CAP, NULL, "held by the power cap");
	verdict_add(&cs, true, VC_THROTTLE_HW, NULL, "held by: HW slowdown 1.00 s (50%%), a fault");
	char t[1024], c[256];
	verdict_text(&cs, t, sizeof t);
	CHECK_STR(t, "held by: HW slowdown 1.00 s (50%), a fault; 72% of the peak; held by the power cap");
	verdict_codes(&cs, "|", c, sizeof c);
	CHECK_STR(c, "THROTTLE_HW|BELOW_PEAK|POWER_CAP");
	CHECK(verdict_worst(&cs) == SEV_FAIL);
	CHECK(verdict_code_bits(&cs) == ((uint64_t)1 << VC_THROTTLE_HW | (uint64_t)1 << VC_BELOW_PEAK | (uint64_t)1 << VC_POWER_CAP));
	/* the figures the row names, in its order; the rest unknown */
	CHECK_NEAR(cs.c[1].fig[0], 0.72, 1e-12);
	CHECK_NEAR(cs.c[1].fig[2], 0.75, 1e-12);
	CHECK(isnan(cs.c[0].fig[0]));
	verdict_drop(&cs, VC_BELOW_PEAK);
	CHECK(cs.n == 2 && !verdict_has(&cs, VC_BELOW_PEAK) && verdict_has(&cs, VC_POWER_CAP));
	Causes none = { .n = 0 };
	verdict_text(&none, t, sizeof t);
	CHECK_STR(t, "");
	CHECK(verdict_worst(&none) == SEV_OK);
}

/* A full list gives way to a more severe cause, never to a lesser one. */
static void a_full_list_should_keep_its_most_severe_causes(void)
{
	Causes cs = { .n = 0 };
	for (int k = 0; k < VC_MAX; k++)
		verdict_add(&cs, false, VC_POWER_CAP, NULL, "cap %d", k);
	verdict_add(&cs, false, VC_AT_PEAK, NULL, "ok");
	CHECK(cs.n == VC_MAX && !verdict_has(&cs, VC_AT_PEAK));
	verdict_add(&cs, true, VC_WRONG_RESULT, NULL, "wrong");
	CHECK(cs.n == VC_MAX && cs.c[0].code == VC_WRONG_RESULT);
	char t[4096];
	verdict_text(&cs, t, sizeof t);
	CHECK(!strncmp(t, "wrong; cap 0; ", 14));
	/* cut whole words where the text fills: never past its end */
	char small[12];
	verdict_text(&cs, small, sizeof small);
	CHECK(strlen(small) == sizeof small - 1);
}

/* Each row: a code of capitals, an action, figures named; found by its code. */
static void every_cause_should_have_its_code_severity_and_action(void)
{
	for (int k = 0; k < VC_COUNT; k++) {
		const VerdictCauseInfo *r = &verdict_causes[k];
		CHECK(r->code && strlen(r->code) > 2 && strspn(r->code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == strlen(r->code));
		CHECK(r->action && strlen(r->action) > 3);
		CHECK(r->sev >= SEV_OK && r->sev < SEV_COUNT);
		CHECK(verdict_find(r->code) == k);
	}
	CHECK(verdict_find("NOT_A_CODE") == -1);
}

/* docs/FLEET.md lists every code with its severity and action, word for
 * word, and no code the table lacks. */
static void the_fleet_documentation_should_list_every_code_as_the_table_does(void)
{
	FILE *f = fopen("docs/FLEET.md", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	static char doc[1 << 20];
	size_t n = fread(doc, 1, sizeof doc - 1, f);
	fclose(f);
	doc[n] = '\0';
	for (int k = 0; k < VC_COUNT; k++) {
		char want[1024];
		snprintf(want, sizeof want, "\n| `%s` | %s | %s |\n", verdict_causes[k].code,
		         severity_names[verdict_causes[k].sev], verdict_causes[k].action);
		if (!strstr(doc, want)) {
			fprintf(stderr, "  docs/FLEET.md lacks the row:%s", want);
			check_failed_now = 1;
		}
	}
	/* the rows of the table of codes: each a code of the table */
	const char *s = strstr(doc, "\n| code | severity | action |\n");
	CHECK(s != NULL);
	size_t rows = 0;
	for (const char *p = s ? strchr(s + 1, '\n') : NULL; p && p[1] == '|'; p = strchr(p + 1, '\n')) {
		char code[64];
		if (sscanf(p + 1, "| `%63[A-Z_]` |", code) != 1)
			continue;
		rows++;
		if (verdict_find(code) < 0) {
			fprintf(stderr, "  docs/FLEET.md lists %s, which no row of core/verdict_rows.h has\n", code);
			check_failed_now = 1;
		}
	}
	CHECK(rows == VC_COUNT);
}

int main(void)
{
	RUN(causes_should_keep_the_lead_first_and_join_their_words);
	RUN(a_full_list_should_keep_its_most_severe_causes);
	RUN(every_cause_should_have_its_code_severity_and_action);
	RUN(the_fleet_documentation_should_list_every_code_as_the_table_does);
	return CHECK_DONE();
}
