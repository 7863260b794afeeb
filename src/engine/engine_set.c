#include "engine_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void destroy_all(EngineSet *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->m[k].e) {
			engine_destroy(s->m[k].e);
			s->m[k].e = NULL;
		}
}

bool engine_set_create(EngineSet *s, const EngineConfig *cfg, size_t n, bool all_or_none, Error *err)
{
	s->n = 0;
	s->m = calloc(n ? n : 1, sizeof *s->m);
	if (!s->m) {
		snprintf(err->msg, sizeof err->msg, "out of memory for %zu engines", n);
		err->status = STATUS_FAILED;
		return false;
	}
	s->n = n;
	size_t built = 0;
	for (size_t k = 0; k < n; k++) {
		s->m[k].e = engine_create(&cfg[k], &s->m[k].err);
		if (s->m[k].e) {
			s->m[k].err.msg[0] = '\0';
			built++;
			continue;
		}
		if (all_or_none) {
			destroy_all(s);
			*err = s->m[k].err;
			return false;
		}
	}
	if (!built && n)
		*err = s->m[0].err;
	return built > 0;
}

bool engine_set_start(EngineSet *s, bool all_or_none)
{
	size_t started = 0;
	for (size_t k = 0; k < s->n; k++) {
		EngineMember *m = &s->m[k];
		if (!m->e)
			continue;
		if (engine_start(m->e, &m->err)) {
			started++;
			continue;
		}
		m->err.status = STATUS_FAILED;
		engine_destroy(m->e);
		m->e = NULL;
		if (all_or_none) {
			destroy_all(s);
			return false;
		}
	}
	return started > 0;
}

void engine_set_drain(EngineSet *s, bool (*on_sample)(void *ctx, size_t k, const Sample *sample), void *ctx,
                      atomic_int *quit)
{
	Engine *es[ENGINE_DRAIN_MAX] = { NULL };
	size_t n = s->n < ENGINE_DRAIN_MAX ? s->n : ENGINE_DRAIN_MAX;
	for (size_t k = 0; k < n; k++)
		es[k] = s->m[k].e;
	engine_drain_all(es, n, on_sample, ctx, quit);
}

void engine_set_finish(EngineSet *s)
{
	for (size_t k = 0; k < s->n; k++) {
		EngineMember *m = &s->m[k];
		if (!m->e)
			continue;
		engine_join(m->e);
		engine_summary(m->e, &m->sum);
		m->checks = engine_checks_passed(m->e);
		m->first_ms = engine_first_sample_ms(m->e);
		m->spirv_cached = engine_info(m->e)->spirv_cached;
		m->pipeline_cached = engine_info(m->e)->pipeline_cache_loaded;
		m->failed = engine_state(m->e) == ENGINE_ERROR;
		m->wrong = m->failed && engine_results_wrong(m->e);
		m->log_failed = engine_log_error(m->e) != NULL;
		snprintf(m->error, sizeof m->error, "%s", m->failed ? engine_error(m->e) : "");
	}
}

void engine_set_destroy(EngineSet *s)
{
	if (s->m)
		destroy_all(s);
	free(s->m);
	s->m = NULL;
	s->n = 0;
}
