#include "sched.h"

void sched_begin(Sched *s, bool restart)
{
	if (restart)
		s->seq = 0;
	s->check_due = false;
	s->checked_steady = false;
}

static bool every_nth(const Sched *s, const SchedConfig *c)
{
	return s->seq % (c->check_every ? c->check_every : 1) == 0;
}

bool sched_serial(Sched *s, const SchedConfig *c, bool steady)
{
	bool check = s->seq < 2 || every_nth(s, c) || (steady && !s->checked_steady);
	if (check && steady)
		s->checked_steady = true;
	s->seq++;
	return check;
}

bool sched_may_submit(const Sched *s, const SchedConfig *c)
{
	return s->inflight < c->slots && !(s->checking && c->hold_checks);
}

bool sched_submit(Sched *s, const SchedConfig *c)
{
	bool want = s->check_due || every_nth(s, c) || !s->checked_steady;
	bool check = want && !s->checking;
	s->check_due = want && !check;
	if (check) {
		s->checked_steady = true;
		s->checking = 1;
	}
	s->seq++;
	s->inflight++;
	return check;
}

void sched_complete(Sched *s, bool checked)
{
	if (s->inflight)
		s->inflight--;
	if (checked)
		s->checking = 0;
}
