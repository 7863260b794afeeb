#include "shader.h"
#include "fileio.h"
#include "paths.h"
#include "devfeat.h"
#include "spirv_khr.h"

#include <errno.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>
#include <shaderc/shaderc.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The hash a session log records: the GLSL source and the defines. */
static uint64_t source_hash(const char *src, size_t len, const ShaderDefine *defs, size_t ndefs)
{
	uint64_t h = fnv1a(0xcbf29ce484222325ull, src, len);
	for (size_t i = 0; i < ndefs; i++) {
		h = fnv1a(h, defs[i].name, strlen(defs[i].name) + 1);
		h = fnv1a(h, defs[i].value, strlen(defs[i].value) + 1);
	}
	return h;
}

/* The defines onto opts, and what they ask of the compile: whether to run
 * spirv-opt, and the KHR rewrite (*as: the type the fp16 stand-ins become;
 * SPIRV_KEEP_FP16 none). false with err for a type it does not know. */
static bool take_defines(shaderc_compile_options_t opts, const ShaderDefine *defs, size_t ndefs, bool *optimise,
                         bool *khr, uint32_t *as, char *err)
{
	*optimise = true;
	*khr = false;
	*as = SPIRV_KEEP_FP16;
	for (size_t i = 0; i < ndefs; i++) {
		shaderc_compile_options_add_macro_definition(opts, defs[i].name, strlen(defs[i].name),
		                                             defs[i].value, strlen(defs[i].value));
		/* Debian 12's SPIRV-Tools (2023.1) crashes (SIGSEGV) optimising
		 * cooperative-matrix code: such a shader asks to skip spirv-opt (the
		 * driver optimises anyway) */
		if (!strcmp(defs[i].name, SHADER_NO_SPIRV_OPT))
			*optimise = false;
		if (!strcmp(defs[i].name, SHADER_KHR_AS)) {
			*khr = true, *optimise = false;
			if (!matrix_component_find(defs[i].value, as) || !spirv_retype_known(*as)) {
				snprintf(err, ERR_LEN, "%s=%s: no rewrite of fp16 stand-ins to that type", SHADER_KHR_AS,
				         defs[i].value);
				return false;
			}
		}
		if (!strcmp(defs[i].name, SHADER_KHR))
			*khr = true, *optimise = false;
	}
	shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
	shaderc_compile_options_set_optimization_level(opts, *optimise ? shaderc_optimization_level_performance
	                                                               : shaderc_optimization_level_zero);
	return true;
}

/* The compiled words into out: copied, or rewritten to KHR matrices (and
 * the fp16 stand-ins to type as) where asked, since glslang 12 writes
 * neither (spirv_khr.h). 0, -1 (no memory) or -2 (cannot be rewritten). */
static int take_words(const char *path, shaderc_compilation_result_t res, bool khr, uint32_t as, Spirv *out,
                      char *err)
{
	size_t bytes = shaderc_result_get_length(res);
	uint32_t *words = malloc(bytes ? bytes : 4);
	if (!words) {
		snprintf(err, ERR_LEN, "out of memory for SPIR-V of %s", path);
		return -1;
	}
	memcpy(words, shaderc_result_get_bytes(res), bytes);
	if (!khr) {
		out->words = words;
		out->size = bytes;
		return 0;
	}
	size_t n = 0;
	char why[200];
	int r = spirv_nv_to_khr(words, bytes / 4, as, &out->words, &n, why, sizeof why);
	free(words);
	if (r != 0) {
		snprintf(err, ERR_LEN, "shader %s: its SPIR-V cannot be rewritten to KHR matrices%s%s: %s", path,
		         as != SPIRV_KEEP_FP16 ? " of " : "", as != SPIRV_KEEP_FP16 ? matrix_component_str(as) : "", why);
		return -2;
	}
	out->size = n * 4;
	return 0;
}

