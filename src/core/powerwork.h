/* powerwork: the power workload's own arithmetic: multiply-adds on random
 * operands, drawn from a seed, that differ from one multiply to the next;
 * the operand words the device reads, the work counted, and what a tile of
 * the results must hold. Pure.
 *
 * Two forms. Matrix (a device with fp16 x fp16 + fp32 cooperative
 * matrices): every subgroup loads `chains` pairs A (M x K), B (K x N) of
 * full-entropy finite fp16 values (every 16-bit pattern but infinities and
 * NaNs) and runs C_i = A_i B_i + C_i, steps times each, the chains
 * interleaved; it stores the sum of its C_i, an M x N tile of floats.
 * FMA (any other device): each invocation runs 4 * chains fp32 chains
 * x = x a + b whose a in [0.5, 0.625) and b in +-[0.5, 1) come from a new
 * 16-byte word of the operands every `unroll` steps (memory traffic); it
 * stores the chains' sum, a tile of one float.
 * The operand set a tile is computed from turns with each submission
 * (power_operand_set): the operands change from one dispatch to the next
 * too; within a dispatch every subgroup (invocation) that stores tile t
 * uses the same set, so they store the same values. */
#ifndef FLOPSCOPE_POWERWORK_H
#define FLOPSCOPE_POWERWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum PowerForm { POWER_MATRIX, POWER_FMA } PowerForm;

typedef struct PowerParams {
	PowerForm form;
	uint32_t m, n, k;      /* matrix: the shape (multiples of 8) */
	uint32_t chains;       /* matrix: accumulators, each with its own A and B;
	                          FMA: vec4 accumulators */
	uint32_t unroll, iters; /* steps = unroll * iters */
	uint32_t tiles;        /* operand sets, a power of two */
	uint32_t local_size;   /* invocations of a workgroup */
	uint32_t subgroup;     /* matrix: invocations of a subgroup (local_size a multiple) */
	uint64_t seed;
} PowerParams;

/* Forms' defaults; matrix: the device's shape and subgroup. */
void power_params_matrix(PowerParams *p, const uint32_t mnk[3], uint32_t subgroup, uint32_t max_local);
void power_params_fma(PowerParams *p, bool cpu_device, uint32_t max_local);
/* FLOPSCOPE_POWER_SHAPE ("CHAINS,UNROLL,ITERS" or, matrix, "M,N,K,CHAINS,UNROLL,ITERS" where the
 * shape must be one of the device's (checked by the caller)): false with why. */
bool power_params_parse(const char *text, PowerParams *p, char *why, size_t len);

/* The operands: 32-bit words, a multiple of 4 (the shader reads uvec4). */
uint64_t power_words(const PowerParams *p);
/* Words first .. first + n - 1 of the operands (any piece: each word is a
 * function of the seed and its place). */
void power_fill(const PowerParams *p, uint64_t first, uint32_t *out, size_t n);

/* Floats of one tile (matrix: M N; FMA: 1) and the tiles' bytes. */
uint32_t power_tile_values(const PowerParams *p);
/* Operations of one workgroup (2 per multiply-add). */
uint64_t power_flop_per_group(const PowerParams *p);
/* Tiles a dispatch of `groups` workgroups writes. */
uint64_t power_tiles_written(const PowerParams *p, uint64_t groups);

/* The operand set tile t is computed from in submission seq (the shader's
 * rule: t + 97 seq, modulo the sets). */
uint32_t power_operand_set(const PowerParams *p, uint32_t t, uint32_t seq);

/* Tile t as the device stored it (power_tile_values floats), computed from
 * operand set `set`, against the CPU's arithmetic on the same operands,
 * within the rounding the device's order may add: false with the first
 * value out of bounds in why. */
bool power_check_tile(const PowerParams *p, uint32_t t, uint32_t set, const float *got, char *why, size_t len);

#endif
