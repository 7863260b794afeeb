// The CUDA reference for packed FP16: independent __hfma2 chains per thread
// (each HFMA2 is 2 lanes x 2 FLOP), a grid that fills every SM, timed with
// CUDA events; prints the median TFLOPS of 10. Tells whether the hardware
// reaches twice the FP32 rate with packed half2 outside the tensor cores.
#include "timing.cuh"
#include <cuda_fp16.h>

#define CHAINS 8
#define UNROLL 64
#define ITERS 2048

__global__ void hfma2_kernel(float *out, __half2 a, __half2 b, int iters)
{
	__half2 x[CHAINS];
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		x[c] = __floats2half2_rn(threadIdx.x * 1e-3f, c);
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
#pragma unroll
			for (int c = 0; c < CHAINS; c++)
				x[c] = __hfma2(x[c], a, b);
		}
	}
	float s = 0;
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		s += __low2float(x[c]) + __high2float(x[c]);
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
	__half2 a = __floats2half2_rn(0.999f, 0.999f), b = __floats2half2_rn(1e-3f, 1e-3f);
	double rate = median_tera_rate([&] { hfma2_kernel<<<blocks, threads>>>(out, a, b, iters); }, 4.0 * CHAINS * UNROLL * (double)iters * threads * blocks);
	if (rate < 0)
		return 1;
	printf("%.3f %d\n", rate, sms);
	return 0;
}
