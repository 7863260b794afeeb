#version 450
// Tensor cores through cooperative matrices (GL_NV_cooperative_matrix and
// GL_NV_integer_cooperative_matrix): each subgroup keeps A (M x K) and B
// (K x N) in registers and runs 2 * VEC4S independent accumulators C
// (M x N), UNROLL * ITERS steps of C = A B + C each: exactly
// 2 M N K * 2 VEC4S * UNROLL * ITERS operations per subgroup. Every element
// of A is a and of B is b (push constants, unknown to the compiler), so each
// step adds K a b to every element: with fp16 b = 1/K it adds 1, exact in
// fp16 and fp32; with int8 a = 3, b = 5 it adds 15 K. A skipped step shows.
// Each invocation stores the mean of its elements of the accumulators' sum
// (the CPU knows it), and groups are counted, as in fma_fp32.comp.
//   TYPE_FP16_MATRIX      fp16 in, fp32 accumulate
//   TYPE_FP16_MATRIX_F16  fp16 in, fp16 accumulate (summed in fp32 at the end)
//   TYPE_INT8_MATRIX      int8 in, int32 accumulate
//   TYPE_STANDIN_MATRIX   another input type (bfloat16, the row's), fp32
//                         accumulate: written with fp16 stand-ins and NV
//                         matrices, which the engine rewrites to that type
//                         and KHR matrices after glslang
//                         (FLOPSCOPE_KHR_AS=bf16, src/core/spirv_khr.h): A
//                         and B are built where they are used, as that
//                         rewrite needs, and no 16-bit constant appears
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require

#if !defined(M_SIZE) || !defined(N_SIZE) || !defined(K_SIZE) || !defined(VEC4S) || !defined(UNROLL)
#error "M_SIZE, N_SIZE, K_SIZE, VEC4S and UNROLL are defined by the engine"
#endif

// WORKGROUP_SCOPE (bench/peak/coopmat2.sh only): workgroup-scope matrices
// (VK_NV_cooperative_matrix2), which only KHR matrix types can be: the
// engine's FLOPSCOPE_KHR rewrite makes them so; A and B built in place
#ifdef WORKGROUP_SCOPE
#define SCOPE gl_ScopeWorkgroup
#define SCOPE_INVOCATIONS gl_WorkGroupSize.x
#define BUILD_IN_PLACE
#else
#define SCOPE gl_ScopeSubgroup
#define SCOPE_INVOCATIONS gl_SubgroupSize
#endif

#if defined(TYPE_FP16_MATRIX)
#define MA fcoopmatNV<16, SCOPE, M_SIZE, K_SIZE>
#define MB fcoopmatNV<16, SCOPE, K_SIZE, N_SIZE>
#define MC fcoopmatNV<32, SCOPE, M_SIZE, N_SIZE>
#define IN_T float16_t
#define PUSH_T float
#define OUT_T float
#elif defined(TYPE_FP16_MATRIX_F16)
#define MA fcoopmatNV<16, SCOPE, M_SIZE, K_SIZE>
#define MB fcoopmatNV<16, SCOPE, K_SIZE, N_SIZE>
#define MC fcoopmatNV<16, SCOPE, M_SIZE, N_SIZE>
#define IN_T float16_t
#define PUSH_T float
#define OUT_T float
#elif defined(TYPE_INT8_MATRIX)
#extension GL_NV_integer_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define MA icoopmatNV<8, SCOPE, M_SIZE, K_SIZE>
#define MB icoopmatNV<8, SCOPE, K_SIZE, N_SIZE>
#define MC icoopmatNV<32, SCOPE, M_SIZE, N_SIZE>
#define IN_T int8_t
#define PUSH_T int
#define OUT_T int
#elif defined(TYPE_STANDIN_MATRIX)
#define MA fcoopmatNV<16, SCOPE, M_SIZE, K_SIZE>
#define MB fcoopmatNV<16, SCOPE, K_SIZE, N_SIZE>
#define MC fcoopmatNV<32, SCOPE, M_SIZE, N_SIZE>
#define IN_T float16_t
#define PUSH_T float
#define OUT_T float
#define BUILD_IN_PLACE
#else
#error "define TYPE_FP16_MATRIX, TYPE_FP16_MATRIX_F16, TYPE_INT8_MATRIX or TYPE_STANDIN_MATRIX"
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERS = 1u;

layout(push_constant) uniform Params {
    PUSH_T a;
    PUSH_T b;
    uint slot_mask;
} p;

layout(std430, set = 0, binding = 0) buffer Result {
    uint groups_done;
    uint reserved0, reserved1, reserved2;
    OUT_T value[];
} res;

void main()
{
    uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x *
                 (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint gid = group * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    uint slot = gid & p.slot_mask;

#ifdef BUILD_IN_PLACE
    IN_T a = IN_T(p.a), b = IN_T(p.b);
#define A MA(a)
#define B MB(b)
#else
    MA A = MA(IN_T(p.a));
    MB B = MB(IN_T(p.b));
#endif
    MC c0 = MC(0), c1 = MC(0);
#if VEC4S > 1
    MC c2 = MC(0), c3 = MC(0);
#endif
#if VEC4S > 2
    MC c4 = MC(0), c5 = MC(0);
#endif
#if VEC4S > 3
    MC c6 = MC(0), c7 = MC(0);
#endif
    for (uint i = 0u; i < ITERS; i++) {
        [[unroll]] for (uint u = 0u; u < UNROLL; u++) {
            c0 = coopMatMulAddNV(A, B, c0);
            c1 = coopMatMulAddNV(A, B, c1);
#if VEC4S > 1
            c2 = coopMatMulAddNV(A, B, c2);
            c3 = coopMatMulAddNV(A, B, c3);
#endif
#if VEC4S > 2
            c4 = coopMatMulAddNV(A, B, c4);
            c5 = coopMatMulAddNV(A, B, c5);
#endif
#if VEC4S > 3
            c6 = coopMatMulAddNV(A, B, c6);
            c7 = coopMatMulAddNV(A, B, c7);
#endif
        }
    }
    // summed element by element in the output type (fp16 accumulators
    // would round above 2048)
    OUT_T r = OUT_T(0);
#ifdef BUILD_IN_PLACE
    // not c0.length(): glslang makes it a specialization constant, and
    // NVIDIA's compiler (580.159.04) crashes on a KHR matrix's length there;
    // NVIDIA spreads a matrix evenly over the subgroup (workgroup), and a
    // shorter count still reads elements that all hold the same value
    const int len = int(uint(M_SIZE * N_SIZE) / SCOPE_INVOCATIONS);
#else
    const int len = c0.length();
#endif
    for (int i = 0; i < len; i++) {
        r += OUT_T(c0[i]) + OUT_T(c1[i]);
#if VEC4S > 1
        r += OUT_T(c2[i]) + OUT_T(c3[i]);
#endif
#if VEC4S > 2
        r += OUT_T(c4[i]) + OUT_T(c5[i]);
#endif
#if VEC4S > 3
        r += OUT_T(c6[i]) + OUT_T(c7[i]);
#endif
    }
    res.value[slot] = r / OUT_T(len);
    if (gl_LocalInvocationIndex == 0u)
        atomicAdd(res.groups_done, 1u);
}
