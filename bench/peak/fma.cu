// The CUDA reference: many independent FMA chains per thread, a grid that
// fills every SM, timed with CUDA events; prints the median TFLOPS of 10.
// FLOP count: 2 x CHAINS x UNROLL x iters x threads.
#include "timing.cuh"

#define CHAINS 8
#define UNROLL 64
#define ITERS 2048

__global__ void fma_kernel(float *out, float a, float b, int iters)
{
	float x[CHAINS];
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		x[c] = threadIdx.x * 1e-3f + c;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
#pragma unroll
			for (int c = 0; c < CHAINS; c++)
				x[c] = fmaf(x[c], a, b);
		}
	}
	float s = 0;
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		s += x[c];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
	const int sms = sm_count(), threads = 256, blocks = sms * 32, iters = ITERS;
	float *out;
	if (cudaMalloc(&out, sizeof *out * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	double rate = median_tera_rate([&] { fma_kernel<<<blocks, threads>>>(out, 0.9999f, 1e-4f, iters); }, 2.0 * CHAINS * UNROLL * (double)iters * threads * blocks);
	if (rate < 0)
		return 1;
	printf("%.3f %d\n", rate, sms);
	return 0;
}
