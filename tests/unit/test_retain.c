/* retain: which old logs go. */
#include "check.h"
#include "retain.h"

static void only_default_log_names_should_count(void)
{
	CHECK(retain_is_log_name("20261123T150803Z-llvmpipe-fp32.jsonl"));
	CHECK(retain_is_log_name("20261123T150803Z-nvidia-h200-fp16-matrix-2.jsonl"));
	CHECK(!retain_is_log_name("run.jsonl"));                          /* a --log of the user's */
	CHECK(!retain_is_log_name("20261123T150803Z-llvmpipe.json"));
	CHECK(!retain_is_log_name("2026112XT150803Z-llvmpipe-fp32.jsonl"));
	CHECK(!retain_is_log_name("20261123T150803Z-.jsonl"));              /* no device */
	CHECK(!retain_is_log_name("20261123T150803Z-x.jsonl.tmp"));
}

static void oldest_should_go_first_until_count_and_size_fit(void)
{
	const uint64_t sizes[6] = { 10, 20, 30, 40, 50, 60 };
	bool rm[6];
	/* keep 4 with the new one: 3 of the 6 stay, the 3 oldest go */
	CHECK(retain_pick(sizes, NULL, 6, 4, 0, 0, rm) == 3);
	CHECK(rm[0] && rm[1] && rm[2] && !rm[3] && !rm[4] && !rm[5]);
	/* a cap of 120 bytes: 40 + 50 + 60 = 150 > 120, 50 + 60 fits */
	CHECK(retain_pick(sizes, NULL, 6, 0, 120, 0, rm) == 4);
	CHECK(rm[3] && !rm[4] && !rm[5]);
	/* room for the new log counts against the cap */
	CHECK(retain_pick(sizes, NULL, 6, 0, 120, 60, rm) == 5 && !rm[5]);
	/* no limits: nothing goes; everything fits: nothing goes */
	CHECK(retain_pick(sizes, NULL, 6, 0, 0, 0, rm) == 0);
	CHECK(retain_pick(sizes, NULL, 6, 100, 1000, 0, rm) == 0 && !rm[0]);
	/* a cap below the newest log alone removes every old one, no more */
	CHECK(retain_pick(sizes, NULL, 6, 0, 5, 0, rm) == 6);
	CHECK(retain_pick(sizes, NULL, 0, 1, 1, 0, rm) == 0);
}

/* a log being written (or read by this command) counts, is never removed,
 * and the next oldest goes in its place (issue 27: a second run with
 * --log-keep 1 removed the log a first run was writing) */
static void spared_logs_should_count_and_stay(void)
{
	const uint64_t sizes[4] = { 100, 10, 10, 10 };
	bool spared[4] = { true, false, false, false }, rm[4];
	/* keep 1: every other one goes, the live oldest stays */
	CHECK(retain_pick(sizes, spared, 4, 1, 0, 0, rm) == 3);
	CHECK(!rm[0] && rm[1] && rm[2] && rm[3]);
	/* keep 3 with the new one: one more than the oldest must go: the second */
	CHECK(retain_pick(sizes, spared, 4, 3, 0, 0, rm) == 2);
	CHECK(!rm[0] && rm[1] && rm[2] && !rm[3]);
	/* a cap of 115 bytes: the live 100 counts, so 10 + 10 + 10 cannot all stay */
	CHECK(retain_pick(sizes, spared, 4, 0, 115, 0, rm) == 2);
	CHECK(!rm[0] && rm[1] && rm[2] && !rm[3]);
	/* all spared: none goes, whatever the limits */
	bool all[4] = { true, true, true, true };
	CHECK(retain_pick(sizes, all, 4, 1, 1, 0, rm) == 0 && !rm[0] && !rm[3]);
}

int main(void)
{
	RUN(only_default_log_names_should_count);
	RUN(oldest_should_go_first_until_count_and_size_fit);
	RUN(spared_logs_should_count_and_stay);
	return CHECK_DONE();
}
