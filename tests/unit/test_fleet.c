/* Unit tests for the fleet's rule and order (core/fleet.c) and the outlier
 * rule without a cap on peers (core/outlier.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fleet.h"
#include "outlier.h"

static FleetRow row(const char *host, const char *name, const char *wl, double median, double noise)
{
	FleetRow r = { .median = median, .noise = noise, .power_w = NAN, .clock_mhz = NAN, .temp_c = NAN };
	snprintf(r.host, sizeof r.host, "%s", host);
	snprintf(r.uuid, sizeof r.uuid, "GPU-%s", host);
	snprintf(r.name, sizeof r.name, "%s", name);
	snprintf(r.workload, sizeof r.workload, "%s", wl);
	return r;
}

/* A kind is the model and the workload: an H100 is not held to H200s, nor
 * a copy to fp32; beyond the margin and the noise an outlier, within the
 * noise "cannot tell". */
static void the_fleet_rule_should_hold_a_gpu_to_its_model_on_its_workload(void)
{
	FleetRow r[] = {
		row("n1", "H200", "fp32", 66e12, 0.01), row("n2", "H200", "fp32", 66.2e12, 0.01),
		row("n3", "H200", "fp32", 50e12, 0.01), row("n4", "H100", "fp32", 50e12, 0.01),
		row("n5", "H100", "fp32", 50.5e12, 0.01), row("n1", "H200", "copy", 4e12, 0.01),
		row("n2", "H200", "copy", 3.9e12, 0.2), row("n3", "H200", "copy", 3.5e12, 0.2),
		row("n6", "H200", "", NAN, NAN),
	};
	size_t n = sizeof r / sizeof *r;
	CHECK(fleet_judge(r, n, 5) == 1);
	CHECK(r[2].outlier && r[2].peers == 3);
	CHECK_NEAR(r[2].fleet_ratio, 50.0 / 66.0, 1e-9);
	CHECK(!r[3].outlier && !r[4].outlier && r[3].peers == 2); /* H100s among themselves */
	CHECK(!r[7].outlier && r[7].unsure); /* 10% below within a 20% noise: cannot tell */
	CHECK(isnan(r[8].fleet_ratio) && r[8].peers == 0); /* no workload: judged by no one */
	CHECK(fleet_row_bad(&r[2]) && !fleet_row_bad(&r[0]) && !fleet_row_bad(&r[7]));
	r[0].missing = true;
	snprintf(r[1].verdict, sizeof r[1].verdict, "wrong");
	snprintf(r[4].verdict, sizeof r[4].verdict, "noref");
	CHECK(fleet_row_bad(&r[0]) && fleet_row_bad(&r[1]) && !fleet_row_bad(&r[4]));
}

/* A fleet's thousand GPUs of one model: every one counts (the node rule
 * stopped at 64 peers). */
static void a_thousand_peers_should_all_count(void)
{
	size_t n = 1000;
	FleetRow *r = malloc(n * sizeof *r);
	CHECK(r != NULL);
	if (!r)
		return;
	for (size_t k = 0; k < n; k++) {
		char host[16];
		snprintf(host, sizeof host, "n%zu", k);
		/* the first 100 at 60, the rest at 100: the median is 100 */
		r[k] = row(host, "H200", "fp32", k < 100 ? 60 : 100, 0.02);
	}
	CHECK(fleet_judge(r, n, 5) == 100);
	CHECK(r[0].peers == n && r[0].outlier && !r[500].outlier);
	CHECK_NEAR(r[0].fleet_ratio, 0.6, 1e-12);
	free(r);
}

static void the_fleet_should_sort_by_what_is_asked(void)
{
	FleetRow r[] = { row("b", "H200", "fp32", 66, 0.01), row("a", "H200", "fp32", 30, 0.01),
		         row("c", "H200", "fp32", 65, 0.01) };
	r[0].power_w = 500;
	r[2].power_w = 690;
	fleet_judge(r, 3, 5);
	fleet_sort(r, 3, FLEET_BY_HOST);
	CHECK_STR(r[0].host, "a");
	CHECK_STR(r[2].host, "c");
	fleet_sort(r, 3, FLEET_BY_POWER); /* the highest first, the unknown last */
	CHECK_STR(r[0].host, "c");
	CHECK_STR(r[2].host, "a");
	fleet_sort(r, 3, FLEET_BY_RATIO); /* the worst first */
	CHECK_STR(r[0].host, "a");
	fleet_sort(r, 3, FLEET_BY_VERDICT); /* those to act on first */
	CHECK(r[0].outlier);
}

/* A node's exporters on several ports are one host: its check's results
 * (node_exporter) and its readings (--watch) join there. */
static void an_instances_port_should_not_make_a_host(void)
{
	static const char *const cases[][2] = {
		{ "node1:9100", "node1" },      { "node1:19400", "node1" },   { "node1", "node1" },
		{ "10.0.0.7:9100", "10.0.0.7" }, { "[::1]:19400", "[::1]" },   { "::1", "::1" },
		{ "fe80::1", "fe80::1" },       { "node1:", "node1:" },       { "node1:web", "node1:web" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char h[128];
		fleet_host_of(cases[i][0], h, sizeof h);
		CHECK_STR(h, cases[i][1]);
	}
	char small[4];
	fleet_host_of("node1:9100", small, sizeof small);
	CHECK_STR(small, "nod");
}

int main(void)
{
	RUN(an_instances_port_should_not_make_a_host);
	RUN(the_fleet_rule_should_hold_a_gpu_to_its_model_on_its_workload);
	RUN(a_thousand_peers_should_all_count);
	RUN(the_fleet_should_sort_by_what_is_asked);
	return CHECK_DONE();
}
