#version 450
// FP32 FMA throughput: 4*VEC4S independent chains per invocation, each doing
// UNROLL * ITERS steps x = fma(x, a, b). Exactly 2 * 4*VEC4S * UNROLL * ITERS
// floating-point operations per invocation; nothing else is counted.
//
// The engine passes VEC4S (1..4) and UNROLL as defines and the local size and
// ITERS as specialization constants, so it knows the FLOP count exactly.
//
// Every invocation stores its result (slot = global index & slot_mask; the
// start value depends on the slot alone, so all writers of a slot agree) and
// one invocation per workgroup counts the group: the engine checks both
// against the same arithmetic done on the CPU.
#extension GL_EXT_control_flow_attributes : require

#ifndef VEC4S
#error "VEC4S must be defined by the engine"
#endif
#ifndef UNROLL
#error "UNROLL must be defined by the engine"
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERS = 1u;

layout(push_constant) uniform Params {
    float a;          // multiplier, slightly below 1: chains stay bounded
    float b;          // addend
    uint slot_mask;   // result slots - 1 (a power of two minus one)
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    float value[];
} res;

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint gid = group * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    uint slot = gid & p.slot_mask;
    float s = float(slot) * (1.0 / 65536.0);
    vec4 a = vec4(p.a);
    vec4 b = vec4(p.b);

    vec4 x0 = s + vec4(0.0, 0.125, 0.25, 0.375);
#if VEC4S > 1
    vec4 x1 = s + vec4(0.5, 0.625, 0.75, 0.875);
#endif
#if VEC4S > 2
    vec4 x2 = s + vec4(1.0, 1.125, 1.25, 1.375);
#endif
#if VEC4S > 3
    vec4 x3 = s + vec4(1.5, 1.625, 1.75, 1.875);
#endif

    for (uint i = 0u; i < ITERS; i++) {
        [[unroll]] for (uint u = 0u; u < UNROLL; u++) {
            x0 = fma(x0, a, b);
#if VEC4S > 1
            x1 = fma(x1, a, b);
#endif
#if VEC4S > 2
            x2 = fma(x2, a, b);
#endif
#if VEC4S > 3
            x3 = fma(x3, a, b);
#endif
        }
    }

    float r = (x0.x + x0.y) + (x0.z + x0.w);
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
