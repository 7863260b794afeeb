/* verdict: a check's verdict as a list of causes, each a stable code
 * (verdict_rows.h), its figures and its clause in words; the text a person
 * reads is the clauses joined, the records carry the codes and figures. */
#ifndef FLOPSCOPE_VERDICT_H
#define FLOPSCOPE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum Severity {
	SEV_OK,    /* what a healthy device gives */
	SEV_INFO,  /* said, no fault */
	SEV_WARN,  /* the data cannot tell, or something to look at */
	SEV_FAIL,  /* the device fails on it */
	SEV_ERROR, /* the run itself failed */
	SEV_COUNT
} Severity;

extern const char *const severity_names[SEV_COUNT]; /* "ok", "info", ... */

typedef enum VerdictCode {
#define VERDICT_CAUSE(id, ...) VC_##id,
#include "verdict_rows.h"
#undef VERDICT_CAUSE
	VC_COUNT
} VerdictCode;

#define VC_FIGURES 3 /* figures a cause carries at most */

typedef struct VerdictCauseInfo {
	const char *code;               /* "BELOW_PEAK": the stable code */
	Severity sev;
	const char *fig[VC_FIGURES];    /* the figures' names; NULL ends */
	const char *action;             /* what an admin does about it */
} VerdictCauseInfo;

extern const VerdictCauseInfo verdict_causes[VC_COUNT];

#define VC_MAX 8         /* causes on one verdict */
#define VC_TEXT_LEN 320  /* a clause */

typedef struct Cause {
	VerdictCode code;
	double fig[VC_FIGURES];  /* the row's figures; NaN: not known */
	char text[VC_TEXT_LEN];  /* the clause a person reads */
} Cause;

typedef struct Causes {
	Cause c[VC_MAX];
	size_t n;
} Causes;

/* Adds a cause (first: before the others, as the verdict's lead) with its
 * figures (as many as its row names, NaN where unknown; figs may be NULL)
 * and its clause (printf). A full list makes room by dropping its least
 * severe cause, or drops the new one where that is less severe still. */
void verdict_add(Causes *cs, bool first, VerdictCode code, const double *figs, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Takes code's causes out of the list. */
void verdict_drop(Causes *cs, VerdictCode code);
/* Whether the list holds code. */
bool verdict_has(const Causes *cs, VerdictCode code);
/* The clauses joined with "; ", as the text, CSV and JSON "why" give it. */
void verdict_text(const Causes *cs, char *out, size_t len);
/* The codes joined with sep ("BELOW_PEAK|OTHER_PROCESS"). */
void verdict_codes(const Causes *cs, const char *sep, char *out, size_t len);
/* The codes as bits ((uint64_t)1 << VC_x), as the metrics rows carry them. */
uint64_t verdict_code_bits(const Causes *cs);
/* The worst severity of the list (SEV_OK for none). */
Severity verdict_worst(const Causes *cs);
/* A code by its spelling; -1: none. */
int verdict_find(const char *code);

#endif
