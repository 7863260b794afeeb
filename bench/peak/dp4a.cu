// The CUDA reference for 8-bit dot products: independent __dp4a chains per
// thread (x = dot(bytes of x, bytes of a) + b, as flopscope's int8dot; 8
// operations each), a grid that fills every SM, timed with CUDA events;
// prints the median TOPS of 10.
#include <algorithm>
#include <cstdio>
#include <vector>

#define CHAINS 12
#define UNROLL 64

__global__ void dp4a_kernel(unsigned *out, unsigned a, unsigned b, int iters)
{
	unsigned x[CHAINS];
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		x[c] = threadIdx.x * 16u + c;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
#pragma unroll
			for (int c = 0; c < CHAINS; c++)
				x[c] = __dp4a(x[c], a, b);
		}
	}
	unsigned s = 0;
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		s += x[c];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
	int dev = 0, sms = 0;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	const int threads = 256, blocks = sms * 32, iters = 1024;
	unsigned *out;
	if (cudaMalloc(&out, sizeof(unsigned) * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	dp4a_kernel<<<blocks, threads>>>(out, 0x03050709u, 0x00010203u, iters); // warm-up
	cudaDeviceSynchronize();
	std::vector<double> tf;
	for (int r = 0; r < 10; r++) {
		cudaEventRecord(e0);
		dp4a_kernel<<<blocks, threads>>>(out, 0x03050709u, 0x00010203u, iters);
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		float ms;
		cudaEventElapsedTime(&ms, e0, e1);
		double ops = 8.0 * CHAINS * UNROLL * (double)iters * threads * blocks;
		tf.push_back(ops / (ms * 1e-3) * 1e-12);
	}
	if (cudaGetLastError() != cudaSuccess) {
		fprintf(stderr, "kernel failed\n");
		return 1;
	}
	std::sort(tf.begin(), tf.end());
	printf("%.3f %d\n", (tf[4] + tf[5]) / 2, sms);
	return 0;
}
