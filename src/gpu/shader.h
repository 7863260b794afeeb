/* shader: GLSL compute shaders compiled to SPIR-V at run time with shaderc. */
#ifndef FLOPSCOPE_SHADER_H
#define FLOPSCOPE_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct ShaderDefine {
	const char *name;
	const char *value;
} ShaderDefine;

typedef struct Spirv {
	uint32_t *words;
	size_t size;   /* bytes */
	uint64_t hash; /* FNV-1a of the GLSL source and defines */
} Spirv;

/* Reads path and compiles it as a compute shader. On failure err holds the
 * reason; for a compile error it is shaderc's text, which names the file and
 * line ("fma_fp32.comp:12: error: ..."). Returns 0, -1 for a file that cannot
 * be read, -2 for a shader that does not compile. */
/* A define by this name compiles without spirv-opt (see shader.c). */
#define SHADER_NO_SPIRV_OPT "FLOPSCOPE_NO_SPIRV_OPT"
/* A define by this name compiles without spirv-opt and then rewrites the
 * SPIR-V from NV cooperative matrices with fp16 stand-ins to KHR ones with
 * bfloat16 (src/core/spirv_khr.h): glslang 12 cannot write bfloat16. */
#define SHADER_KHR_BF16 "FLOPSCOPE_KHR_BF16"
/* ... the same, keeping fp16: NV matrices become KHR ones only. */
#define SHADER_KHR "FLOPSCOPE_KHR"

int shader_compile_file(const char *path, const ShaderDefine *defs, size_t ndefs,
                        Spirv *out, char *err);
void shader_free(Spirv *s);

/* As shader_compile_file, but first looks for the SPIR-V of the same source
 * and defines in cache_dir (spirv-HASH.spv), and stores it there after a
 * compile (written whole: temporary file, then rename). cache_dir NULL: no
 * cache. *hit tells whether shaderc was skipped. A cache that cannot be read
 * or written is only a slower start. */
int shader_compile_cached(const char *path, const ShaderDefine *defs, size_t ndefs, const char *cache_dir,
                          Spirv *out, bool *hit, char *err);

/* $XDG_CACHE_HOME/flopscope (or ~/.cache/flopscope), created if missing;
 * false when it cannot be made. */
bool shader_cache_dir(char *out, size_t len);

/* Where the shaders are: dir if given, else $FLOPSCOPE_SHADER_DIR, else
 * ../shaders next to the executable, else ./shaders. */
void shader_dir_resolve(const char *dir, char *out, size_t len);

#endif
