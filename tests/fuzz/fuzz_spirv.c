/* libFuzzer: the bfloat16 SPIR-V rewrite (src/core/spirv_khr.c) on arbitrary
 * words, seeded with the real bf16-matrix stand-in module (tests/fuzz/run.sh
 * compiles it). Whatever comes in, it reads and writes within bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_khr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / 4;
	uint32_t *w = malloc(n ? n * 4 : 4);
	if (!w)
		return 0;
	memcpy(w, data, n * 4);
	if (n >= 4 && w[3] > 4096)
		w[3] = 4096; /* the id bound: keep each run's tables small */
	uint32_t *out;
	size_t words;
	char why[200];
	for (int bf16 = 0; bf16 < 2; bf16++)
		if (spirv_nv_to_khr(w, n, bf16 ? 1000141000u : SPIRV_KEEP_FP16, &out, &words, why, sizeof why) == 0)
			free(out);
	free(w);
	return 0;
}
