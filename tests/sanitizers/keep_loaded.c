/*
 * Linked into the sanitizer builds only (make check-asan, check-tsan): every
 * library that is dlclosed stays mapped until the process exits.
 *
 * Why: the Vulkan loader dlcloses the driver at vkDestroyInstance. Mesa's
 * lavapipe (22.3, src/util/u_cpu_detect.c) keeps a 128-byte L3 affinity mask,
 * realloc'd once per process on AMD Zen CPUs, in a static of
 * libvulkan_lvp.so and never frees it. Once the library is unmapped, that
 * static is gone: LeakSanitizer sees the block as a direct leak from an
 * "<unknown module>" that no suppression can name. With the library kept,
 * the block stays reachable from the library's data, as it is while the
 * driver is loaded, and every frame keeps its library name, so the
 * by-library suppressions in lsan.supp match and nothing needs to match an
 * unnamed module. This is what the Vulkan loader's own
 * LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING build option does for ASan runs.
 *
 * The real dlclose still runs (reference counts, TSan's library tracking):
 * the library is only marked RTLD_NODELETE first.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>

int dlclose(void *handle)
{
	static int (*real_dlclose)(void *);
	struct link_map *map = NULL;

	if (!real_dlclose) {
		real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
		if (!real_dlclose)
			return -1;
	}
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
	    map->l_name && map->l_name[0])
		/* takes a reference that is never dropped: never unmapped */
		(void)dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	return real_dlclose(handle);
}
