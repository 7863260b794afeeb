// The CUDA references for the power workload (bench/power.sh runs them
// beside flopscope's): each runs for SECONDS and prints, once a second,
// "T RATE" (seconds since its start, 1e12 operations a second over that
// second), then "total RATE".
//   power gemm SECONDS  cuBLAS fp16 8192^3 GEMM, fp32 compute, on random
//                       operands (torch.matmul's form; DCGM's targeted_power
//                       and dcgmproftester run GEMMs on random data)
//   power mma SECONDS [CHAINS]  mma.sync m16n8k16 fp16 x fp16 + fp32, CHAINS
//                       (default 8) accumulators a warp, each with its own
//                       random A and B loaded into registers once: the
//                       operands change every multiply, no memory traffic
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static double now_s()
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

__device__ static unsigned mix(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (unsigned)((x ^ (x >> 31)) >> 32);
}

// finite fp16 patterns (exponent 31 made 15), as flopscope's operands
__device__ static unsigned finite2(unsigned w)
{
	unsigned lo = w & 0xffffu, hi = w >> 16;
	if (((lo >> 10) & 31u) == 31u) lo ^= 0x4000u;
	if (((hi >> 10) & 31u) == 31u) hi ^= 0x4000u;
	return lo | hi << 16;
}

// gemm's operands: standard normal values scaled (torch.randn's kind)
__global__ void fill_normal(__half *p, size_t n, unsigned long long seed)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float u1 = (mix(seed ^ (2 * i)) + 1.0f) / 4294967297.0f, u2 = mix(seed ^ (2 * i + 1)) / 4294967296.0f;
	p[i] = __float2half(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
}

#define UNROLL 16
template <int CH> __global__ void mma_random(const unsigned *ops, float *out, int iters)
{
	unsigned a[CH][4], b[CH][2];
	float c[CH][4];
	size_t base = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CH * 6;
#pragma unroll
	for (int j = 0; j < CH; j++) {
		for (int k = 0; k < 4; k++) a[j][k] = ops[base + j * 6 + k];
		for (int k = 0; k < 2; k++) b[j][k] = ops[base + j * 6 + 4 + k];
		c[j][0] = c[j][1] = c[j][2] = c[j][3] = 0.0f;
	}
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
#pragma unroll
			for (int j = 0; j < CH; j++)
				asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
				             "{%8,%9}, {%0,%1,%2,%3};"
				             : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
				             : "r"(a[j][0]), "r"(a[j][1]), "r"(a[j][2]), "r"(a[j][3]), "r"(b[j][0]), "r"(b[j][1]));
		}
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < CH; j++)
		s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void fill_ops(unsigned *p, size_t n, unsigned long long seed)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = finite2(mix(seed ^ (i * 0x2545f4914f6cdd1dull)));
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// Runs step() (one launch of `ops` operations) until `secs` pass, printing
// each second's rate.
template <typename Step> static void timed(double secs, double ops, Step step)
{
	double t0 = now_s(), mark = t0, total = 0, in_mark = 0;
	while (now_s() - t0 < secs) {
		step();
		CK(cudaDeviceSynchronize());
		total += ops;
		in_mark += ops;
		double t = now_s();
		if (t - mark >= 1.0) {
			printf("%.1f %.1f\n", t - t0, in_mark / (t - mark) * 1e-12);
			fflush(stdout);
			mark = t;
			in_mark = 0;
		}
	}
	printf("total %.1f\n", total / (now_s() - t0) * 1e-12);
}

template <int CH> static void run_mma(double secs)
{
	int sms = 0, per_sm = 0;
	const int threads = 128;
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mma_random<CH>, threads, 0));
	int blocks = sms * (per_sm ? per_sm : 1);
	size_t n = (size_t)blocks * threads * CH * 6;
	unsigned *ops;
	float *out;
	CK(cudaMalloc(&ops, n * 4));
	CK(cudaMalloc(&out, (size_t)blocks * threads * 4));
	fill_ops<<<(unsigned)((n + 255) / 256), 256>>>(ops, n, 12345);
	const int iters = 2048;
	double per = 2.0 * 16 * 8 * 16 * CH * UNROLL * (double)iters * (threads / 32) * blocks;
	timed(secs, per, [&] { mma_random<CH><<<blocks, threads>>>(ops, out, iters); });
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	double secs = argc > 2 ? atof(argv[2]) : 10;
	if (!strcmp(mode, "gemm")) {
		const int n = 8192;
		__half *a, *b, *c;
		CK(cudaMalloc(&a, (size_t)n * n * 2));
		CK(cudaMalloc(&b, (size_t)n * n * 2));
		CK(cudaMalloc(&c, (size_t)n * n * 2));
		size_t e = (size_t)n * n;
		fill_normal<<<(unsigned)((e + 255) / 256), 256>>>(a, e, 1);
		fill_normal<<<(unsigned)((e + 255) / 256), 256>>>(b, e, 2);
		cublasHandle_t h;
		if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
			fprintf(stderr, "cublasCreate failed\n");
			return 1;
		}
		float one = 1, zero = 0;
		timed(secs, 2.0 * n * n * (double)n, [&] {
			if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b, CUDA_R_16F, n,
			                 &zero, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) !=
			    CUBLAS_STATUS_SUCCESS) {
				fprintf(stderr, "cublasGemmEx failed\n");
				exit(1);
			}
		});
		return 0;
	}
	if (!strcmp(mode, "mma")) {
		int ch = argc > 3 ? atoi(argv[3]) : 8;
		if (ch == 2) run_mma<2>(secs);
		else if (ch == 4) run_mma<4>(secs);
		else if (ch == 8) run_mma<8>(secs);
		else { fprintf(stderr, "power: CHAINS is 2, 4 or 8\n"); return 2; }
		return 0;
	}
	fprintf(stderr, "usage: power gemm|mma SECONDS [CHAINS]\n");
	return 2;
}
