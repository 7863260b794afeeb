/* memwork: the memory workloads' pure parts: the source pattern every copy
 * is checked against, the transfer size sweep, the size parser and the
 * checks of copied data. No Vulkan. */
#ifndef FLOPSCOPE_MEMWORK_H
#define FLOPSCOPE_MEMWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

#define MEM_CHECK_REGIONS 64u      /* 16-byte regions compared on each check */
#define MEM_REGION 16u
#define MEM_MAX_COPIES 10000u      /* copies per submission (the loop's cap) */
#define MEM_MARKS_BYTES (4ull * (MEM_MAX_COPIES + 4)) /* one word per copy, after the data */
#define MEM_SWEEP_MIN (8ull << 10) /* 8 KiB */
#define MEM_SWEEP_MAX (1ull << 30) /* 1 GiB */
#define MEM_SWEEP_MAX_SIZES 24u

/* Word i of a source buffer whose data part is data_bytes long: a pattern
 * that never reads 0xffffffff (the fill a check starts from) in the data,
 * then the numbers 1, 2, 3, ... that each copy k carries as its mark. */
uint32_t mem_src_word(uint64_t i, uint64_t data_bytes);

/* Parses "64M", "8K", "1G", "4096", "16MiB" (powers of 1024) or a range
 * "8K-1G" into lo and hi (equal for one size). Sizes are multiples of 16
 * bytes, at least 16. false with a message. */
bool mem_parse_size(const char *text, uint64_t *lo, uint64_t *hi, char *err, size_t len);

/* The sweep: lo, then x4 while below hi, then hi itself; returns the count
 * (at most cap). lo == hi gives one size. */
size_t mem_sweep(uint64_t lo, uint64_t hi, uint64_t *out, size_t cap);

/* The largest buffer a memory workload uses on a device: 1 GiB, at most a
 * quarter of the smallest heap it needs, less than max_alloc (the marks come
 * on top) and max_range (storage buffers), rounded down to a power of two. */
uint64_t mem_cap(uint64_t heap_bytes, uint64_t max_alloc, uint64_t max_range);

/* Memory property flags as Vulkan numbers them (VkMemoryPropertyFlagBits,
 * fixed by the API), so that the choice below is pure. */
#define MEM_FLAG_DEVICE_LOCAL 0x1u
#define MEM_FLAG_HOST_VISIBLE 0x2u
#define MEM_FLAG_HOST_COHERENT 0x4u
#define MEM_FLAG_HOST_CACHED 0x8u

/* The memory type of a class among the count
 * types whose property flags are given, those allowed by bits: the
 * required flags, then the fewest surprises (device memory that the host
 * cannot map; host memory that is not device-local, and coherent memory
 * that is not cached). -1 if none. */
int mem_pick_class(const uint32_t *flags, uint32_t count, uint32_t bits, MemClass cls);

/* "8 KiB", "1.5 MiB", "1 GiB". */
char *mem_size_str(uint64_t bytes, char *out, size_t len);

/* Offsets of the checked regions over [0, covered): the first and the last
 * region, the rest spread between; 16-byte aligned. Returns how many
 * (fewer when covered holds fewer regions). */
size_t mem_check_offsets(uint64_t covered, uint64_t data_bytes, uint64_t out[MEM_CHECK_REGIONS]);

/* Compares the regions read back (MEM_REGION bytes each, in the order of
 * offs) with the source pattern from src_base on (the destination's byte 0
 * holds the source's byte src_base). -1 with a message naming the first
 * difference; else the number of regions compared. */
int mem_check_regions(const uint32_t *got, const uint64_t *offs, size_t n, uint64_t data_bytes,
                      uint64_t src_base, char *msg, size_t len);

/* The marks of a submission of `copies` copies: word k is k+1 for every
 * copy that ran, word `copies` still the 0xffffffff fill. -1 with a
 * message; else 0. */
int mem_check_marks(const uint32_t *marks, uint32_t copies, char *msg, size_t len);

#endif
