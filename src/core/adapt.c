#include "adapt.h"
#include "options.h"

#include <math.h>

GroupCount adapt_initial(void)
{
	return (GroupCount){ 1, 1, 1 };
}

static uint64_t cap_of(const AdaptConfig *cfg, int dim)
{
	uint32_t m = cfg->max[dim] ? cfg->max[dim] : 1;
	return m < ADAPT_SPLIT ? m : ADAPT_SPLIT;
}

GroupCount adapt_split(const AdaptConfig *cfg, uint64_t total)
{
	uint64_t cx = cap_of(cfg, 0), cy = cap_of(cfg, 1), cz = cap_of(cfg, 2);
	uint64_t plane = cx * cy;
	if (total == 0)
		total = 1;
	if (total > plane * cz)
		total = plane * cz;

	GroupCount g;
	if (total > plane) {
		uint64_t z = 1 + (total - 1) / plane;
		uint64_t rem = total / z;
		uint64_t y = 1 + (rem - 1) / cx;
		g.z = (uint32_t)z;
		g.y = (uint32_t)y;
		g.x = (uint32_t)(rem / y);
	} else {
		uint64_t y = 1 + (total - 1) / cx;
		g.z = 1;
		g.y = (uint32_t)y;
		g.x = (uint32_t)(total / y);
	}
	return g;
}

AdaptRule adapt_next(const AdaptConfig *cfg, GroupCount cur, double time_s, GroupCount *next)
{
	if (!(time_s >= cfg->target_s / 10.0)) { /* also NaN or negative */
		uint32_t *dim[3] = { &cur.x, &cur.y, &cur.z };
		for (int i = 0; i < 3; i++) {
			if (*dim[i] <= 1000 && (uint64_t)*dim[i] * 10 <= cfg->max[i]) {
				*dim[i] *= 10;
				*next = cur;
				return ADAPT_GROW;
			}
		}
		if (!(time_s > 0)) { /* nothing measurable and nothing left to grow */
			*next = cur;
			return ADAPT_GROW;
		}
	}
	double ratio = cfg->target_s / time_s;
	double want = ratio * (double)adapt_total(cur);
	uint64_t total = want >= 1.8e19 ? UINT64_MAX : (uint64_t)want;
	*next = adapt_split(cfg, total);
	return ADAPT_RESCALE;
}

double adapt_target_step(double ms, int dir)
{
	/* the series from CLI_MIN_TARGET_MS (1 us) to CLI_MAX_TARGET_MS (10 s) */
	static const double mant[3] = { 1, 2, 5 };
	double best = dir > 0 ? CLI_MAX_TARGET_MS : CLI_MIN_TARGET_MS;
	for (int e = -3; e <= 4; e++)
		for (int m = 0; m < 3; m++) {
			double v = mant[m] * pow(10, e);
			if (v < CLI_MIN_TARGET_MS * 0.999 || v > CLI_MAX_TARGET_MS * 1.001)
				continue;
			/* strictly beyond ms (relative 1e-9: 20 is 20) */
			if (dir > 0 && v > ms * (1 + 1e-9) && v < best)
				best = v;
			if (dir <= 0 && v < ms * (1 - 1e-9) && v > best)
				best = v;
		}
	return best;
}
