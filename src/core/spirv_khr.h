/* spirv_khr: turns the SPIR-V that glslang writes for a GL_NV_cooperative_matrix
 * shader with fp16 A and B matrices into SPV_KHR_cooperative_matrix with
 * bfloat16 A and B (SPV_KHR_bfloat16). Debian 12's glslang (12.0) predates
 * both GL_KHR_cooperative_matrix and bfloat16, and its GL_EXT_spirv_intrinsics
 * takes no type as a spirv_type operand, so the bf16-matrix shader is written
 * in GLSL with fp16 stand-ins and rewritten here, word by word. Pure.
 *
 * What changes:
 *  - every 16-bit float type gets the BFloat16KHR encoding (the shader's only
 *    16-bit floats are the stand-ins), so the Float16 capability becomes
 *    BFloat16TypeKHR, and BFloat16CooperativeMatrixKHR is added;
 *  - CooperativeMatrixNV becomes CooperativeMatrixKHR, the extension
 *    SPV_NV_cooperative_matrix SPV_KHR_cooperative_matrix (with
 *    SPV_KHR_bfloat16 beside it);
 *  - (without bf16, the 16-bit floats stay fp16 and only the matrices change)
 *  - OpTypeCooperativeMatrixNV becomes OpTypeCooperativeMatrixKHR with its
 *    use: the accumulator for other component types, matrix A or B for the
 *    16-bit ones as the multiply-adds use them; a type used as both A and B
 *    (M = N = K) gets a twin for B, and B's constructions are retyped;
 *  - OpCooperativeMatrixMulAddNV and OpCooperativeMatrixLengthNV become their
 *    KHR forms, with the same operands.
 * What it refuses (a message, nothing written): NV loads and stores (their
 * operands differ), a 16-bit constant (its bits would change meaning), a
 * matrix length in OpSpecConstantOp (what glslang makes of .length(): on the
 * H100, driver 580.159.04, the KHR form there crashes the compiler), an A
 * or B operand that is not an OpCompositeConstruct, a module without
 * Float16, without a multiply-add, or malformed. */
#ifndef FLOPSCOPE_SPIRV_KHR_H
#define FLOPSCOPE_SPIRV_KHR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* as: SPIRV_KEEP_FP16 (fp16, VkComponentTypeKHR 0)... */
#define SPIRV_KEEP_FP16 0u

/* Whether the 16-bit float stand-ins can become component (a
 * VkComponentTypeKHR: 1000141000 bfloat16), a row of spirv_khr.c's table. */
bool spirv_retype_known(uint32_t component);

/* in: nwords words of SPIR-V. as: the component type the 16-bit floats
 * become (bfloat16, as above); SPIRV_KEEP_FP16: they stay fp16 and only the
 * matrices become KHR ones (what bench/peak/coopmat2.sh needs for
 * workgroup-scope fp16 matrices, which only the KHR types can be); a type
 * without a row is refused. On success *out (malloc'd, the caller frees it)
 * holds *out_words words and 0 is returned; otherwise -1 with why. */
int spirv_nv_to_khr(const uint32_t *in, size_t nwords, uint32_t as, uint32_t **out, size_t *out_words,
                    char *why, size_t len);

#endif
