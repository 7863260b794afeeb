// The CUDA reference for 8-bit dot products: independent __dp4a chains per
// thread (x = dot(bytes of x, bytes of a) + b, as flopscope's int8dot; 8
// operations each), a grid that fills every SM, timed with CUDA events;
// prints the median TOPS of 10.
#include "timing.cuh"

#define CHAINS 12
#define UNROLL 64
#define ITERS 1024

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
	const int sms = sm_count(), threads = 256, blocks = sms * 32, iters = ITERS;
	unsigned *out;
	if (cudaMalloc(&out, sizeof *out * threads * blocks) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	double rate = median_tera_rate([&] { dp4a_kernel<<<blocks, threads>>>(out, 0x03050709u, 0x00010203u, iters); }, 8.0 * CHAINS * UNROLL * (double)iters * threads * blocks);
	if (rate < 0)
		return 1;
	printf("%.3f %d\n", rate, sms);
	return 0;
}
