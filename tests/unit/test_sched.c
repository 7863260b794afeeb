#include <stdlib.h>

#include "check.h"
#include "sched.h"

/* A script of events, one letter each:
 *   g  a serial growing submission     s  a serial steady one
 *   P  a pipelined submission (must be allowed)
 *   x  a pipelined submission that must NOT be allowed now (no state change)
 *   c  the oldest pipelined one completes
 *   R  restart                          N  a new phase (next sweep size)
 * and the checks expected of the submissions, in order: '1' checked, '0' not. */
typedef struct Case {
	const char *name;
	SchedConfig cfg;
	const char *events;
	const char *checks;
} Case;

static const Case cases[] = {
	{ "growth: the first two and every 5th",
	  { .slots = 3, .check_every = 5 }, "gggggggggggg", "110001000010" },
	{ "the first steady serial one is checked, then every 5th",
	  /* seq 3 is the first steady one, seq 5 the 5th */
	  { .slots = 3, .check_every = 5 }, "gggsssssss", "1101010000" },
	{ "pipelined: the first steady one; the 5th, due while it is in flight, goes to the next after it",
	  /* seq 3 checked; seq 5 due while 3 is in flight: seq 6 takes it once 3
	     completed; seq 10 on time */
	  { .slots = 3, .check_every = 5 }, "gggPPPcPcPcPcPcPcPcP", "1101001000100" },
	{ "a deeper queue: the check moves as many submissions as are ahead of it",
	  /* 4 in flight: seq 5's check goes to seq 7, seq 10's to seq 11 */
	  { .slots = 4, .check_every = 5 }, "gggPPPPcPcPcPcPcPcP", "1101000100010" },
	{ "a check never overtakes: with every submission due, one at a time",
	  { .slots = 3, .check_every = 1 }, "gggPPPcPcPcP", "111100100" },
	{ "hold_checks: nothing goes in behind a checked submission",
	  { .slots = 3, .check_every = 5, .hold_checks = true }, "gggPxcPPxcxcPPP", "110101000" },
	{ "restart: numbering and the first steady check start over",
	  { .slots = 3, .check_every = 5 }, "gggssRggs", "11010111" },
	{ "new phase: the first steady one is checked again, numbering goes on",
	  { .slots = 3, .check_every = 100 }, "ggsssNggss", "111000010" },
};

static void run_case(const Case *k)
{
	Sched s = { 0 };
	sched_begin(&s, true);
	char got[64] = "";
	size_t n = 0;
	bool flight[64];
	size_t head = 0, tail = 0;
	for (const char *e = k->events; *e; e++) {
		bool c;
		switch (*e) {
		case 'g':
		case 's':
			CHECK(s.inflight == 0);
			c = sched_serial(&s, &k->cfg, *e == 's');
			got[n++] = c ? '1' : '0';
			break;
		case 'P':
			if (!sched_may_submit(&s, &k->cfg)) {
				fprintf(stderr, "  %s: submission %zu refused\n", k->name, n);
				check_failed_now = 1;
				return;
			}
			c = sched_submit(&s, &k->cfg);
			flight[tail++ % 64] = c;
			got[n++] = c ? '1' : '0';
			break;
		case 'x':
			CHECK(!sched_may_submit(&s, &k->cfg));
			break;
		case 'c':
			CHECK(head < tail);
			sched_complete(&s, flight[head++ % 64]);
			break;
		case 'R':
		case 'N':
			while (head < tail)
				sched_complete(&s, flight[head++ % 64]);
			sched_begin(&s, *e == 'R');
			break;
		}
		CHECK(s.checking <= 1);
	}
	got[n] = '\0';
	if (strcmp(got, k->checks)) {
		fprintf(stderr, "  %s: checks %s, want %s\n", k->name, got, k->checks);
		check_failed_now = 1;
	}
}

static void sched_should_follow_the_table_of_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		run_case(&cases[i]);
}

/* Random pipelines: never two checked submissions in flight, the queue
 * never over its slots, and every due check is made by the first submission
 * that goes in once no checked one is in flight (late, never lost). */
static void sched_should_keep_its_invariants_under_random_pipelines(void)
{
	srand(12345);
	for (int trial = 0; trial < 500; trial++) {
		SchedConfig cfg = { .slots = 1 + (unsigned)(rand() % 4), .check_every = 1 + (unsigned)(rand() % 7),
		                    .hold_checks = rand() % 2 };
		Sched s = { 0 };
		sched_begin(&s, true);
		s.checked_steady = true; /* past the first steady check: only the every-N rule */
		bool flight[16];
		unsigned head = 0, tail = 0;
		bool owed = false;  /* a due check not made yet */
		uint64_t checks = 0;
		for (int step = 0; step < 500; step++) {
			if (sched_may_submit(&s, &cfg) && rand() % 3) {
				unsigned checked_in_flight = 0;
				for (unsigned k = head; k < tail; k++)
					checked_in_flight += flight[k % 16];
				bool due = s.seq % cfg.check_every == 0;
				bool c = sched_submit(&s, &cfg);
				flight[tail++ % 16] = c;
				checks += c;
				if ((owed || due) && checked_in_flight == 0)
					CHECK(c);   /* owed or due, and nothing in the way */
				if (c && checked_in_flight)
					CHECK(0);   /* a second checked one in flight */
				owed = (owed || due) && !c;
			} else if (head < tail) {
				sched_complete(&s, flight[head++ % 16]);
			}
			CHECK(s.inflight == tail - head);
			CHECK(s.inflight <= cfg.slots);
		}
		CHECK(checks > 0);
	}
}

int main(void)
{
	RUN(sched_should_follow_the_table_of_cases);
	RUN(sched_should_keep_its_invariants_under_random_pipelines);
	return CHECK_DONE();
}