/* Compiles source already read from path (path names it in messages). */
static int compile_source(const char *path, const char *src, size_t len, const ShaderDefine *defs,
                          size_t ndefs, Spirv *out, char *err)
{
	memset(out, 0, sizeof *out);
	size_t ink = 0; /* a file of blanks only: glslang would print its built-ins */
	while (ink < len && (src[ink] == ' ' || src[ink] == '\t' || src[ink] == '\n' || src[ink] == '\r'))
		ink++;
	if (ink == len) {
		snprintf(err, ERR_LEN, "shader %s is empty", path);
		return -2;
	}
	int rc = -2;
	shaderc_compiler_t compiler = shaderc_compiler_initialize();
	shaderc_compile_options_t opts = shaderc_compile_options_initialize();
	shaderc_compilation_result_t res = NULL;
	if (!compiler || !opts) {
		snprintf(err, ERR_LEN, "shaderc could not be initialised");
		rc = -1;
		goto done;
	}
	bool optimise, khr;
	uint32_t as;
	if (!take_defines(opts, defs, ndefs, &optimise, &khr, &as, err))
		goto done;
	/* shaderc names the input in its messages: keep the file name short and
	 * recognisable, as the user's editor shows it. */
	char *copy = strdup(path);
	const char *shown = copy ? basename(copy) : path;
	res = shaderc_compile_into_spv(compiler, src, len, shaderc_compute_shader, shown, "main", opts);
	free(copy);
	if (!res) {
		snprintf(err, ERR_LEN, "shaderc returned no result for %s", path);
		rc = -1;
		goto done;
	}
	if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
		const char *msg = shaderc_result_get_error_message(res);
		size_t m = strlen(msg);
		while (m && msg[m - 1] == '\n')
			m--;
		snprintf(err, ERR_LEN, "shader %s does not compile:\n%.*s", path, (int)m, msg);
		goto done;
	}
	rc = take_words(path, res, khr, as, out, err);
	if (!rc)
		out->hash = source_hash(src, len, defs, ndefs);
done:
	if (res)
		shaderc_result_release(res);
	if (opts)
		shaderc_compile_options_release(opts);
	if (compiler)
		shaderc_compiler_release(compiler);
	return rc;
}

int shader_compile_file(const char *path, const ShaderDefine *defs, size_t ndefs,
                        Spirv *out, char *err)
{
	memset(out, 0, sizeof *out);
	size_t len;
	char *src = fileio_read(path, 64u << 20, &len, err, ERR_LEN);
	if (!src)
		return -1;
	int rc = compile_source(path, src, len, defs, ndefs, out, err);
	free(src);
	return rc;
}

bool shader_cache_dir(char *out, size_t len)
{
	char err[256];
	if (!paths_xdg_dir("XDG_CACHE_HOME", ".cache", out, len))
		return false;
	/* the folders above it, then itself */
	size_t n = strlen(out);
	if (n + 1 < len) {
		out[n] = '/';
		out[n + 1] = '\0';
	}
	bool ok = fileio_mkdirs(out, "cache folder", err, sizeof err);
	out[n] = '\0';
	return ok;
}

typedef struct CacheHead {
	uint32_t magic, format;
	uint64_t key, bytes, sum;
} CacheHead;

void *shader_cache_frame(uint32_t magic, uint64_t key, const void *payload, size_t n, size_t *framed)
{
	CacheHead h = { magic, SHADER_CACHE_FORMAT, key, n, fnv1a(0xcbf29ce484222325ull, payload, n) };
	char *b = malloc(sizeof h + n);
	if (!b)
		return NULL;
	memcpy(b, &h, sizeof h);
	memcpy(b + sizeof h, payload, n);
	*framed = sizeof h + n;
	return b;
}

