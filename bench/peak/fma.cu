// The CUDA reference: many independent FMA chains per thread, a grid that
// fills every SM, timed with CUDA events; prints the median TFLOPS of 10.
// FLOP count: 2 x CHAINS x UNROLL x iters x threads.
#include <algorithm>
#include <cstdio>
#include <vector>

#define CHAINS 8
#define UNROLL 64

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
	int dev = 0, sms = 0;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	const int threads = 256, blocks = sms * 32, iters = 2048;
	float *out;
	if (cudaMalloc(&out, sizeof(float) * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	fma_kernel<<<blocks, threads>>>(out, 0.9999f, 1e-4f, iters); // warm-up
	cudaDeviceSynchronize();
	std::vector<double> tf;
	for (int r = 0; r < 10; r++) {
		cudaEventRecord(e0);
		fma_kernel<<<blocks, threads>>>(out, 0.9999f, 1e-4f, iters);
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		float ms;
		cudaEventElapsedTime(&ms, e0, e1);
		double flop = 2.0 * CHAINS * UNROLL * (double)iters * threads * blocks;
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
