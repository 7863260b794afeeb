/* replay_table: --replay FILE --headless: a recorded session as the table it
 * printed, with its summary. */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "report.h"

int offline_replay_table(const Options *o)
{
	SessionData d;
	if (!offline_load(o->replay, &d))
		return 2;
	const SessionMeta *m = &d.meta;
	char line[1024];
	if (o->format == FORMAT_TABLE) {
		printf("Replay of %s (recorded %s on %s, flopscope %s)\n", o->replay, m->start_utc, m->host,
		       m->flopscope_version);
		printf("Using device:\n   %s (compute queue: %u, type: %s)\n", m->device, m->queue_family,
		       m->device_type);
		printf("Workload: %s, %llu FLOP per invocation, %u invocations per workgroup\n", m->workload,
		       (unsigned long long)m->flop_per_invocation, m->local_size);
		printf("Timing: %s; target %.3g ms per dispatch\n",
		       strcmp(m->timing, "gpu") ? "CPU wall time (no timestamps)"
		                                : "GPU timestamps (CPU wall time alongside)", m->target_ms);
		printf("\n%s", report_table_header);
	} else if (o->format == FORMAT_CSV) {
		fputs(report_csv_header, stdout);
	}
	for (size_t i = 0; i < d.n; i++) {
		if (o->format == FORMAT_TABLE)
			report_table_row(&d.samples[i], line, sizeof line);
		else if (o->format == FORMAT_CSV)
			report_csv_row(&d.samples[i], line, sizeof line);
		else if (!record_sample_json(&d.samples[i], line, sizeof line))
			continue;
		printf("%s\n", line);
	}
	SummaryResult r;
	size_t verified;
	offline_summarise(&d, &r, &verified);
	if (o->format == FORMAT_JSON)
		record_summary_json(stdout, &r, 0, verified);
	else
		report_summary_text(o->format == FORMAT_TABLE ? stdout : stderr, &r, 0, verified, m->target_ms);
	session_data_done(&d);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
