// CUDA's host<->device copies, the reference for flopscope's h2d and d2h:
// cudaMemcpyAsync between pinned host memory (cudaMallocHost) and device
// memory, one stream, each copy timed with events after one warm-up.
//   memcpy SIZE_MIB [COPIES] [pinned|register|register-thp|d2d]
// pinned: cudaMallocHost; register: malloc'd memory (4 KiB pages) pinned
// with cudaHostRegister; register-thp: the same, transparent huge pages
// asked for (madvise) and touched first.
// Prints "h2d_median h2d_best d2h_median d2h_best" in GB/s (1e9 bytes/s);
// d2d: cudaMemcpyAsync between two device buffers, the reference for
// flopscope's copy, "d2d_median d2d_best" counting each byte read and
// written (2 x SIZE a copy, as flopscope's copy counts).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <vector>

#define TRY(x)                                                                      \
	do {                                                                        \
		cudaError_t e_ = (x);                                               \
		if (e_ != cudaSuccess) {                                            \
			fprintf(stderr, "memcpy: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(1);                                                    \
		}                                                                   \
	} while (0)

static void rates(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int n, cudaStream_t st,
                  double *median, double *best)
{
	cudaEvent_t e0, e1;
	TRY(cudaEventCreate(&e0));
	TRY(cudaEventCreate(&e1));
	TRY(cudaMemcpyAsync(dst, src, bytes, kind, st)); // warm-up
	TRY(cudaStreamSynchronize(st));
	std::vector<double> r;
	for (int i = 0; i < n; i++) {
		TRY(cudaEventRecord(e0, st));
		TRY(cudaMemcpyAsync(dst, src, bytes, kind, st));
		TRY(cudaEventRecord(e1, st));
		TRY(cudaEventSynchronize(e1));
		float ms;
		TRY(cudaEventElapsedTime(&ms, e0, e1));
		r.push_back((double)bytes / (ms * 1e-3) * 1e-9);
	}
	std::sort(r.begin(), r.end());
	*median = n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
	*best = r.back();
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: memcpy SIZE_MIB [COPIES]\n");
		return 2;
	}
	size_t bytes = (size_t)atol(argv[1]) << 20;
	int n = argc > 2 ? atoi(argv[2]) : 20;
	const char *how = argc > 3 ? argv[3] : "pinned";
	void *host, *dev;
	cudaStream_t st;
	if (!strcmp(how, "d2d")) {
		void *a, *b;
		double m, best;
		TRY(cudaMalloc(&a, bytes));
		TRY(cudaMalloc(&b, bytes));
		TRY(cudaMemset(a, 1, bytes));
		TRY(cudaStreamCreate(&st));
		rates(b, a, bytes, cudaMemcpyDeviceToDevice, n, st, &m, &best);
		printf("%.2f %.2f\n", 2 * m, 2 * best);
		cudaFree(a);
		cudaFree(b);
		return 0;
	}
	if (!strcmp(how, "pinned")) {
		TRY(cudaMallocHost(&host, bytes));
	} else {
		if (posix_memalign(&host, 2 << 20, bytes)) {
			fprintf(stderr, "memcpy: out of memory\n");
			return 1;
		}
		madvise(host, bytes, !strcmp(how, "register-thp") ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		memset(host, 1, bytes);
		TRY(cudaHostRegister(host, bytes, cudaHostRegisterDefault));
	}
	TRY(cudaMalloc(&dev, bytes));
	TRY(cudaStreamCreate(&st));
	for (size_t i = 0; i < bytes; i += 4096) // touched: no first-use cost in the timing
		((char *)host)[i] = (char)i;
	double hm, hb, dm, db;
	rates(dev, host, bytes, cudaMemcpyHostToDevice, n, st, &hm, &hb);
	rates(host, dev, bytes, cudaMemcpyDeviceToHost, n, st, &dm, &db);
	printf("%.2f %.2f %.2f %.2f\n", hm, hb, dm, db);
	cudaFreeHost(host);
	cudaFree(dev);
	return 0;
}