const void *shader_cache_unframe(uint32_t magic, uint64_t key, const void *data, size_t n, size_t *payload,
                                 char *why, size_t whylen)
{
	CacheHead h;
	if (n < sizeof h) {
		snprintf(why, whylen, "shorter than its header (%zu bytes)", n);
		return NULL;
	}
	memcpy(&h, data, sizeof h);
	const char *p = (const char *)data + sizeof h;
	if (h.magic != magic || h.format != SHADER_CACHE_FORMAT)
		snprintf(why, whylen, "not an entry of this version's format");
	else if (h.key != key)
		snprintf(why, whylen, "an entry for another shader, defines or compiler (key %016llx)",
		         (unsigned long long)h.key);
	else if (h.bytes != n - sizeof h)
		snprintf(why, whylen, "%llu bytes where its header says %llu (truncated?)",
		         (unsigned long long)(n - sizeof h), (unsigned long long)h.bytes);
	else if (fnv1a(0xcbf29ce484222325ull, p, n - sizeof h) != h.sum)
		snprintf(why, whylen, "its checksum does not hold (damaged)");
	else {
		*payload = n - sizeof h;
		return p;
	}
	return NULL;
}

/* Whether words[0..n) (bytes) look like a SPIR-V module: its magic, a
 * version 1.0-1.6, a bound, schema 0 and at least one instruction. */
static bool spirv_sane(const uint32_t *w, size_t n)
{
	return n >= 24 && n % 4 == 0 && w[0] == 0x07230203u && w[1] >= 0x00010000u && w[1] <= 0x00010600u &&
	       (w[1] & 0xff0000ffu) == 0 && w[3] > 0 && w[3] < (1u << 22) && w[4] == 0;
}

int shader_compile_cached(const char *path, const ShaderDefine *defs, size_t ndefs, const char *cache_dir,
                          bool refresh, Spirv *out, bool *hit, char *err)
{
	*hit = false;
	if (!cache_dir)
		return shader_compile_file(path, defs, ndefs, out, err);
	memset(out, 0, sizeof *out);
	size_t len;
	char *src = fileio_read(path, 64u << 20, &len, err, ERR_LEN);
	if (!src)
		return -1;
	/* the key: the source, the defines and this compiler */
	uint64_t sh = source_hash(src, len, defs, ndefs), key = sh;
	unsigned v, r;
	shaderc_get_spv_version(&v, &r);
	key = fnv1a(key, &v, sizeof v);
	key = fnv1a(key, &r, sizeof r);
	char cpath[4200], why[ERR_LEN], note[140] = "";
	snprintf(cpath, sizeof cpath, "%s/spirv-%016llx.spv", cache_dir, (unsigned long long)key);
	size_t n = 0, np = 0;
	char *data = NULL;
	struct stat st;
	if (!refresh && lstat(cpath, &st) == 0 && !(data = fileio_read(cpath, 64u << 20, &n, why, sizeof why)))
		snprintf(note, sizeof note, "%.120s", why); /* there, and not a file to read */
	const uint32_t *w = data ? shader_cache_unframe(SHADER_CACHE_SPIRV, key, data, n, &np, note, sizeof note) : NULL;
	if (w && !spirv_sane(w, np)) {
		snprintf(note, sizeof note, "its SPIR-V's header is not sane");
		w = NULL;
	}
	int rc = 0;
	if (w && (out->words = malloc(np))) {
		memcpy(out->words, w, np);
		out->size = np;
		out->hash = sh;
		*hit = true;
	} else {
		rc = compile_source(path, src, len, defs, ndefs, out, err);
		size_t fn;
		void *framed = rc == 0 ? shader_cache_frame(SHADER_CACHE_SPIRV, key, out->words, out->size, &fn) : NULL;
		if (framed) /* a cache that cannot be written is only a slower start */
			fileio_write(cpath, framed, fn);
		free(framed);
		if (note[0])
			snprintf(out->cache_note, sizeof out->cache_note, "the SPIR-V cache entry %.40s was not used: %.100s",
			         strrchr(cpath, '/') + 1, note);
	}
	free(data);
	free(src);
	return rc;
}

void shader_free(Spirv *s)
{
	free(s->words);
	s->words = NULL;
	s->size = 0;
}

void shader_dir_resolve(const char *dir, char *out, size_t len)
{
	paths_resource_dir(dir, "FLOPSCOPE_SHADER_DIR", "shaders", out, len);
}
