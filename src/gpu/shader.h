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
	char cache_note[256]; /* why a cache entry there was not used ("" when none) */
} Spirv;

/* Reads path and compiles it as a compute shader. On failure err holds the
 * reason; for a compile error it is shaderc's text, which names the file and
 * line ("fma_fp32.comp:12: error: ..."). Returns 0, -1 for a file that cannot
 * be read, -2 for a shader that does not compile. */
/* A define by this name compiles without spirv-opt (see shader.c). */
#define SHADER_NO_SPIRV_OPT "FLOPSCOPE_NO_SPIRV_OPT"
/* A define by this name, its value a matrix component's name ("bf16",
 * devfeat.h's table), compiles without spirv-opt and then rewrites the
 * SPIR-V from NV cooperative matrices with fp16 stand-ins to KHR ones with
 * that type (src/core/spirv_khr.h): glslang 12 cannot write bfloat16. */
#define SHADER_KHR_AS "FLOPSCOPE_KHR_AS"
/* ... the same, keeping fp16: NV matrices become KHR ones only. */
#define SHADER_KHR "FLOPSCOPE_KHR"

int shader_compile_file(const char *path, const ShaderDefine *defs, size_t ndefs,
                        Spirv *out, char *err);
void shader_free(Spirv *s);

/* As shader_compile_file, but first looks for the SPIR-V of the same source
 * and defines in cache_dir (spirv-KEY.spv), and stores it there after a
 * compile (written whole: temporary file, then rename). cache_dir NULL: no
 * cache; refresh: the entry is not read, only written afresh. *hit tells
 * whether shaderc was skipped. A cache is a hint: an entry is used only
 * when its header names this key (source, defines, compiler) and its length
 * and checksum hold, and the SPIR-V's own header is sane; else it is
 * compiled afresh and replaced, out->cache_note saying why. A cache that
 * cannot be read or written is only a slower start. */
int shader_compile_cached(const char *path, const ShaderDefine *defs, size_t ndefs, const char *cache_dir,
                          bool refresh, Spirv *out, bool *hit, char *err);

/* A cache file's frame: a header with a magic, its format, the key the
 * entry is for, the payload's length and checksum, then the payload
 * (SPIR-V words, or a pipeline cache's data). */
#define SHADER_CACHE_FORMAT 1
/* payload into a malloc'd framed buffer of *framed bytes; NULL: no memory. */
void *shader_cache_frame(uint32_t magic, uint64_t key, const void *payload, size_t n, size_t *framed);
/* The payload of a framed file's bytes (within data), or NULL with why:
 * another magic or format, another key, a length or checksum that does not
 * hold. */
const void *shader_cache_unframe(uint32_t magic, uint64_t key, const void *data, size_t n, size_t *payload,
                                 char *why, size_t whylen);
#define SHADER_CACHE_SPIRV 0x56505346u    /* "FSPV" */
#define SHADER_CACHE_PIPELINE 0x43505346u /* "FSPC" */

/* $XDG_CACHE_HOME/flopscope (or ~/.cache/flopscope), created if missing;
 * false when it cannot be made. */
bool shader_cache_dir(char *out, size_t len);

/* Where the shaders are: dir if given, else $FLOPSCOPE_SHADER_DIR, else
 * ../shaders next to the executable, else ./shaders. */
void shader_dir_resolve(const char *dir, char *out, size_t len);

#endif
