#version 450
// Device memory bandwidth: each workgroup copies one chunk of PER_THREAD *
// local size uvec4 (16 bytes each) from the source to the destination, the
// invocations of a group side by side so that every load and store is
// coalesced. Group g copies chunk g % chunks: a dispatch of more groups than
// the buffer has chunks goes round it again, so the loop can make a dispatch
// as long as it likes over a buffer far larger than the caches. Bytes moved:
// 2 * 16 * PER_THREAD per invocation (read + written). The group counter and
// the destination are checked on the CPU against the source pattern.
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint PER_THREAD = 4u;

layout(push_constant) uniform Params {
    uint chunks;      // chunks in the buffers
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
} res;

layout(std430, set = 0, binding = 1) readonly buffer Src {
    uvec4 src[];
};

layout(std430, set = 0, binding = 2) writeonly buffer Dst {
    uvec4 dst[];
};

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint base = (group % p.chunks) * (gl_WorkGroupSize.x * PER_THREAD) + gl_LocalInvocationIndex;
    [[unroll]] for (uint k = 0u; k < PER_THREAD; k++) {
        uint i = base + k * gl_WorkGroupSize.x;
        dst[i] = src[i];
    }
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}
