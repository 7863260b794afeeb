// The CUDA reference for packed FP16: independent __hfma2 chains per thread
// (each HFMA2 is 2 lanes x 2 FLOP), a grid that fills every SM, timed with
// CUDA events; prints the median TFLOPS of 10. Tells whether the hardware
// reaches twice the FP32 rate with packed half2 outside the tensor cores.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>

#define CHAINS 8
#define UNROLL 64

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
	int dev = 0, sms = 0;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	const int threads = 256, blocks = sms * 32, iters = 2048;
	float *out;
	if (cudaMalloc(&out, sizeof(float) * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	__half2 a = __floats2half2_rn(0.999f, 0.999f), b = __floats2half2_rn(1e-3f, 1e-3f);
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	hfma2_kernel<<<blocks, threads>>>(out, a, b, iters); // warm-up
	cudaDeviceSynchronize();
	std::vector<double> tf;
	for (int r = 0; r < 10; r++) {
		cudaEventRecord(e0);
		hfma2_kernel<<<blocks, threads>>>(out, a, b, iters);
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		float ms;
		cudaEventElapsedTime(&ms, e0, e1);
		double flop = 4.0 * CHAINS * UNROLL * (double)iters * threads * blocks;
		tf.push_back(flop / (ms * 1e-3) * 1e-12);
	}
	if (cudaGetLastError() != cudaSuccess) {
		fprintf(stderr, "kernel failed\n");
		return 1;
	}
	std::sort(tf.begin(), tf.end());
	printf("%.3f %d\n", (tf[4] + tf[5]) / 2, sms);
	return 0;
}
