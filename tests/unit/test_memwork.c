/* memwork: the source pattern, size parsing, the sweep, the caps and the
 * checks of copied data. */
#include <stdlib.h>

#include "check.h"
#include "memwork.h"

static void pattern_should_never_be_the_fill_and_marks_should_count(void)
{
	uint64_t data = 1u << 20;
	int same = 0;
	for (uint64_t i = 0; i < data / 4; i++) {
		uint32_t w = mem_src_word(i, data);
		CHECK(w != 0xffffffffu);
		if (i && w == mem_src_word(i - 1, data))
			same++;
	}
	CHECK(same == 0); /* neighbours differ: a shifted copy shows */
	CHECK(mem_src_word(data / 4, data) == 1 && mem_src_word(data / 4 + 9, data) == 10);
}

static void sizes_should_parse_with_binary_suffixes_and_ranges(void)
{
	uint64_t lo, hi;
	char err[256];
	CHECK(mem_parse_size("64M", &lo, &hi, err, sizeof err) && lo == 64ull << 20 && hi == lo);
	CHECK(mem_parse_size("8K-1G", &lo, &hi, err, sizeof err) && lo == 8192 && hi == 1ull << 30);
	CHECK(mem_parse_size("4096", &lo, &hi, err, sizeof err) && lo == 4096);
	CHECK(mem_parse_size("16MiB", &lo, &hi, err, sizeof err) && lo == 16ull << 20);
	CHECK(!mem_parse_size("", &lo, &hi, err, sizeof err));
	CHECK(!mem_parse_size("12X", &lo, &hi, err, sizeof err) && strstr(err, "not a size"));
	CHECK(!mem_parse_size("100", &lo, &hi, err, sizeof err) && strstr(err, "multiples of 16"));
	CHECK(!mem_parse_size("1G-8K", &lo, &hi, err, sizeof err) && strstr(err, "below its start"));
	CHECK(!mem_parse_size("-8K", &lo, &hi, err, sizeof err));
	CHECK(!mem_parse_size("32G", &lo, &hi, err, sizeof err) && strstr(err, "at most"));
	CHECK(!mem_parse_size("99999999999999999999G", &lo, &hi, err, sizeof err));
}

static void sweep_should_go_by_four_and_end_at_the_top(void)
{
	uint64_t s[MEM_SWEEP_MAX_SIZES];
	size_t n = mem_sweep(MEM_SWEEP_MIN, MEM_SWEEP_MAX, s, MEM_SWEEP_MAX_SIZES);
	CHECK(n == 10 && s[0] == 8192 && s[1] == 32768 && s[8] == 512ull << 20 && s[9] == 1ull << 30);
	CHECK(mem_sweep(4096, 4096, s, 4) == 1 && s[0] == 4096);
	CHECK(mem_sweep(16, 1ull << 30, s, 4) == 4 && s[3] == 1ull << 30); /* capped, top kept */
}

static void cap_should_respect_heap_allocation_and_range(void)
{
	CHECK(mem_cap(80ull << 30, 0, 0) == 1ull << 30);
	CHECK(mem_cap(2ull << 30, 0, 0) == 512ull << 20);      /* lavapipe's 2 GiB heap */
	CHECK(mem_cap(80ull << 30, 1ull << 30, 0) == 512ull << 20); /* room for the marks */
	CHECK(mem_cap(80ull << 30, 0, 128ull << 20) == 128ull << 20);
	CHECK(mem_cap(100, 0, 0) == 16);
	CHECK(mem_cap(40, 0, 0) == 0);
}

static void size_names_should_be_binary(void)
{
	char b[32];
	CHECK_STR(mem_size_str(8192, b, sizeof b), "8 KiB");
	CHECK_STR(mem_size_str(1ull << 30, b, sizeof b), "1 GiB");
	CHECK_STR(mem_size_str(3ull << 19, b, sizeof b), "1.5 MiB");
	CHECK_STR(mem_size_str(100, b, sizeof b), "100 B");
}

static void check_offsets_should_cover_first_and_last_region(void)
{
	uint64_t o[MEM_CHECK_REGIONS];
	size_t n = mem_check_offsets(1ull << 20, 1ull << 30, o);
	CHECK(n == MEM_CHECK_REGIONS && o[0] == 0 && o[n - 1] == (1ull << 20) - 16);
	for (size_t i = 1; i < n; i++)
		CHECK(o[i] > o[i - 1] && o[i] % 16 == 0);
	CHECK(mem_check_offsets(48, 1ull << 30, o) == 3 && o[2] == 32);
	CHECK(mem_check_offsets(1ull << 30, 4096, o) == 64 && o[63] == 4080); /* capped by the data */
}

