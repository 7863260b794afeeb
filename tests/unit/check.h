/* A minimal test harness: each test is a function; CHECK records a failure
 * with its line and goes on. Every test prints "PASS: name" or "FAIL: name";
 * tests/run.sh counts them. FLOPSCOPE_TEST=PATTERN selects tests by name. */
#ifndef FLOPSCOPE_CHECK_H
#define FLOPSCOPE_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed_now;
static int check_failures;

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			check_failed_now = 1;                                        \
		}                                                                    \
	} while (0)

#define CHECK_STR(got, want)                                                         \
	do {                                                                         \
		const char *g_ = (got), *w_ = (want);                                \
		if (strcmp(g_, w_)) {                                                \
			fprintf(stderr, "  %s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, g_, w_); \
			check_failed_now = 1;                                        \
		}                                                                    \
	} while (0)

#define CHECK_NEAR(got, want, tol)                                                   \
	do {                                                                         \
		double g_ = (got), w_ = (want);                                      \
		if (!(g_ >= w_ - (tol) && g_ <= w_ + (tol))) {                       \
			fprintf(stderr, "  %s:%d: got %.10g, want %.10g +- %g\n", __FILE__, __LINE__, g_, w_, (double)(tol)); \
			check_failed_now = 1;                                        \
		}                                                                    \
	} while (0)

/* FLOPSCOPE_TEST=PATTERN runs only the tests whose name contains PATTERN (as
 * tests/integration.sh NAME... does for the integration tests). */
#include <stdlib.h>
static int check_selected(const char *name)
{
	const char *p = getenv("FLOPSCOPE_TEST");
	return !p || !*p || strstr(name, p) != NULL;
}

#define RUN(fn)                                                                      \
	do {                                                                         \
		if (!check_selected(#fn))                                            \
			break;                                                       \
		check_failed_now = 0;                                                \
		fn();                                                                \
		printf("%s: %s\n", check_failed_now ? "FAIL" : "PASS", #fn);         \
		check_failures += check_failed_now;                                  \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
