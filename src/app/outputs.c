#include "outputs.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "engine.h"
#include "fileio.h"
#include "records.h"

typedef struct Named {
	const char *opt;
	const char *path;
} Named;


static size_t inputs_of(const Options *o, Named *in)
{
	size_t n = 0;
	for (unsigned i = 0; i < o->nreplays; i++)
		in[n++] = (Named){ "--replay", o->replays[i] };
	if (o->replay && !o->nreplays)
		in[n++] = (Named){ "--replay", o->replay };
	if (o->analyze)
		in[n++] = (Named){ "--analyze", o->analyze };
	for (unsigned i = 0; i < o->ncompare_a; i++)
		in[n++] = (Named){ "--compare", o->compare_a[i] };
	for (unsigned i = 0; i < o->ncompare_b; i++)
		in[n++] = (Named){ "--compare", o->compare_b[i] };
	for (unsigned i = 0; i < o->nexports; i++)
		in[n++] = (Named){ "--export", o->exports[i] };
	if (o->export_file && !o->nexports)
		in[n++] = (Named){ "--export", o->export_file };
	for (unsigned i = 0; i < o->nbaselines; i++)
		in[n++] = (Named){ "--baseline", o->baselines[i] };
	return n;
}

size_t outputs_inputs(const Options *o, const char **paths, size_t cap)
{
	Named in[OUTPUTS_MAX_INPUTS];
	size_t n = inputs_of(o, in);
	for (size_t i = 0; i < n && i < cap; i++)
		paths[i] = in[i].path;
	return n < cap ? n : cap;
}

/* One file: the same path as given, or the same device and inode. */
static bool same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool outputs_check(const Options *o, char *err, size_t len)
{
	Named in[OUTPUTS_MAX_INPUTS], out[5];
	size_t nin = inputs_of(o, in), nout = 0;
	if (o->log && !o->no_log)
		out[nout++] = (Named){ "--log", o->log };
	if (o->metrics_file)
		out[nout++] = (Named){ "--metrics-file", o->metrics_file };
	if (o->svg)
		out[nout++] = (Named){ "--svg", o->svg };
	if (o->report)
		out[nout++] = (Named){ "--report", o->report };
	if (o->csv_out)
		out[nout++] = (Named){ "--csv", o->csv_out };
	for (size_t k = 0; k < nout; k++) {
		for (size_t i = 0; i < nin; i++)
			if (same_file(out[k].path, in[i].path)) {
				snprintf(err, len, "%s: %s is the input (%s %s) itself: an input is never an output (%s)",
				         out[k].opt, out[k].path, in[i].opt, in[i].path,
				         o->force ? "--force does not change that" : "choose another file");
				return false;
			}
		for (size_t j = 0; j < k; j++)
			if (same_file(out[k].path, out[j].path)) {
				snprintf(err, len, "%s: %s is also %s %s: each output needs a file of its own", out[k].opt,
				         out[k].path, out[j].opt, out[j].path);
				return false;
			}
		/* the log is opened, not replaced: slog_open has its own rules */
		if (!strcmp(out[k].opt, "--log"))
			continue;
		char why[4400];
		FileKind kind = strcmp(out[k].opt, "--metrics-file") ? FILE_NEW : FILE_OWN;
		/* it may be replaced (fileio_create's rules, its writer's lock) and
		 * can be written there: said before anything is measured */
		if (!fileio_probe(out[k].path, kind, o->force, why, sizeof why)) {
			snprintf(err, len, "%s: %s", out[k].opt, why);
			return false;
		}
	}
	return true;
}

/* Whether standard output is a pipe or socket whose reader has gone. */
static bool stdout_reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

bool outputs_stdout_failed(void)
{
	/* errno as the failed write left it (ENOSPC): a failure of an earlier
	 * write is kept by the stream (ferror), its reason by errno */
	if (fflush(stdout) == 0 && !ferror(stdout))
		return false;
	int e = errno;
	if (e == EPIPE || stdout_reader_gone())
		return false;
	fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(e ? e : EIO));
	return true;
}

void outputs_run_notes(const RunInfo *in)
{
	if (in->cache_note && in->cache_note[0])
		fprintf(stderr, "flopscope: note: %s\n", in->cache_note);
	if (in->lock_note && in->lock_note[0])
		fprintf(stderr, "flopscope: warning: %s\n", in->lock_note);
}

cJSON *outputs_sample_json(const Sample *s, unsigned dev, Engine *e)
{
	if (!e || !sample_has_tel(s, TEL_OTHER_GPU) || !(s->tel[TEL_OTHER_GPU] > 0))
		return record_sample_obj(s, dev);
	ProcTable t;
	engine_procs(e, &t);
	return record_sample_procs(s, dev, &t);
}
