#version 450
// The power workload (src/core/powerwork.h says what it computes): multiply-
// adds on random operands that differ from one multiply to the next, for the
// power a real load draws; the data, not the instruction, decides it.
//   MATRIX  each subgroup loads CHAINS pairs of fp16 matrices A (M x K),
//           B (K x N) of the operand set its tile takes in this submission
//           (tile + 97 seq, turning every submission) and interleaves
//           C_i = A_i B_i + C_i (fp32 accumulate); stores the sum of the C_i
//           as tile `tile`
//   else    each invocation runs 4 CHAINS fp32 chains x = fma(x, a, b), a new
//           uvec4 of its set's operands every UNROLL steps; stores their sum
//           in slot `tile`
// Groups are counted, as in fma_fp32.comp.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#ifdef MATRIX
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

#if !defined(CHAINS) || !defined(UNROLL)
#error "CHAINS and UNROLL are defined by the engine"
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERS = 1u;

layout(push_constant) uniform Params {
    uint tile_mask;  // operand sets - 1
    float one;       // 1.0, unknown to the compiler
    uint seq;        // the submission's number: the operand sets turn with it
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    float value[];
} res;

layout(std430, set = 0, binding = 1) readonly buffer Operands {
    uvec4 v[];
} ops;

#ifdef MATRIX
#if !defined(M_SIZE) || !defined(N_SIZE) || !defined(K_SIZE)
#error "M_SIZE, N_SIZE and K_SIZE are defined by the engine"
#endif
#define MA fcoopmatNV<16, gl_ScopeSubgroup, M_SIZE, K_SIZE>
#define MB fcoopmatNV<16, gl_ScopeSubgroup, K_SIZE, N_SIZE>
#define MC fcoopmatNV<32, gl_ScopeSubgroup, M_SIZE, N_SIZE>
// uvec4s (8 halves) of one chain's A, of its A and B
const uint A_VEC = uint(M_SIZE * K_SIZE) / 8u;
const uint SET_VEC = uint(M_SIZE * K_SIZE + K_SIZE * N_SIZE) / 8u;

#ifdef SHARED_WORDS
// FLOPSCOPE_POWER_SHARED (bench/power.sh): shared memory each workgroup
// holds, so fewer are resident; touched only where p.one is not 1 (never),
// so that it stays allocated
shared uint pad[SHARED_WORDS];
#endif

#define LOAD(i) \
    MA a##i; MB b##i; MC c##i = MC(0.0); \
    coopMatLoadNV(a##i, ops.v, base + (i) * SET_VEC, uint(K_SIZE) / 8u, false); \
    coopMatLoadNV(b##i, ops.v, base + (i) * SET_VEC + A_VEC, uint(N_SIZE) / 8u, false); \
    a##i = a##i * float16_t(p.one);
// A times 1 (p.one): on the H100 the 2-chain 16x8x16 form ran at 553 TFLOPS
// at the power cap with it and 368 without (one run each, bench/power.sh),
// the compiler otherwise scheduling the loaded values worse
#define STEP(i) c##i = coopMatMulAddNV(a##i, b##i, c##i);

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint subs = gl_WorkGroupSize.x / gl_SubgroupSize;
    uint tile = (group * subs + gl_SubgroupID) & p.tile_mask;
    uint base = ((tile + 97u * p.seq) & p.tile_mask) * uint(CHAINS) * SET_VEC;
#ifdef SHARED_WORDS
    if (p.one != 1.0)
        pad[gl_LocalInvocationIndex % uint(SHARED_WORDS)] = base;
#endif
    LOAD(0)
#if CHAINS > 1
    LOAD(1)
#endif
#if CHAINS > 2
    LOAD(2)
#endif
#if CHAINS > 3
    LOAD(3)
#endif
#if CHAINS > 4
    LOAD(4)
#endif
#if CHAINS > 5
    LOAD(5)
#endif
#if CHAINS > 6
    LOAD(6)
#endif
#if CHAINS > 7
    LOAD(7)
#endif
    for (uint i = 0u; i < ITERS; i++) {
        [[unroll]] for (uint u = 0u; u < UNROLL; u++) {
            STEP(0)
#if CHAINS > 1
            STEP(1)
#endif
#if CHAINS > 2
            STEP(2)
#endif
#if CHAINS > 3
            STEP(3)
#endif
#if CHAINS > 4
            STEP(4)
#endif
#if CHAINS > 5
            STEP(5)
#endif
#if CHAINS > 6
            STEP(6)
#endif
#if CHAINS > 7
            STEP(7)
#endif
        }
    }
    MC sum = c0;
#if CHAINS > 1
    sum = sum + c1;
#endif
#if CHAINS > 2
    sum = sum + c2;
#endif
#if CHAINS > 3
    sum = sum + c3;
#endif
#if CHAINS > 4
    sum = sum + c4;
#endif
#if CHAINS > 5
    sum = sum + c5;
#endif
#if CHAINS > 6
    sum = sum + c6;
#endif
#if CHAINS > 7
    sum = sum + c7;
#endif
#ifdef SHARED_WORDS
    if (p.one != 1.0)
        sum = sum + MC(float(pad[0]));
#endif
    coopMatStoreNV(sum, res.value, tile * uint(M_SIZE * N_SIZE), uint(N_SIZE), false);
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}

#else

float fa(uint u) { return uintBitsToFloat((u & 0x001fffffu) | 0x3f000000u); }
float fb(uint u) { return uintBitsToFloat((u & 0x807fffffu) | 0x3f000000u); }

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint tile = (group * gl_WorkGroupSize.x + gl_LocalInvocationIndex) & p.tile_mask;
    vec4 x[CHAINS];
    [[unroll]] for (uint c = 0u; c < uint(CHAINS); c++)
        x[c] = 0.0625 * vec4(float(4u * c), float(4u * c + 1u), float(4u * c + 2u), float(4u * c + 3u));
    for (uint i = 0u; i < ITERS; i++) {
        uvec4 w = ops.v[((tile + 97u * p.seq) & p.tile_mask) * ITERS + i];
        vec4 a = vec4(fa(w.x), fa(w.y), fa(w.z), fa(w.w));
        vec4 b = vec4(fb(w.y), fb(w.z), fb(w.w), fb(w.x));
        [[unroll]] for (uint u = 0u; u < UNROLL; u++)
            [[unroll]] for (uint c = 0u; c < uint(CHAINS); c++)
                x[c] = fma(x[c], a, b);
    }
    float r = 0.0;
    [[unroll]] for (uint c = 0u; c < uint(CHAINS); c++)
        r += x[c].x + x[c].y + x[c].z + x[c].w;
    res.value[tile] = r;
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}

#endif
