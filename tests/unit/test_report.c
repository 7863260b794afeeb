#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "peak.h"
#include "report.h"
#include "throttle.h"

static Sample tutorial_row(void)
{
	/* 1.15 ms into the run, one group, 846 us: the tutorial's first line */
	Sample s = {
		.seq = 0, .t_ms = 1.15, .x = 1, .y = 1, .z = 1, .groups = 1,
		.work = 2560000, .gpu_ns = 846000, .cpu_ns = 1020000,
		.flags = SAMPLE_GPU_TIMED,
	};
	s.rate = (double)s.work / 846e-6;
	return s;
}

static void table_row_should_read_like_the_tutorials(void)
{
	Sample s = tutorial_row();
	char buf[256];
	report_table_row(&s, buf, sizeof buf);
	CHECK_STR(buf, "     1.15ms                1               846 us        3.03 GFLOPS       1.02 ms");
	/* the columns line up with the header */
	CHECK(strstr(report_table_header, "Measurement") - report_table_header == 1);
}

static void table_row_should_use_cpu_time_without_timestamps(void)
{
	Sample s = tutorial_row();
	s.flags = 0;
	s.gpu_ns = 0;
	s.rate = (double)s.work / 1.02e-3;
	char buf[256];
	report_table_row(&s, buf, sizeof buf);
	CHECK(strstr(buf, "1.02 ms        2.51 GFLOPS       1.02 ms"));
}

static void csv_row_should_carry_every_field(void)
{
	Sample s = tutorial_row();
	s.flags |= SAMPLE_STEADY;
	SessionMeta m;
	memset(&m, 0, sizeof m);
	snprintf(m.device, sizeof m.device, "Quadro RTX 3000, \"mobile\"");
	snprintf(m.uuid, sizeof m.uuid, "98c4a1e2-1122-3344-5566-778899aabbcc");
	snprintf(m.pci_bus_id, sizeof m.pci_bus_id, "00000000:01:00.0");
	snprintf(m.host, sizeof m.host, "node7");
	snprintf(m.flopscope_version, sizeof m.flopscope_version, "0.1.0");
	char ident[REPORT_CSV_IDENT_LEN], buf[REPORT_CSV_ROW_LEN];
	report_csv_identity(&m, ident, sizeof ident);
	/* the name quoted as RFC 4180 says (its comma and quotes kept) */
	CHECK_STR(ident, ",\"Quadro RTX 3000, \"\"mobile\"\"\",98c4a1e2-1122-3344-5566-778899aabbcc,00000000:01:00.0,"
	                 "\"node7\",0.1.0");
	report_csv_row(&s, 0, ident, buf, sizeof buf);
	/* dev 1 for one device; every telemetry field of the table a column (none read) */
	char want[512] = "1,0,1.150,1,1,1,1,2560000,846000,1020000,0,0,3.02600473e+09,1,1,0,";
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		strcat(want, ",");
	strcat(want, ",,0,FLOPS,FLOP,workgroups,,,,\"Quadro RTX 3000, \"\"mobile\"\"\",98c4a1e2-1122-3344-5566-778899aabbcc,"
	             "00000000:01:00.0,\"node7\",0.1.0");
	CHECK_STR(buf, want);
	/* no device without a PCI address: the field is empty, not left out */
	m.pci_bus_id[0] = '\0';
	report_csv_identity(&m, ident, sizeof ident);
	report_csv_row(&s, 2, ident, buf, sizeof buf);
	CHECK(strstr(buf, "98c4a1e2-1122-3344-5566-778899aabbcc,,\"node7\"") != NULL);
	CHECK(!strncmp(buf, "2,0,", 4));
	/* as many fields as the header names */
	int commas_h = 0, commas_r = 0;
	for (const char *p = report_csv_header(); *p; p++)
		commas_h += *p == ',';
	for (const char *p = buf; *p; p++)
		commas_r += *p == ',';
	CHECK(commas_h == commas_r - 1); /* one comma is inside the quoted name */
}

static void json_row_should_parse_back(void)
{
	Sample s = tutorial_row();
	cJSON *made = record_sample_obj(&s, 0);
	CHECK(made != NULL);
	char *buf = made ? cJSON_PrintUnformatted(made) : NULL;
	cJSON_Delete(made);
	cJSON *o = buf ? cJSON_Parse(buf) : NULL;
	cJSON_free(buf);
	CHECK(o != NULL);
	if (!o)
		return;
	CHECK_STR(cJSON_GetObjectItem(o, "type")->valuestring, "sample");
	CHECK(cJSON_GetObjectItem(o, "groups")->valuedouble == 1);
	CHECK(cJSON_GetObjectItem(o, "gpu_ns")->valuedouble == 846000);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(o, "gpu_timed")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(o, "steady")));
	CHECK_NEAR(cJSON_GetObjectItem(o, "rate")->valuedouble, s.rate, 1);
	cJSON_Delete(o);
}