static void region_check_should_catch_stale_shifted_and_wrong_data(void)
{
	uint64_t data = 1ull << 16, o[MEM_CHECK_REGIONS];
	size_t n = mem_check_offsets(data, data, o);
	uint32_t got[MEM_CHECK_REGIONS * 4];
	for (size_t i = 0; i < n; i++)
		for (unsigned w = 0; w < 4; w++)
			got[i * 4 + w] = mem_src_word(o[i] / 4 + w, data);
	char msg[256];
	CHECK(mem_check_regions(got, o, n, data, 0, msg, sizeof msg) == (int)n);
	/* the same data is wrong when the copy should have come from elsewhere */
	CHECK(mem_check_regions(got, o, n, data, 4096, msg, sizeof msg) < 0);
	got[37] = 0xffffffffu;
	CHECK(mem_check_regions(got, o, n, data, 0, msg, sizeof msg) < 0 && strstr(msg, "never written"));
	got[37] = mem_src_word(o[9] / 4 + 2, data); /* region 9, word 1 holds word 2's value */
	CHECK(mem_check_regions(got, o, n, data, 0, msg, sizeof msg) < 0 && strstr(msg, "holds"));
	/* from an offset: the destination's word 0 is the source's word base/4 */
	for (size_t i = 0; i < n; i++)
		for (unsigned w = 0; w < 4; w++)
			got[i * 4 + w] = mem_src_word(1024 + o[i] / 4 + w, data);
	CHECK(mem_check_regions(got, o, n, data, 4096, msg, sizeof msg) == (int)n);
}

static void marks_should_prove_every_copy_and_no_more(void)
{
	uint32_t m[8] = { 1, 2, 3, 0xffffffffu, 0xffffffffu };
	char msg[256];
	CHECK(mem_check_marks(m, 3, msg, sizeof msg) == 0);
	CHECK(mem_check_marks(m, 4, msg, sizeof msg) < 0 && strstr(msg, "copy 4 of 4"));
	CHECK(mem_check_marks(m, 2, msg, sizeof msg) < 0 && strstr(msg, "more than"));
	m[1] = 0xffffffffu;
	CHECK(mem_check_marks(m, 3, msg, sizeof msg) < 0 && strstr(msg, "copy 2 of 3"));
}

static void memory_types_should_be_picked_by_class_or_refused(void)
{
	/* a discrete GPU: VRAM, host memory coherent and cached, the BAR window */
	const uint32_t dgpu[] = {
		MEM_FLAG_DEVICE_LOCAL,
		MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT,
		MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT | MEM_FLAG_HOST_CACHED,
		MEM_FLAG_DEVICE_LOCAL | MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT,
	};
	CHECK(mem_pick_class(dgpu, 4, ~0u, MEM_DEVICE) == 0);       /* not the BAR */
	CHECK(mem_pick_class(dgpu, 4, ~0u, MEM_HOST_COHERENT) == 1); /* neither cached nor device-local */
	CHECK(mem_pick_class(dgpu, 4, ~0u, MEM_HOST_CACHED) == 2);
	CHECK(mem_pick_class(dgpu, 4, 0x8u, MEM_DEVICE) == 3);       /* only what the buffer allows */
	CHECK(mem_pick_class(dgpu, 4, 0x1u, MEM_HOST_CACHED) == -1);
	CHECK(mem_pick_class(dgpu, 4, ~0u, MEM_NONE) == -1);
	/* a device without host-cached memory: the h2d-cached and d2h workloads
	 * are unsupported there (memory.c names the missing class) */
	const uint32_t nocache[] = { MEM_FLAG_DEVICE_LOCAL, MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT };
	CHECK(mem_pick_class(nocache, 2, ~0u, MEM_HOST_CACHED) == -1);
	CHECK(mem_pick_class(nocache, 2, ~0u, MEM_HOST_COHERENT) == 1);
	/* lavapipe: one type with every flag serves every class */
	const uint32_t one[] = { MEM_FLAG_DEVICE_LOCAL | MEM_FLAG_HOST_VISIBLE | MEM_FLAG_HOST_COHERENT |
	                         MEM_FLAG_HOST_CACHED };
	for (int c = MEM_DEVICE; c < MEM_CLASS_COUNT; c++)
		CHECK(mem_pick_class(one, 1, ~0u, (MemClass)c) == 0);
}

int main(void)
{
	RUN(memory_types_should_be_picked_by_class_or_refused);
	RUN(pattern_should_never_be_the_fill_and_marks_should_count);
	RUN(sizes_should_parse_with_binary_suffixes_and_ranges);
	RUN(sweep_should_go_by_four_and_end_at_the_top);
	RUN(cap_should_respect_heap_allocation_and_range);
	RUN(size_names_should_be_binary);
	RUN(check_offsets_should_cover_first_and_last_region);
	RUN(region_check_should_catch_stale_shifted_and_wrong_data);
	RUN(marks_should_prove_every_copy_and_no_more);
	return CHECK_DONE();
}
