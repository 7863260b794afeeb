/*
 * The planted leaks, linked into build-asan/flopscope-planted only:
 * - -Wl,--wrap=vkctx_create: right after the device list is made (lavapipe
 *   loaded and its own 128-byte realloc done), flopscope's own code loses a
 *   128-byte realloc'd block, the same size and call as Mesa's;
 * - -Wl,--wrap=shaderc_result_release: shader.c's compile result is never
 *   released, a leak made by operator new inside the statically linked
 *   shaderc on flopscope's behalf (what a "leak:operator new" rule hid).
 * tests/sanitizers/planted_leak.sh runs that binary under the suppressions
 * and keep_loaded.c and requires LeakSanitizer to report both: proof that
 * nothing the sanitizer setup hides can hide a leak of ours.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <shaderc/shaderc.h>

#include "vkctx.h"

bool __real_vkctx_create(VkCtx *c, bool validate, char *err, bool *no_device);
bool __wrap_vkctx_create(VkCtx *c, bool validate, char *err, bool *no_device);

static void *volatile planted;

bool __wrap_vkctx_create(VkCtx *c, bool validate, char *err, bool *no_device)
{
	bool ok = __real_vkctx_create(c, validate, err, no_device);

	planted = realloc(NULL, 128);
	if (planted)
		((volatile char *)planted)[0] = 1;
	planted = NULL; /* the only pointer, dropped: a direct leak */
	return ok;
}

void __wrap_shaderc_result_release(shaderc_compilation_result_t result);

void __wrap_shaderc_result_release(shaderc_compilation_result_t result)
{
	(void)result; /* forgotten: the result leaks */
}