/* A sample with every field at its longest (17 digits each, every
 * telemetry field, a device's number: 782 bytes) is one line, whole: no
 * buffer of a fixed length stands between (multi.c dropped a sample over
 * 1 KiB; nothing grew that long yet, a field or two more would have). */
static void the_longest_sample_should_be_written_whole(void)
{
	Sample s = tutorial_row();
	s.t_ms = 1.0 / 3 * 1e9;
	s.rate = 2.0 / 3 * 1e15;
	s.peak_flops = 5.0 / 7 * 1e15;
	s.seq = s.groups = s.work = s.gpu_ns = s.cpu_ns = s.gpu_end_ns = UINT64_C(1) << 52;
	s.x = s.y = s.z = UINT32_MAX;
	s.flags |= SAMPLE_STEADY | SAMPLE_VERIFIED | SAMPLE_PIPELINED | SAMPLE_IMPLAUSIBLE;
	s.trials = 1000;
	s.size = UINT64_C(1) << 40;
	s.target_ms = 1.0 / 7;
	for (int i = 0; i < SAMPLE_TEL_COUNT; i++) {
		s.tel[i] = -1.0 / 3 * (i + 1) * 1e-300;
		s.tel_valid |= 1u << i;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(json_line(f, record_sample_obj(&s, 12)));
	CHECK(!json_line(f, NULL)); /* out of memory: said, nothing written */
	fclose(f);
	CHECK(len > 700 && text[len - 1] == '\n' && !memchr(text, '\n', len - 1));
	cJSON *o = cJSON_Parse(text);
	CHECK(o != NULL);
	if (o) {
		static const char head[] = "{\"dev\":12,\"type\":\"sample\",";
		CHECK(!strncmp(text, head, sizeof head - 1));
		for (int i = 0; i < SAMPLE_TEL_COUNT; i++)
			CHECK(cJSON_GetObjectItem(o, tel_info[i].key)->valuedouble == s.tel[i]);
		CHECK(cJSON_GetObjectItem(o, "target_ms")->valuedouble > 0);
	}
	cJSON_Delete(o);
	free(text);
}

static void summary_should_cover_steady_samples_only(void)
{
	Summary sum;
	summary_init(&sum);
	for (int i = 0; i < 10; i++) {
		Sample s = tutorial_row();
		s.rate = i < 4 ? 1e9 : 100e9 + i * 1e9; /* growth: 4 samples, steady: 6 */
		s.flags = SAMPLE_GPU_TIMED | (i >= 4 ? SAMPLE_STEADY : 0) | (i == 0 ? SAMPLE_VERIFIED : 0);
		s.gpu_ns = 90;
		s.cpu_ns = 100;
		summary_add(&sum, &s);
	}
	SummaryResult r;
	summary_result(&sum, &r);
	CHECK(r.samples == 10 && r.steady == 6 && r.verified == 1 && r.gpu_timed == 10);
	CHECK_NEAR(r.flops.min, 104e9, 1);
	CHECK_NEAR(r.flops.max, 109e9, 1);
	CHECK_NEAR(r.flops.median, 106.5e9, 1);
	CHECK_NEAR(r.ratio_median, 0.9, 1e-12);
	summary_done(&sum);
}

/* A run's own noise: its 1 s block means' 10th-to-90th percentile range
 * over their median; with fewer than 4 blocks its samples'; none with
 * fewer than 10 samples; none in a size sweep. */
static void summary_should_measure_its_runs_noise(void)
{
	Summary sum;
	summary_init(&sum);
	/* 10 s at 20 ms: second k at 100 + k GFLOPS, every sample of it alike */
	for (int i = 0; i < 500; i++) {
		Sample s = tutorial_row();
		s.t_ms = 20.0 * i;
		s.rate = (100.0 + (double)(i / 50)) * 1e9;
		s.flags = SAMPLE_GPU_TIMED | SAMPLE_STEADY;
		summary_add(&sum, &s);
	}
	SummaryResult r;
	summary_result(&sum, &r);
	/* blocks close at >= 1 s and 5 samples: 51 samples each, 9 whole ones
	 * and the rest (about 104 .. 108 GFLOPS across the deciles) */
	CHECK(r.blocks >= 8 && r.blocks <= 10 && !r.noise_of_samples);
	CHECK(r.noise > 0.05 && r.noise < 0.09);
	summary_done(&sum);
	/* 0.4 s: 20 samples, too few blocks: the samples' own range */
	summary_init(&sum);
	for (int i = 0; i < 20; i++) {
		Sample s = tutorial_row();
		s.t_ms = 20.0 * i;
		s.rate = i % 2 ? 110e9 : 90e9;
		s.flags = SAMPLE_GPU_TIMED | SAMPLE_STEADY;
		summary_add(&sum, &s);
	}
	summary_result(&sum, &r);
	CHECK(r.blocks < 4 && r.noise_of_samples);
	CHECK_NEAR(r.noise, 20.0 / 100, 1e-9);
	summary_done(&sum);
	/* 5 samples: none known */
	summary_init(&sum);
	for (int i = 0; i < 5; i++) {
		Sample s = tutorial_row();
		s.t_ms = 20.0 * i;
		s.flags = SAMPLE_GPU_TIMED | SAMPLE_STEADY;
		summary_add(&sum, &s);
	}
	summary_result(&sum, &r);
	CHECK(isnan(r.noise));
	summary_done(&sum);
}

static void summary_should_stay_bounded_over_long_sessions(void)
{
	Summary sum;
	summary_init(&sum);
	for (uint64_t i = 0; i < 200000; i++) {
		Sample s = tutorial_row();
		s.t_ms = 20.0 * (double)i;
		s.rate = 1e9 * (double)(i % 101); /* uniform 0 .. 100 GFLOPS */
		s.flags = SAMPLE_GPU_TIMED | SAMPLE_STEADY;
		summary_add(&sum, &s);
	}
	CHECK(sum.steady <= SUMMARY_CAP && sum.steady >= SUMMARY_CAP / 2);
	CHECK(sum.gpu_timed <= SUMMARY_CAP);
	CHECK(sum.cap_flops <= SUMMARY_CAP && sum.cap_ratio <= SUMMARY_CAP);
	SummaryResult r;
	summary_result(&sum, &r);
	CHECK(r.steady == 200000 && r.steady_kept == sum.steady);
	CHECK_NEAR(r.flops.median, 50e9, 2e9);  /* evenly thinned: still the middle */
	CHECK_NEAR(r.flops.max, 100e9, 0);
	summary_done(&sum);
}

/* A summary and its copy give the same result, at every stage of the
 * thinning, with a sweep's sizes and a restart; the copy owns its buffers
 * (the original's later samples do not reach it). */
static void a_copied_summary_should_read_the_same(void)
{
	Summary sum, copy;
	summary_init(&sum);
	summary_init(&copy);
	for (uint64_t i = 0; i < 3 * SUMMARY_CAP; i++) {
		Sample s = tutorial_row();
		s.t_ms = 20.0 * (double)i;
		s.rate = 1e9 * (double)(i % 97 + 1);
		s.peak_flops = 200e9;
		s.gpu_end_ns = 20000000 * (i + 1);
		s.size = i % 3 ? 0 : 4096u << (i % 5);
		s.flags = SAMPLE_GPU_TIMED | (i % 4 ? SAMPLE_STEADY : 0) | (i % 7 ? 0 : SAMPLE_VERIFIED);
		summary_add(&sum, &s);
		if (i == SUMMARY_CAP)
			summary_restart(&sum);
		if (!i || (i % 5000 && i != 3 * SUMMARY_CAP - 1))
			continue;
		CHECK(summary_copy(&copy, &sum));
		SummaryResult a, b;
		summary_result(&sum, &a);
		summary_result(&copy, &b);
		CHECK(a.samples == b.samples && a.steady == b.steady && a.steady_kept == b.steady_kept);
		CHECK(a.verified == b.verified && a.segments == b.segments && a.nsizes == b.nsizes);
		CHECK(a.flops.median == b.flops.median && a.flops.ci95 == b.flops.ci95);
		CHECK(a.pct_peak == b.pct_peak && a.ratio_median == b.ratio_median);
		CHECK(isnan(a.duty) ? isnan(b.duty) : a.duty == b.duty);
		CHECK(a.nsizes > 1 && a.sizes[1].median == b.sizes[1].median && a.sizes[1].n == b.sizes[1].n);
		CHECK(copy.steady_flops != sum.steady_flops && copy.size_vals[0] != sum.size_vals[0]);
	}
	SummaryResult before, after;
	summary_result(&copy, &before);
	Sample s = tutorial_row();
	s.rate = 1e15;
	s.flags = SAMPLE_STEADY;
	for (int i = 0; i < 1000; i++)
		summary_add(&sum, &s);
	summary_result(&copy, &after);
	CHECK(before.samples == after.samples && before.flops.max == after.flops.max);
	CHECK(after.segments == 2);
	summary_done(&sum);
	summary_done(&copy);
}

static void summary_without_timestamps_should_say_so(void)
{
	Summary sum;
	summary_init(&sum);
	Sample s = tutorial_row();
	s.flags = 0;
	summary_add(&sum, &s);
	SummaryResult r;
	summary_result(&sum, &r);
	CHECK(isnan(r.ratio_median));
	CHECK(r.flops.n == 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	report_summary_text(f, &r, 0, 1, 20);
	fclose(f);
	CHECK(strstr(text, "no GPU timestamps"));
	CHECK(strstr(text, "no sample reached the target"));
	free(text);
	summary_done(&sum);
}

/* What the data cannot tell is not claimed: no samples say nothing about
 * timestamps, one sample has no confidence interval. */
static void summary_should_not_claim_what_few_samples_cannot_tell(void)
{
	Summary sum;
	summary_init(&sum);
	SummaryResult r;
	summary_result(&sum, &r);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	report_summary_text(f, &r, 0, 0, 20);
	fclose(f);
	CHECK(!strstr(text, "no GPU timestamps") && strstr(text, "no sample to tell"));
	free(text);
	Sample s = tutorial_row();
	s.flags = SAMPLE_STEADY;
	summary_add(&sum, &s);
	summary_result(&sum, &r);
	f = open_memstream(&text, &len);
	report_summary_text(f, &r, 0, 0, 20);
	fclose(f);
	CHECK(r.flops.n == 1);
	CHECK(!strstr(text, "95% CI") && strstr(text, "one sample: no spread, no CI"));
	free(text);
	summary_done(&sum);
}

/* Eight lasting steps: 1.0 -> 1.5 -> 1.0 -> 0.5 -> 1.0 ... of 100 samples
 * each, so the detector confirms each one. */
static void eight_changes(ChangeDetector *d)
{
	static const double levels[9] = { 1.0, 1.5, 1.0, 0.5, 1.0, 1.2, 1.0, 3.0, 1.0 };
	double tel[TEL_FIELD_COUNT];
	for (int k = 0; k < TEL_FIELD_COUNT; k++)
		tel[k] = NAN;
	change_init(d);
	for (int i = 0; i < 900; i++)
		change_add(d, 20.0 * i, 1e11 * levels[i / 100], tel);
}

/* After a run the summary gives the counts and the 5 largest changes, in
 * time order, and says where the rest are; --analyze lists every one. */
static void summary_should_give_the_five_largest_changes_and_where_the_rest_are(void)
{
	ChangeDetector d;
	eight_changes(&d);
	CHECK(d.nchanges == 8);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	report_changes(f, &d, "FLOPS", "  ", REPORT_SUMMARY_CHANGES);
	fclose(f);
	CHECK(strstr(text, "the 5 largest of 8, in time order (flopscope --analyze on the session log lists every one)"));
	int lines = 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	/* the counts, the heading, five changes (one line each or more) */
	CHECK(lines >= 7);
	/* the largest (1.0 -> 3.0 and back, 1.0 -> 0.5 and back) are there, the
	 * smallest (1.0 -> 1.2 and back) are not */
	CHECK(strstr(text, "(x3.00)") && strstr(text, "(x0.50)") && strstr(text, "(x0.33)"));
	CHECK(!strstr(text, "(x1.20)") && !strstr(text, "(x0.83)"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	report_changes(f, &d, "FLOPS", "", 0);
	fclose(f);
	CHECK(!strstr(text, "largest") && strstr(text, "(x1.20)"));
	free(text);
}


/* Energy: each power reading over its sample's time (times its trials),
 * the work per joule over the same samples, the limit read last and the
 * time at each reason; none read: N/A and nulls, never 0. */
/* The card's energy counter where it has one: the run's mean power is its
 * difference between its first and last new values over their time (a
 * one-second average that lags, as NVML's power_w, makes no difference
 * then); the instant power, where read, is the readings' integral without a
 * counter; the first value seen (perhaps older than the run) is no point. */
static void energy_should_come_from_the_cards_counter_where_it_has_one(void)
{
	for (int with_counter = 0; with_counter < 2; with_counter++) {
		Summary sum;
		summary_init(&sum);
		for (int i = 0; i < 100; i++) { /* 2 s at 20 ms */
			Sample s = { .seq = (uint64_t)i, .t_ms = 20.0 * (i + 1), .cpu_ns = 20000000, .work = 1000000,
			             .rate = 5e7, .flags = SAMPLE_STEADY };
			s.tel_valid = 1u << TEL_POWER_W | 1u << TEL_POWER_INSTANT_W;
			s.tel[TEL_POWER_W] = 200 + 2.5 * i;  /* the average, a second behind */
			s.tel[TEL_POWER_INSTANT_W] = 690;
			if (with_counter) { /* 700 W, read at 130 ms, 380 ms, ... (every 250 ms); one older value first */
				double read = floor((s.t_ms - 130) / 250) * 250 + 130;
				s.tel_valid |= 1u << TEL_ENERGY_J;
				s.tel[TEL_ENERGY_J] = s.t_ms < 130 ? 1000 : 5000 + 700 * read * 1e-3;
			}
			summary_add(&sum, &s);
		}
		SummaryResult r;
		summary_result(&sum, &r);
		const Energy *e = &r.energy;
		CHECK(energy_known(e) && e->counter == (with_counter == 1));
		/* the counter's 700 W over its span (1.75 s: its points at the samples that first carry a new value,
		 * 20 ms apart at most), the readings' 690 W before and after it */
		double span = with_counter ? e->ctr_t1 - e->ctr_t0 : 0;
		CHECK(!with_counter || (span > 1700 && span < 1800));
		CHECK_NEAR(energy_mean_w(e), (700 * span + 690 * (2000 - span)) / 2000, with_counter ? 700 * 0.02 / 1.75 : 1e-6);
		CHECK_NEAR(e->seconds, 2.0, 1e-9);
		CHECK_NEAR(e->max_w, 690, 0); /* the highest reading */
		summary_done(&sum);
	}
}

/* Pipelined on a slow host, completions overlap: each sample's time (its
 * completion interval) summed exceeds the wall time the counter spans. The
 * mean is the counter's joules over its own span, not over that sum (which
 * read 432 W for 500 under ThreadSanitizer); the readings cover the edges. */
static void energy_counter_mean_should_divide_by_its_own_span(void)
{
	Summary sum;
	summary_init(&sum);
	for (int i = 0; i < 100; i++) { /* 2 s of samples 20 ms apart, each 30 ms long: 3 s summed */
		Sample s = { .seq = (uint64_t)i, .t_ms = 20.0 * (i + 1), .cpu_ns = 30000000, .work = 1000000,
		             .rate = 5e7, .flags = SAMPLE_STEADY | SAMPLE_PIPELINED };
		s.tel_valid = 1u << TEL_POWER_W | 1u << TEL_ENERGY_J;
		s.tel[TEL_POWER_W] = 500;
		double read = floor((s.t_ms - 130) / 250) * 250 + 130; /* read every 250 ms */
		s.tel[TEL_ENERGY_J] = s.t_ms < 130 ? 1000 : 5000 + 500 * read * 1e-3;
		summary_add(&sum, &s);
	}
	SummaryResult r;
	summary_result(&sum, &r);
	const Energy *e = &r.energy;
	CHECK(energy_known(e) && e->counter);
	CHECK_NEAR(energy_mean_w(e), 500, 500 * 0.02);
	/* the time covered: the counter's span and the edges' samples, not 3 s */
	double span = (e->ctr_t1 - e->ctr_t0) * 1e-3;
	CHECK(span > 1.7 && span < 1.8);
	CHECK(e->seconds > span && e->seconds < 2.0 + 0.03 * 10);
	CHECK_NEAR(energy_per_joule(e), 100 * 1e6 / e->joules, 1e-6);
	summary_done(&sum);
}

static void summary_energy_should_integrate_readings_and_say_na_without(void)
{
	Summary sum;
	summary_init(&sum);
	for (int i = 0; i < 10; i++) {
		Sample s = { 0 };
		s.seq = (uint64_t)i;
		s.t_ms = 20.0 * (i + 1);
		s.cpu_ns = 20000000;          /* 20 ms */
		s.trials = i < 5 ? 1 : 2;     /* 5 x 20 ms + 5 x 40 ms = 0.3 s */
		s.work = 1000000;
		s.rate = 5e7;
		s.flags = SAMPLE_STEADY | (i == 9 ? SAMPLE_IMPLAUSIBLE : 0); /* energy was spent all the same */
		s.tel_valid = 1u << TEL_THROTTLE;
		s.tel[TEL_THROTTLE] = i >= 6 ? 0x4 | 0x20 : 0;
		if (i != 3) { /* one sample without a reading: not counted */
			s.tel_valid |= 1u << TEL_POWER_W | 1u << TEL_POWER_LIMIT_W;
			s.tel[TEL_POWER_W] = i < 5 ? 100 : 300;
			s.tel[TEL_POWER_LIMIT_W] = i < 8 ? 350 : 300;
		}
		summary_add(&sum, &s);
	}
	SummaryResult r;
	summary_result(&sum, &r);
	const Energy *e = &r.energy;
	CHECK(energy_known(e));
	CHECK_NEAR(e->joules, 4 * 100 * 0.02 + 5 * 300 * 0.04, 1e-9); /* 68 J */
	CHECK_NEAR(e->seconds, 4 * 0.02 + 5 * 0.04, 1e-12);
	CHECK_NEAR(energy_mean_w(e), 68 / 0.28, 1e-9);
	CHECK_NEAR(e->max_w, 300, 0);
	CHECK_NEAR(e->limit_w, 300, 0);
	CHECK_NEAR(energy_per_joule(e), (4 * 1e6 + 5 * 2e6) / 68.0, 1e-6);
	CHECK_NEAR(e->reason_s[0], 4 * 0.04, 1e-12);  /* power cap: samples 6-9 */
	CHECK_NEAR(e->reason_s[2], 4 * 0.04, 1e-12);  /* thermal (software) */
	CHECK(e->reason_s[1] == 0 && e->reasons);
	char buf[1024];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	report_energy_text(f, e, "FLOPS", "  ");
	fclose(f);
	CHECK(strstr(buf, "  energy: 68.0 J over 0.28 s of dispatches, mean 243 W, max 300 W of a 300 W limit (mean 81%); "
	                  "206 kFLOP/J (power readings integrated: no energy counter read)\n"));
	CHECK(strstr(buf, "  held by: power cap 0.16 s, thermal (software) 0.16 s\n"));
	summary_done(&sum);

	summary_init(&sum);
	Sample s = { .cpu_ns = 1000000, .work = 5, .flags = SAMPLE_STEADY, .rate = 5e3 };
	summary_add(&sum, &s);
	summary_result(&sum, &r);
	CHECK(!energy_known(&r.energy) && isnan(energy_mean_w(&r.energy)) && isnan(energy_per_joule(&r.energy)));
	f = fmemopen(buf, sizeof buf, "w");
	report_energy_text(f, &r.energy, "B/s", "");
	fclose(f);
	CHECK_STR(buf, "energy: N/A (no power reading)\n");
	summary_done(&sum);
	/* the power now, against its limit where read; the reasons by name */
	Sample p = { .tel_valid = 1u << TEL_POWER_W, .tel[TEL_POWER_W] = 612.4 };
	sample_power_str(&p, buf, sizeof buf);
	CHECK_STR(buf, "612 W");
	p.tel_valid |= 1u << TEL_POWER_LIMIT_W;
	p.tel[TEL_POWER_LIMIT_W] = 700;
	sample_power_str(&p, buf, sizeof buf);
	CHECK_STR(buf, "612 / 700 W (87%)");
	p.tel_valid = 0;
	sample_power_str(&p, buf, sizeof buf);
	CHECK_STR(buf, "");
	throttle_names(0x4 | 0x40 | 0x1, buf, sizeof buf);
	CHECK_STR(buf, "power cap, thermal (hardware)");
	throttle_names(0x1, buf, sizeof buf);
	CHECK_STR(buf, "");
}

/* The power workload's verdict, as DCGM's targeted_power gives one: its
 * share of the limit; the power cap expected; another cause fails it. */
static void power_verdict_should_hold_the_mean_to_the_limit_and_name_other_causes(void)
{
	Energy e;
	energy_init(&e);
	e.joules = 698 * 8.0;
	e.seconds = 8.0;
	e.work = 1e15;
	e.max_w = 723;
	e.limit_w = 700;
	e.power = e.reasons = true;
	e.reasons_seconds = 8.0;
	e.reason_s[0] = 7.9; /* power cap */
	double ratio;
	char why[512];
	CHECK(energy_verdict(&e, 0.75, &ratio, why, sizeof why) == POWER_REACHED);
	CHECK_NEAR(ratio, 698.0 / 700, 1e-12);
	CHECK_STR(why, "mean 698 W, 100% of the 700 W limit, reaches 75%; held by the power cap 7.90 s of 8.00 "
	               "(99%), as expected at the limit");
	e.joules = 400 * 8.0;
	CHECK(energy_verdict(&e, 0.75, &ratio, why, sizeof why) == POWER_SHORT && strstr(why, "57% of the 700 W limit, below 75%"));
	e.reason_s[1] = 0.5; /* HW slowdown */
	e.reason_s[3] = 1.25; /* thermal (hardware) */
	CHECK(energy_verdict(&e, 0.75, &ratio, why, sizeof why) == POWER_SLOWED);
	CHECK(strstr(why, "held by: HW slowdown 0.50 s (6%), thermal (hardware) 1.25 s (16%) (mean 400 W"));
	/* any workload: the faults named with their share, the cap apart */
	char fault[256], cap[128];
	CHECK(energy_fault(&e, fault, sizeof fault, cap, sizeof cap));
	CHECK_STR(fault, "HW slowdown 0.50 s (6%), thermal (hardware) 1.25 s (16%)");
	CHECK_STR(cap, "held by the power cap 7.90 s of 8.00 (99%)");
	e.reason_s[1] = e.reason_s[3] = 0;
	CHECK(!energy_fault(&e, fault, sizeof fault, NULL, 0) && !fault[0]);
	Energy unread;
	energy_init(&unread);
	unread.reason_s[1] = 3; /* no reason bits read: nothing to say */
	CHECK(!energy_fault(&unread, fault, sizeof fault, cap, sizeof cap) && !cap[0]);
	e.reason_s[1] = 0.5;
	e.reason_s[3] = 1.25;
	e.limit_w = NAN;
	CHECK(energy_verdict(&e, 0.75, &ratio, why, sizeof why) == POWER_NA && isnan(ratio) && strstr(why, "no power limit"));
	Energy none;
	energy_init(&none);
	CHECK(energy_verdict(&none, 0.75, &ratio, why, sizeof why) == POWER_NA && strstr(why, "power N/A"));
}

/* The driver's violation counters (NVML's): a run's count is its samples'
 * last reading less their first; the power count is the cap's time where
 * the driver keeps one, a thermal count no reason bit showed (it fell
 * between readings) is a fault; no counter: NaN, nothing said. */
static void set_tel(Sample *x, TelField f, double v)
{
	x->tel_valid |= 1u << f;
	x->tel[f] = v;
}

static void violation_counters_should_time_the_cap_and_catch_what_bits_missed(void)
{
	Summary s;
	summary_init(&s);
	Sample x = { .t_ms = 20, .cpu_ns = 20000000, .work = 1000, .rate = 5e4, .flags = SAMPLE_STEADY };
	for (int k = 0; k < 100; k++) {
		x.seq = (uint64_t)k;
		x.t_ms = 20.0 * (k + 1);
		x.tel_valid = 0;
		set_tel(&x, TEL_POWER_W, 690);
		set_tel(&x, TEL_POWER_LIMIT_W, 700);
		set_tel(&x, TEL_THROTTLE, k >= 50 ? 0x4 : 0); /* the cap's bit half the run */
		set_tel(&x, TEL_VIOL_POWER_S, 1000 + 0.015 * k); /* the driver: 15 ms of each 20 */
		set_tel(&x, TEL_VIOL_THERMAL_S, 7 + (k >= 90 ? 0.03 : 0)); /* 30 ms no sample saw */
		summary_add(&s, &x);
	}
	SummaryResult r;
	summary_result(&s, &r);
	summary_done(&s);
	CHECK_NEAR(energy_violation_s(&r.energy, VIOL_POWER), 0.015 * 99, 1e-9);
	CHECK_NEAR(energy_violation_s(&r.energy, VIOL_THERMAL), 0.03, 1e-9);
	char fault[256], cap[160];
	CHECK(energy_fault(&r.energy, fault, sizeof fault, cap, sizeof cap));
	CHECK_STR(fault, "thermal (time at a limit, driver's count) 0.03 s (2%)");
	CHECK_STR(cap, "time at a limit, driver's count: power 1.49 s of 2.00 (74%)");
	/* the counter spans a little more than the dispatches: never more than all of them */
	Energy over = r.energy;
	over.viol_last[VIOL_POWER] = over.viol_first[VIOL_POWER] + 2.01;
	energy_fault(&over, fault, sizeof fault, cap, sizeof cap);
	CHECK_STR(cap, "time at a limit, driver's count: power 2.00 s of 2.00 (100%)");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	report_energy_text(f, &r.energy, "FLOPS", "");
	fclose(f);
	CHECK(text && strstr(text, "time at a limit, driver's count: power 1.49 s, thermal 0.03 s\n"));
	free(text);
	Energy none;
	energy_init(&none);
	CHECK(isnan(energy_violation_s(&none, VIOL_POWER)) && isnan(energy_violation_s(&none, VIOL_THERMAL)));
	CHECK(!energy_fault(&none, fault, sizeof fault, cap, sizeof cap) && !cap[0]);
}

/* The PCIe link over the steady samples: below what it can train to for
 * most of the run, a fault named with the lowest seen; a few low readings
 * (a retrain) are not. */
static void a_link_below_its_maximum_most_of_the_run_should_be_a_fault(void)
{
	for (int low = 0; low <= 1; low++) {
		Summary s;
		summary_init(&s);
		Sample x = { .cpu_ns = 20000000, .work = 1000, .rate = 5e4, .flags = SAMPLE_STEADY | SAMPLE_BYTES, .size = 1 << 20 };
		for (int k = 0; k < 20; k++) {
			x.seq = (uint64_t)k;
			x.t_ms = 20.0 * (k + 1);
			x.tel_valid = 0;
			bool down = low ? k >= 5 : k < 3;
			set_tel(&x, TEL_PCIE_GTS, down ? 16 : 32);
			set_tel(&x, TEL_PCIE_WIDTH, down ? 8 : 16);
			set_tel(&x, TEL_PCIE_MAX_GTS, 32);
			set_tel(&x, TEL_PCIE_MAX_WIDTH, 16);
			summary_add(&s, &x);
		}
		SummaryResult r;
		summary_result(&s, &r);
		summary_done(&s);
		char why[96];
		CHECK(r.link.n == 20 && link_degraded(&r.link, why, sizeof why) == (low == 1));
		CHECK_STR(why, low ? "PCIe Gen4 x8, below its maximum Gen5 x16" : "");
	}
	Summary none;
	summary_init(&none);
	SummaryResult r;
	summary_result(&none, &r);
	summary_done(&none);
	char why[96];
	CHECK(!link_degraded(&r.link, why, sizeof why));
	CHECK(isnan(link_replays(&r.link)) && !link_replays_excess(&r.link, why, sizeof why));
	/* the driver's replay count, over every sample (steady or not): more
	 * than PCIE_MAX_REPLAYS during the run is a link retransmitting; a
	 * count that went back (the driver restarted) is no count; NVML's 32-bit
	 * counter crossing 2^32 is counted modulo 2^32 */
	const double ends[][2] = { { 1000, 1050 }, { 1000, 1000 + PCIE_MAX_REPLAYS + 1 }, { 1000, 10 },
		                       { 4294967290.0, 5 }, { 4294967290.0, 100 } };
	for (size_t c = 0; c < sizeof ends / sizeof *ends; c++) {
		Summary s;
		summary_init(&s);
		Sample x = { .cpu_ns = 20000000, .work = 1000, .rate = 5e4, .flags = SAMPLE_BYTES, .size = 1 << 20 };
		for (int k = 0; k < 10; k++) {
			x.seq = (uint64_t)k;
			x.t_ms = 20.0 * (k + 1);
			x.tel_valid = 0;
			set_tel(&x, TEL_PCIE_REPLAYS, k < 9 ? ends[c][0] : ends[c][1]);
			summary_add(&s, &x);
		}
		summary_result(&s, &r);
		summary_done(&s);
		bool excess = link_replays_excess(&r.link, why, sizeof why);
		if (c == 0)
			CHECK(link_replays(&r.link) == 50 && !excess);
		else if (c == 1)
			CHECK(link_replays(&r.link) == PCIE_MAX_REPLAYS + 1 && excess &&
			      !strcmp(why, "81 PCIe replays during the run (more than 80: a link retransmitting)"));
		else if (c == 2)
			CHECK(isnan(link_replays(&r.link)) && !excess);
		else if (c == 3)
			CHECK(link_replays(&r.link) == 11 && !excess);
		else
			CHECK(link_replays(&r.link) == 106 && excess);
	}
}

/* A link's width as sysfs gives it: a width no link has is no reading
 * (sscanf's %u took 4294967297 as x1 and failed a transfer as a degraded
 * link). */
static void a_link_width_no_link_has_should_be_no_reading(void)
{
	double gts;
	unsigned lanes;
	CHECK(pcie_link_parse("32.0 GT/s PCIe", "16", &gts, &lanes) && gts == 32 && lanes == 16);
	CHECK(pcie_link_parse("16.0 GT/s PCIe", "8\n", &gts, &lanes) && lanes == 8);
	static const char *const bad[] = { "4294967297", "18446744073709551617", "0", "-1", "65", "x16", "16x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK(!pcie_link_parse("32.0 GT/s PCIe", bad[i], &gts, &lanes));
}

/* The log's schema names every reason bit of the one table, as the
 * outputs name it ("0x4 power cap"): the schema is what readers have. */
static void the_logs_schema_should_name_every_throttle_bit(void)
{
	FILE *f = fopen("docs/schema/log.schema.json", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	for (size_t k = 0; k < throttle_reason_count; k++) {
		char want[64];
		snprintf(want, sizeof want, "0x%llx %s", (unsigned long long)throttle_reasons[k].bit, throttle_reasons[k].name);
		CHECK(strstr(text, want) != NULL);
	}
}

/* The records' schemas hold every measured quantity of the table
 * (tel_rows.h): the log's samples each key, --watch's those it shows; a
 * row added without its schema entry fails here, not in a user's
 * validator. */
static void the_schemas_should_hold_every_measured_quantity(void)
{
	static const struct { const char *path; bool watch_only; } files[] = {
		{ "docs/schema/log.schema.json", false }, { "docs/schema/watch.schema.json", true },
	};
	static char text[1 << 17];
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		FILE *f = fopen(files[i].path, "r");
		CHECK(f != NULL);
		if (!f)
			continue;
		size_t n = fread(text, 1, sizeof text - 1, f);
		text[n] = '\0';
		fclose(f);
		for (int k = 0; k < TEL_FIELD_COUNT; k++) {
			if (files[i].watch_only && !tel_info[k].watch)
				continue;
			char want[96];
			snprintf(want, sizeof want, "\"%s\": {", tel_info[k].key);
			CHECK(strstr(text, want) != NULL);
			if (!strstr(text, want))
				fprintf(stderr, "  %s lacks %s\n", files[i].path, tel_info[k].key);
		}
	}
}

int main(void)
{
	RUN(the_logs_schema_should_name_every_throttle_bit);
	RUN(the_schemas_should_hold_every_measured_quantity);
	RUN(a_link_width_no_link_has_should_be_no_reading);
	RUN(summary_should_give_the_five_largest_changes_and_where_the_rest_are);
	RUN(table_row_should_read_like_the_tutorials);
	RUN(summary_should_not_claim_what_few_samples_cannot_tell);
	RUN(table_row_should_use_cpu_time_without_timestamps);
	RUN(csv_row_should_carry_every_field);
	RUN(json_row_should_parse_back);
	RUN(the_longest_sample_should_be_written_whole);
	RUN(summary_should_cover_steady_samples_only);
	RUN(summary_should_measure_its_runs_noise);
	RUN(summary_should_stay_bounded_over_long_sessions);
	RUN(summary_without_timestamps_should_say_so);
	RUN(a_copied_summary_should_read_the_same);
	RUN(summary_energy_should_integrate_readings_and_say_na_without);
	RUN(energy_should_come_from_the_cards_counter_where_it_has_one);
	RUN(energy_counter_mean_should_divide_by_its_own_span);
	RUN(power_verdict_should_hold_the_mean_to_the_limit_and_name_other_causes);
	RUN(violation_counters_should_time_the_cap_and_catch_what_bits_missed);
	RUN(a_link_below_its_maximum_most_of_the_run_should_be_a_fault);
	return CHECK_DONE();
}
