// The CUDA reference for flopscope's host<->device transfers on a node:
// cudaMemcpyAsync from and to pinned host memory (cudaMallocHost), each GPU
// alone, then every GPU at once (a thread a GPU), the median of 1 s blocks
// of back-to-back copies of SIZE bytes. Prints one line a GPU and direction,
// and the sum of the GPUs at once.
//   nvcc -O2 -o pinned pinned.cu -lpthread && ./pinned [SECONDS] [MiB]
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

struct Job {
	int gpu;
	bool h2d;
	double seconds;
	size_t bytes;
	double median; // GB/s
};

static void *run(void *arg)
{
	Job *j = (Job *)arg;
	CK(cudaSetDevice(j->gpu));
	void *host, *dev;
	CK(cudaMallocHost(&host, j->bytes));
	CK(cudaMalloc(&dev, j->bytes));
	memset(host, 1, j->bytes);
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	std::vector<double> blocks;
	double end = now() + j->seconds + 0.5, t0 = now();
	size_t moved = 0;
	bool warm = true;
	while (now() < end) {
		for (int k = 0; k < 4; k++)
			CK(j->h2d ? cudaMemcpyAsync(dev, host, j->bytes, cudaMemcpyHostToDevice, s)
			          : cudaMemcpyAsync(host, dev, j->bytes, cudaMemcpyDeviceToHost, s));
		CK(cudaStreamSynchronize(s));
		moved += 4 * j->bytes;
		double t = now();
		if (t - t0 >= (warm ? 0.5 : 1.0)) { // the first 0.5 s is warm-up
			if (!warm)
				blocks.push_back(moved / (t - t0) * 1e-9);
			warm = false;
			moved = 0;
			t0 = t;
		}
	}
	std::sort(blocks.begin(), blocks.end());
	j->median = blocks.empty() ? 0 : blocks[blocks.size() / 2];
	CK(cudaStreamDestroy(s));
	CK(cudaFree(dev));
	CK(cudaFreeHost(host));
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 4;
	size_t bytes = (size_t)(argc > 2 ? atof(argv[2]) : 256) << 20;
	int n;
	CK(cudaGetDeviceCount(&n));
	for (int d = 0; d < 2; d++) {
		bool h2d = d == 0;
		const char *dir = h2d ? "h2d" : "d2h";
		std::vector<Job> jobs(n);
		for (int g = 0; g < n; g++) { // alone
			jobs[g] = Job{ g, h2d, seconds, bytes, 0 };
			run(&jobs[g]);
			printf("alone    GPU %d %s %.2f GB/s\n", g, dir, jobs[g].median);
		}
		std::vector<pthread_t> th(n);
		for (int g = 0; g < n; g++) // together
			pthread_create(&th[g], NULL, run, &jobs[g]);
		double sum = 0;
		for (int g = 0; g < n; g++) {
			pthread_join(th[g], NULL);
			sum += jobs[g].median;
			printf("together GPU %d %s %.2f GB/s\n", g, dir, jobs[g].median);
		}
		printf("together sum %s %.2f GB/s (%d GPUs)\n", dir, sum, n);
		fflush(stdout);
	}
	return 0;
}
