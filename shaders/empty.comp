#version 450
// Launch latency: a dispatch that does nothing but count itself, so the
// engine can check that every one of them ran.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    float value[];
} res;

void main()
{
    atomicAdd(res.groups_done, 1u);
}
