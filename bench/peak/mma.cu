// The CUDA reference for the tensor cores: warp-level mma.sync, the
// instruction Vulkan's cooperative matrices compile to on NVIDIA, with ACC
// independent accumulators per warp, A and B held in registers (as
// flopscope's fp16-matrix, fp16-matrix-f16, int8-matrix and bf16-matrix), a grid of
// exactly one wave, timed with CUDA events; prints the median of 10 in
// 1e12 a second, then the SM count.
//   mma f16|f16acc|int8|bf16 [ACC]
//   f16:    m16n8k16 fp16 x fp16 + fp32 -> fp32 (4096 FLOP a warp)
//   f16acc: m16n8k16 fp16 x fp16 + fp16 -> fp16
//   int8:   m16n8k32 s8 x s8 + s32 -> s32 (8192 operations a warp)
//   bf16:   m16n8k16 bf16 x bf16 + fp32 -> fp32 (4096 FLOP a warp)
#include "timing.cuh"

#include <cstdlib>
#include <cstring>

#define UNROLL 16
#define MAX_ACC 8

template <int MODE, int ACC> __global__ void mma_kernel(unsigned *out, unsigned a, unsigned b, int iters)
{
	unsigned c[ACC][4];
#pragma unroll
	for (int j = 0; j < ACC; j++)
		c[j][0] = c[j][1] = c[j][2] = c[j][3] = 0;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
#pragma unroll
			for (int j = 0; j < ACC; j++) {
				if (MODE == 0)
					asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
					    "{%8,%9}, {%0,%1,%2,%3};"
					    : "+r"(c[j][0]), "+r"(c[j][1]), "+r"(c[j][2]), "+r"(c[j][3])
					    : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
				else if (MODE == 1)
					asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, "
					    "{%6,%7}, {%0,%1};"
					    : "+r"(c[j][0]), "+r"(c[j][1])
					    : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
				else if (MODE == 3)
					asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
					    "{%8,%9}, {%0,%1,%2,%3};"
					    : "+r"(c[j][0]), "+r"(c[j][1]), "+r"(c[j][2]), "+r"(c[j][3])
					    : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
				else
					asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
					    "{%8,%9}, {%0,%1,%2,%3};"
					    : "+r"(c[j][0]), "+r"(c[j][1]), "+r"(c[j][2]), "+r"(c[j][3])
					    : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
			}
		}
	}
	unsigned s = 0;
#pragma unroll
	for (int j = 0; j < ACC; j++)
		s ^= c[j][0] ^ c[j][1] ^ c[j][2] ^ c[j][3];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int MODE, int ACC> static double run(int iters)
{
	const int threads = 128, sms = sm_count();
	int per_sm = 0;
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mma_kernel<MODE, ACC>, threads, 0);
	if (per_sm < 1)
		per_sm = 1;
	const int blocks = sms * per_sm; // one full wave
	unsigned *out;
	if (cudaMalloc(&out, sizeof *out * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return -1;
	}
	// fp16 1.0 and 1/16 (as flopscope's A and B), bf16 the same, or int8 3 and 5
	unsigned a = MODE == 2 ? 0x03030303u : MODE == 3 ? 0x3f803f80u : 0x3c003c00u,
	         b = MODE == 2 ? 0x05050505u : MODE == 3 ? 0x3d803d80u : 0x2c002c00u;
	double per_mma = MODE == 2 ? 2.0 * 16 * 8 * 32 : 2.0 * 16 * 8 * 16;
	double ops = per_mma * ACC * UNROLL * (double)iters * (threads / 32) * blocks;
	double r = median_tera_rate([&] { mma_kernel<MODE, ACC><<<blocks, threads>>>(out, a, b, iters); }, ops);
	cudaFree(out);
	return r;
}

template <int MODE> static double run_acc(int acc, int iters)
{
	switch (acc) {
	case 1: return run<MODE, 1>(iters);
	case 2: return run<MODE, 2>(iters);
	case 4: return run<MODE, 4>(iters);
	default: return run<MODE, 8>(iters);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "f16";
	int acc = argc > 2 ? atoi(argv[2]) : MAX_ACC;
	if (acc != 1 && acc != 2 && acc != 4 && acc != 8) {
		fprintf(stderr, "mma: ACC is 1, 2, 4 or 8\n");
		return 2;
	}
	int iters = 2048 * 8 / acc;
	double r;
	if (!strcmp(mode, "f16"))
		r = run_acc<0>(acc, iters);
	else if (!strcmp(mode, "f16acc"))
		r = run_acc<1>(acc, iters);
	else if (!strcmp(mode, "int8"))
		r = run_acc<2>(acc, iters);
	else if (!strcmp(mode, "bf16"))
		r = run_acc<3>(acc, iters);
	else {
		fprintf(stderr, "mma: f16, f16acc, int8 or bf16\n");
		return 2;
	}
	if (r < 0)
		return 1;
	printf("%.3f %d\n", r, sm_count());
	return 0;
}
