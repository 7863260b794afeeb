#version 450
// The FMA workload of fma_fp32.comp in other types, chosen by a define
// (and SCALAR: the same chains as scalar variables instead of vectors):
//   TYPE_FP32   x = fma(x, a, b) in float (fp32-scalar; fp32 itself is
//               fma_fp32.comp)
//   TYPE_FP64   x = fma(x, a, b) in double (needs shaderFloat64)
//   TYPE_FP16   x = fma(x, a, b) in float16_t vectors (needs shaderFloat16);
//               a = 1, b = 1/256: every value stays a multiple of 1/256 below
//               8, exact in fp16, so the result is exact; the final sum is
//               taken in fp32 (not counted) so one skipped step shows
//   TYPE_INT32  x = x * a + b in 32-bit unsigned integers (wraps; exact)
//   TYPE_INT16  the same in 16-bit integers (u16vec4; needs shaderInt16),
//               summed as 32-bit
//   TYPE_INT64  the same in 64-bit integers (u64vec4; needs shaderInt64);
//               each chain is folded to 32 bits (low ^ high) before the
//               sum, so the high half is used and no compiler may narrow
//               the multiply
//   TYPE_INT8DOT x = dot(bytes of x, bytes of a) + b: OpUDot on packed 4 x 8-bit
//               vectors (SPV_KHR_integer_dot_product, through
//               GL_EXT_spirv_intrinsics), then an add: 8 operations. Not
//               OpUDotAccSat: its saturation cost 6.8x on the H100, where
//               dot + add becomes one dp4a
// 4*VEC4S independent chains per invocation, UNROLL * ITERS steps each:
// exactly 2 * 4*VEC4S * UNROLL * ITERS operations per invocation. Results are
// stored and groups counted as in fma_fp32.comp, for the CPU check.
#extension GL_EXT_control_flow_attributes : require

#if defined(TYPE_FP16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define T float16_t
#define T4 f16vec4
#define PT float
#define ACC float
#define STEP(x) x = fma(x, a, b)
#elif defined(TYPE_FP64)
#define T double
#define T4 dvec4
#define PT double
#define ACC double
#define STEP(x) x = fma(x, a, b)
#elif defined(TYPE_INT8DOT)
#extension GL_EXT_spirv_intrinsics : require
// OpUDot (4451): capabilities DotProduct (6019) and
// DotProductInput4x8BitPacked (6018); format 0 = PackedVectorFormat4x8Bit
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4451)
uint udot(uint x, uint y, spirv_literal int format);
#define T uint
#define T4 uvec4
#define PT uint
#define ACC uint
#define STEP(v) v = uvec4(udot(v.x, a.x, 0), udot(v.y, a.y, 0), udot(v.z, a.z, 0), udot(v.w, a.w, 0)) + b
#elif defined(TYPE_INT16)
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define T uint16_t
#define T4 u16vec4
#define PT uint
#define ACC uint
#define STEP(x) x = x * a + b
#elif defined(TYPE_INT64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define T uint64_t
#define T4 u64vec4
#define PT uint64_t
#define ACC uint
#define CONV(v) (uint(v) ^ uint((v) >> 32))
#define STEP(x) x = x * a + b
#elif defined(TYPE_INT32)
#define T uint
#define T4 uvec4
#define PT uint
#define ACC uint
#define STEP(x) x = x * a + b
#elif defined(TYPE_FP32)
#define T float
#define T4 vec4
#define PT float
#define ACC float
#define STEP(x) x = fma(x, a, b)
#else
#error "define TYPE_FP32, TYPE_FP16, TYPE_FP64, TYPE_INT32, TYPE_INT16, TYPE_INT64 or TYPE_INT8DOT"
#endif
#ifndef CONV
#define CONV(v) ACC(v)
#endif
#if defined(SCALAR) && defined(TYPE_INT8DOT)
#error "int8dot has no scalar form"
#endif
#ifndef VEC4S
#error "VEC4S must be defined by the engine"
#endif
#ifndef UNROLL
#error "UNROLL must be defined by the engine"
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERS = 1u;

layout(push_constant) uniform Params {
    PT a;
    PT b;
    uint slot_mask;
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    ACC value[];
} res;

T4 start(uint slot, uint v)
{
#if defined(TYPE_INT32) || defined(TYPE_INT8DOT)
    return uvec4(slot * 16u + v * 4u) + uvec4(0u, 1u, 2u, 3u);
#elif defined(TYPE_INT16)
    return u16vec4(uvec4(slot * 16u + v * 4u) + uvec4(0u, 1u, 2u, 3u));
#elif defined(TYPE_INT64)
    return u64vec4(uvec4(slot * 16u + v * 4u) + uvec4(0u, 1u, 2u, 3u));
#elif defined(TYPE_FP32)
    return T4(float(slot) * (1.0 / 65536.0)) + (T4(0.0, 1.0, 2.0, 3.0) + T4(4.0 * float(v))) * 0.125;
#elif defined(TYPE_FP16)
    return T4(float16_t(float(slot & 255u) / 256.0)) +
           (T4(0.0hf, 1.0hf, 2.0hf, 3.0hf) + T4(float16_t(4.0 * float(v)))) * 0.125hf;
#else
    return T4(double(slot) / 65536.0) + (T4(0.0, 1.0, 2.0, 3.0) + T4(4.0 * double(v))) * 0.125;
#endif
}

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint gid = group * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    uint slot = gid & p.slot_mask;
#if defined(SCALAR)
    // SCALAR: the same chains, start values, steps and sums as the vector
    // form, each chain its own scalar variable (vkpeak's -scalar)
#define V T
#define DECL(n, v) T4 n##s_ = start(slot, v); T n##x = n##s_.x, n##y = n##s_.y, n##z = n##s_.z, n##w = n##s_.w
#define ADV(n) STEP(n##x); STEP(n##y); STEP(n##z); STEP(n##w)
#define SUM(n) ((CONV(n##x) + CONV(n##y)) + (CONV(n##z) + CONV(n##w)))
#else
#define V T4
#define DECL(n, v) T4 n = start(slot, v)
#define ADV(n) STEP(n)
#define SUM(n) ((CONV(n.x) + CONV(n.y)) + (CONV(n.z) + CONV(n.w)))
#endif
    V a = V(T(p.a));
    V b = V(T(p.b));

    DECL(x0, 0u);
#if VEC4S > 1
    DECL(x1, 1u);
#endif
#if VEC4S > 2
    DECL(x2, 2u);
#endif
#if VEC4S > 3
    DECL(x3, 3u);
#endif

    for (uint i = 0u; i < ITERS; i++) {
        [[unroll]] for (uint u = 0u; u < UNROLL; u++) {
            ADV(x0);
#if VEC4S > 1
            ADV(x1);
#endif
#if VEC4S > 2
            ADV(x2);
#endif
#if VEC4S > 3
            ADV(x3);
#endif
        }
    }

    ACC r = SUM(x0);
#if VEC4S > 1
    r += SUM(x1);
#endif
#if VEC4S > 2
    r += SUM(x2);
#endif
#if VEC4S > 3
    r += SUM(x3);
#endif
    res.value[slot] = r;
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}
