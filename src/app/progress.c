#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "clock.h"
#include "threadname.h"

struct Progress {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, hidden, drawn;
	const char *what;
	size_t step, steps;
	char name[64];
	double step_s, total_left_s;
	uint64_t step_t0;
};

/* Draws the line now (mu held). */
static void draw(Progress *p)
{
	if (p->hidden || !p->step)
		return;
	double in = (double)(clock_mono_ns() - p->step_t0) * 1e-9;
	double left = p->step_s - in > 0 ? p->step_s - in : 0;
	char all[48] = "";
	if (p->total_left_s >= 0) {
		double t = p->total_left_s - in > left ? p->total_left_s - in : left;
		snprintf(all, sizeof all, ", about %.0f s in all", t);
	}
	char line[256];
	snprintf(line, sizeof line, "%s [%zu/%zu] %s: %.0f s left%s", p->what, p->step, p->steps, p->name, left, all);
	/* one row at most, read at each drawing (a resize): a line that wraps
	 * leaves its first rows behind when \r goes back to the start of the
	 * last one (fragments in a narrow terminal) */
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && strlen(line) >= ws.ws_col)
		line[ws.ws_col - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	p->drawn = true;
}

static void erase(Progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = false;
	}
}

static void *main_loop(void *arg)
{
	Progress *p = arg;
	thread_name("fs-progress", 0);
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		draw(p);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
	}
	erase(p);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

Progress *progress_start(const char *what, size_t steps)
{
	const char *term = getenv("TERM");
	if (!isatty(STDERR_FILENO) || !term || !strcmp(term, "dumb"))
		return NULL;
	Progress *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->what = what;
	p->steps = steps;
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->cv, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL; /* no line: the work goes on without it */
	}
	if (pthread_create(&p->thread, NULL, main_loop, p) != 0) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	return p;
}

void progress_step(Progress *p, size_t i, const char *name, double step_s, double total_left_s)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->step = i;
	snprintf(p->name, sizeof p->name, "%s", name);
	p->step_s = step_s;
	p->total_left_s = total_left_s;
	p->step_t0 = clock_mono_ns();
	draw(p);
	pthread_mutex_unlock(&p->mu);
}

void progress_hide(Progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->hidden = true;
	erase(p);
	pthread_mutex_unlock(&p->mu);
}

void progress_show(Progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->hidden = false;
	draw(p);
	pthread_mutex_unlock(&p->mu);
}

void progress_end(Progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
