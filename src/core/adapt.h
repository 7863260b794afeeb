/* adapt: the adaptive 20 ms controller of the Vulkan tutorial (seed 002), pure. */
#ifndef FLOPSCOPE_ADAPT_H
#define FLOPSCOPE_ADAPT_H

#include <stdint.h>

typedef struct GroupCount {
	uint32_t x, y, z;
} GroupCount;

typedef struct AdaptConfig {
	double target_s;    /* wanted dispatch time, 0.020 by default */
	uint32_t max[3];    /* maxComputeWorkGroupCount of the device */
} AdaptConfig;

typedef enum AdaptRule {
	ADAPT_GROW,     /* time < target/10: one dimension multiplied by 10 */
	ADAPT_RESCALE,  /* total scaled by target/time and split over x, y, z */
	ADAPT_RULE_COUNT
} AdaptRule;

/* Largest value of each dimension the rescale rule produces (the tutorial's). */
#define ADAPT_SPLIT 10000u

static inline uint64_t adapt_total(GroupCount g)
{
	return (uint64_t)g.x * g.y * g.z;
}

/* The count a run starts with: 1 x 1 x 1. */
GroupCount adapt_initial(void);

/* Next group count after a dispatch of cur that took time_s seconds.
 * Growth: if time_s < target/10, multiply x by 10 while x <= 1000, else y,
 * else z (a dimension is skipped if x10 would pass the device's maximum).
 * Otherwise, or when no dimension can grow, rescale: total * target/time_s,
 * split with the tutorial's formulas so that each dimension is <= 10000 and
 * <= the device maximum, never 0. The rule used is returned. */
AdaptRule adapt_next(const AdaptConfig *cfg, GroupCount cur, double time_s, GroupCount *next);

/* Split a total into x, y, z as the tutorial does, each <= min(10000, max).
 * Totals above what fits are clamped; 0 becomes 1. */
GroupCount adapt_split(const AdaptConfig *cfg, uint64_t total);

/* The next round target from ms in the 1-2-5 series (... 5, 10, 20, 50 ...
 * ms), up (dir > 0) or down, within the --target-ms range: the dashboard's
 * + and - keys, which therefore always reach 20 ms again. */
double adapt_target_step(double ms, int dir);

#endif
