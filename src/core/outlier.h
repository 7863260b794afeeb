/* outlier: the node health rule for several devices at once, pure, the
 * same statistics as a comparison with a baseline (compare.h): a device is
 * an outlier when its steady median is below the median of the devices of
 * its kind (the same name, itself included; at least 2 with a median)
 *  - by more than pct% (the minimum effect: --outlier), and
 *  - by more than the runs' own noise: the larger of its run's and the
 *    median of its peers' (SummaryResult's noise: the 10th-to-90th
 *    percentile range of the 1 s block means over their median).
 * Below by more than pct% but within the noise, or with no noise known (too
 * few samples), it is "cannot tell" (unsure), not an outlier. A device
 * without a median (it failed, or never reached the target) is judged by
 * no one and judges no one. */
#ifndef FLOPSCOPE_OUTLIER_H
#define FLOPSCOPE_OUTLIER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct NodeDevice {
	const char *name;
	double median;      /* NaN: none */
	double noise;       /* its run's noise (SummaryResult's); NaN: unknown */
	double node_ratio;  /* median / its kind's median; NaN when it has no peer */
	double noise_ref;   /* the noise its shortfall was held to; NaN when unknown */
	size_t peers;       /* devices of its kind with a median, itself included */
	bool outlier;
	bool unsure;        /* more than pct% below, within the noise (or none known): cannot tell */
} NodeDevice;

/* Fills node_ratio, noise_ref, peers, outlier and unsure; returns how many
 * are outliers. Every device of a kind counts (no cap); where memory runs
 * out, none is judged (all NaN). */
size_t outlier_apply(NodeDevice *d, size_t n, double pct);
/* How many are unsure (after outlier_apply). */
size_t outlier_unsure(const NodeDevice *d, size_t n);
/* A device's word in the node table, the live view's and the printed one's
 * alike: FAILED, OUTLIER, unsure, else ok (a run still going says its state
 * instead: the caller's). */
const char *outlier_status_word(bool failed, const NodeDevice *d);

#endif
