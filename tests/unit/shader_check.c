/* shader_check: compiles one shader of shaders/ with the defines given, as
 * the engine would (src/gpu/shader.c), and writes its SPIR-V, so that tests
 * can validate shaders this machine's device cannot run (the
 * cooperative-matrix ones on lavapipe) with spirv-val.
 *   shader_check SHADER OUT.spv [NAME=VALUE ...]; exit 0, or 1 with why. */
#include <stdio.h>
#include <string.h>

#include "shader.h"

int main(int argc, char **argv)
{
	if (argc < 3 || argc - 3 > 16) {
		fprintf(stderr, "usage: shader_check SHADER OUT.spv [NAME=VALUE ...] (at most 16)\n");
		return 2;
	}
	ShaderDefine defs[16];
	char text[16][128];
	size_t n = 0;
	for (int i = 3; i < argc; i++, n++) {
		snprintf(text[n], sizeof text[n], "%s", argv[i]);
		char *eq = strchr(text[n], '=');
		if (!eq) {
			fprintf(stderr, "shader_check: %s is not NAME=VALUE\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		defs[n] = (ShaderDefine){ text[n], eq + 1 };
	}
	Spirv spv;
	char err[ERR_LEN];
	if (shader_compile_file(argv[1], defs, n, &spv, err) != 0) {
		fprintf(stderr, "shader_check: %s\n", err);
		return 1;
	}
	FILE *f = fopen(argv[2], "wb");
	int rc = 0;
	if (!f || fwrite(spv.words, 1, spv.size, f) != spv.size) {
		perror(argv[2]);
		rc = 1;
	}
	if (f && fclose(f) != 0) {
		perror(argv[2]);
		rc = 1;
	}
	shader_free(&spv);
	return rc;
}
