#include "memwork.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint32_t mem_src_word(uint64_t i, uint64_t data_bytes)
{
	uint64_t words = data_bytes / 4;
	if (i >= words)
		return (uint32_t)(i - words + 1);
	/* a multiplicative hash of the index; the top bit clear, so never 0xffffffff */
	uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 33);
}

static bool parse_one(const char *s, const char *end, uint64_t *out)
{
	char buf[64];
	size_t n = (size_t)(end - s);
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return false;
	char *rest;
	errno = 0;
	unsigned long long v = strtoull(buf, &rest, 10);
	if (errno)
		return false;
	static const struct { const char *s; unsigned shift; } SUF[] = {
		{ "", 0 }, { "B", 0 }, { "K", 10 }, { "KiB", 10 }, { "M", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GiB", 30 },
	};
	/* any case: 64m, 64M, 64MiB, 64mib */
	for (size_t i = 0; i < sizeof SUF / sizeof *SUF; i++) {
		if (!strcasecmp(rest, SUF[i].s)) {
			if (v > (UINT64_MAX >> SUF[i].shift))
				return false;
			*out = (uint64_t)v << SUF[i].shift;
			return true;
		}
	}
	return false;
}

bool mem_parse_size(const char *text, uint64_t *lo, uint64_t *hi, char *err, size_t len)
{
	const char *dash = strchr(text, '-');
	const char *end = text + strlen(text);
	if (!parse_one(text, dash ? dash : end, lo) || (dash && !parse_one(dash + 1, end, hi))) {
		snprintf(err, len, "\"%s\" is not a size (like 64M, 8K-1G; K, M, G are powers of 1024)", text);
		return false;
	}
	if (!dash)
		*hi = *lo;
	if (*lo < 16 || *lo % 16 || *hi % 16) {
		snprintf(err, len, "\"%s\": sizes are multiples of 16 bytes, at least 16", text);
		return false;
	}
	if (*hi < *lo) {
		snprintf(err, len, "\"%s\": the range ends below its start", text);
		return false;
	}
	if (*hi > (16ull << 30)) {
		snprintf(err, len, "\"%s\": at most 16G", text);
		return false;
	}
	return true;
}

size_t mem_sweep(uint64_t lo, uint64_t hi, uint64_t *out, size_t cap)
{
	size_t n = 0;
	for (uint64_t s = lo; s < hi && n + 1 < cap; s *= 4)
		out[n++] = s;
	if (n < cap)
		out[n++] = hi;
	return n;
}

uint64_t mem_cap(uint64_t heap_bytes, uint64_t max_alloc, uint64_t max_range)
{
	uint64_t lim = MEM_SWEEP_MAX;
	if (heap_bytes && heap_bytes / 4 < lim)
		lim = heap_bytes / 4;
	if (max_alloc && max_alloc - (max_alloc > MEM_MARKS_BYTES ? MEM_MARKS_BYTES : max_alloc) < lim)
		lim = max_alloc - (max_alloc > MEM_MARKS_BYTES ? MEM_MARKS_BYTES : max_alloc);
	if (max_range && max_range < lim)
		lim = max_range;
	uint64_t p = 16;
	while (p * 2 <= lim)
		p *= 2;
	return lim < 16 ? 0 : p;
}

char *mem_size_str(uint64_t b, char *out, size_t len)
{
	static const char *const U[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(out, len, "%" PRIu64 " %s", (uint64_t)v, U[u]);
	else
		snprintf(out, len, "%.3g %s", v, U[u]);
	return out;
}

size_t mem_check_offsets(uint64_t covered, uint64_t data_bytes, uint64_t out[MEM_CHECK_REGIONS])
{
	if (covered > data_bytes)
		covered = data_bytes;
	uint64_t regions = covered / MEM_REGION;
	size_t n = regions < MEM_CHECK_REGIONS ? (size_t)regions : MEM_CHECK_REGIONS;
	for (size_t i = 0; i < n; i++) {
		/* i-th of n evenly spread, the last one at the end */
		uint64_t r = n == 1 ? 0 : (uint64_t)((double)i * (double)(regions - 1) / (double)(n - 1));
		out[i] = r * MEM_REGION;
	}
	return n;
}

int mem_check_regions(const uint32_t *got, const uint64_t *offs, size_t n, uint64_t data_bytes,
                      uint64_t src_base, char *msg, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		for (unsigned w = 0; w < MEM_REGION / 4; w++) {
			uint64_t word = offs[i] / 4 + w;
			uint32_t want = mem_src_word(src_base / 4 + word, data_bytes);
			uint32_t g = got[i * (MEM_REGION / 4) + w];
			if (g != want) {
				snprintf(msg, len, "byte %" PRIu64 " of the destination holds 0x%08x, the source 0x%08x%s",
				         word * 4, g, want, g == 0xffffffffu ? " (never written)" : "");
				return -1;
			}
		}
	}
	return (int)n;
}

int mem_check_marks(const uint32_t *marks, uint32_t copies, char *msg, size_t len)
{
	for (uint32_t k = 0; k < copies; k++) {
		if (marks[k] != k + 1) {
			snprintf(msg, len, "copy %u of %u did not run (its mark reads 0x%08x)", k + 1, copies, marks[k]);
			return -1;
		}
	}
	if (marks[copies] != 0xffffffffu) {
		snprintf(msg, len, "%u copies ran, more than the %u submitted", copies + 1, copies);
		return -1;
	}
	return 0;
}

int mem_pick_class(const uint32_t *flags, uint32_t count, uint32_t bits, MemClass cls)
{
	static const uint32_t need[MEM_CLASS_COUNT] = {
		[MEM_DEVICE] = MEM_FLAG_DEVICE_LOCAL,
		[MEM_HOST_COHERENT] = MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT,
		[MEM_HOST_CACHED] = MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_CACHED,
	};
	if (cls == MEM_NONE || cls >= MEM_CLASS_COUNT)
		return -1;
	int best = -1, best_score = -1;
	for (uint32_t i = 0; i < count && i < 32; i++) {
		uint32_t f = flags[i];
		if (!(bits & (1u << i)) || (f & need[cls]) != need[cls])
			continue;
		int score = 0;
		if (cls == MEM_DEVICE && !(f & MEM_FLAG_HOST_VISIBLE))
			score += 2;
		if (cls != MEM_DEVICE && !(f & MEM_FLAG_DEVICE_LOCAL))
			score += 2;
		if (cls == MEM_HOST_COHERENT && !(f & MEM_FLAG_HOST_CACHED))
			score += 1;
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	return best;
}
