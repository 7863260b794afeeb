#version 450
// The FMA workload of fma_fp32.comp in other types, chosen by a define:
//   TYPE_FP64   x = fma(x, a, b) in double (needs shaderFloat64)
//   TYPE_INT32  x = x * a + b in 32-bit unsigned integers (wraps; exact)
// 4*VEC4S independent chains per invocation, UNROLL * ITERS steps each:
// exactly 2 * 4*VEC4S * UNROLL * ITERS operations per invocation. Results are
// stored and groups counted as in fma_fp32.comp, for the CPU check.
#extension GL_EXT_control_flow_attributes : require

#if defined(TYPE_FP64)
#define T double
#define T4 dvec4
#define STEP(x) x = fma(x, a, b)
#elif defined(TYPE_INT32)
#define T uint
#define T4 uvec4
#define STEP(x) x = x * a + b
#else
#error "define TYPE_FP64 or TYPE_INT32"
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
    T a;
    T b;
    uint slot_mask;
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    T value[];
} res;

T4 start(uint slot, uint v)
{
#if defined(TYPE_INT32)
    return uvec4(slot * 16u + v * 4u) + uvec4(0u, 1u, 2u, 3u);
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
    T4 a = T4(p.a);
    T4 b = T4(p.b);

    T4 x0 = start(slot, 0u);
#if VEC4S > 1
    T4 x1 = start(slot, 1u);
#endif
#if VEC4S > 2
    T4 x2 = start(slot, 2u);
#endif
#if VEC4S > 3
    T4 x3 = start(slot, 3u);
#endif

    for (uint i = 0u; i < ITERS; i++) {
        [[unroll]] for (uint u = 0u; u < UNROLL; u++) {
            STEP(x0);
#if VEC4S > 1
            STEP(x1);
#endif
#if VEC4S > 2
            STEP(x2);
#endif
#if VEC4S > 3
            STEP(x3);
#endif
        }
    }

    T r = (x0.x + x0.y) + (x0.z + x0.w);
#if VEC4S > 1
    r += (x1.x + x1.y) + (x1.z + x1.w);
#endif
#if VEC4S > 2
    r += (x2.x + x2.y) + (x2.z + x2.w);
#endif
#if VEC4S > 3
    r += (x3.x + x3.y) + (x3.z + x3.w);
#endif
    res.value[slot] = r;
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}
