/* outlier: the node health rule for several devices at once, pure. A
 * device whose steady median is more than pct% below the median of the
 * devices of its kind (the same name, itself included; at least 2 with a
 * median) is an outlier. A device without a median (it failed, or never
 * reached the target) is judged by no one and judges no one. */
#ifndef FLOPSCOPE_OUTLIER_H
#define FLOPSCOPE_OUTLIER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct NodeDevice {
	const char *name;
	double median;      /* NaN: none */
	double node_ratio;  /* median / its kind's median; NaN when it has no peer */
	size_t peers;       /* devices of its kind with a median, itself included */
	bool outlier;
} NodeDevice;

/* Fills node_ratio, peers and outlier; returns how many are outliers. */
size_t outlier_apply(NodeDevice *d, size_t n, double pct);

#endif
