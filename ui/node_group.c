#include "node_group.h"

static void g_pause(void *ctx, bool paused)
{
	const SourceGroup *g = ctx;
	for (size_t k = 0; k < g->n; k++)
		g->src[k]->ctl.pause(g->src[k]->ctl.ctx, paused);
}

static void g_restart(void *ctx)
{
	const SourceGroup *g = ctx;
	for (size_t k = 0; k < g->n; k++)
		g->src[k]->ctl.restart(g->src[k]->ctl.ctx);
}

static void g_set_target(void *ctx, double ms)
{
	const SourceGroup *g = ctx;
	for (size_t k = 0; k < g->n; k++)
		if (g->src[k]->ctl.set_target)
			g->src[k]->ctl.set_target(g->src[k]->ctl.ctx, ms);
}

static double g_speed(void *ctx, int dir)
{
	const SourceGroup *g = ctx;
	double v = 0;
	for (size_t k = 0; k < g->n; k++)
		if (g->src[k]->ctl.speed)
			v = g->src[k]->ctl.speed(g->src[k]->ctl.ctx, dir);
	return v;
}

/* a replay's seek and step, on every device's log */
static bool g_seek(void *ctx, double delta_ms)
{
	const SourceGroup *g = ctx;
	bool back = false;
	for (size_t k = 0; k < g->n; k++)
		if (g->src[k]->ctl.seek)
			back |= g->src[k]->ctl.seek(g->src[k]->ctl.ctx, delta_ms);
	return back;
}

static void g_step(void *ctx)
{
	const SourceGroup *g = ctx;
	for (size_t k = 0; k < g->n; k++)
		if (g->src[k]->ctl.step)
			g->src[k]->ctl.step(g->src[k]->ctl.ctx);
}

/* the shown one's position */
static double g_position(void *ctx, double *length)
{
	const SourceGroup *g = ctx;
	return g->shown->ctl.position(g->shown->ctl.ctx, length);
}

SourceControls source_group_controls(SourceGroup *g)
{
	const SourceControls *z = &g->shown->ctl;
	return (SourceControls){
		.ctx = g, .pause = g_pause, .restart = g_restart, .set_target = z->set_target ? g_set_target : NULL,
		.speed = z->speed ? g_speed : NULL, .seek = z->seek ? g_seek : NULL, .step = z->step ? g_step : NULL,
		.position = z->position ? g_position : NULL, .procs = z->procs,
	};
}
