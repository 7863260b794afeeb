// Shared by the CUDA references: the SM count, and the median rate of 10
// timed launches (after one warm-up) in units of 1e12 a second.
#include <algorithm>
#include <cstdio>
#include <vector>

static int sm_count()
{
	int sms = 0;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	return sms;
}

// launch() starts one kernel; ops is what one launch does. -1 on an error.
template <typename Launch> static double median_tera_rate(Launch launch, double ops)
{
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	launch(); // warm-up
	cudaDeviceSynchronize();
	std::vector<double> r;
	for (int i = 0; i < 10; i++) {
		cudaEventRecord(e0);
		launch();
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		float ms;
		cudaEventElapsedTime(&ms, e0, e1);
		r.push_back(ops / (ms * 1e-3) * 1e-12);
	}
	if (cudaGetLastError() != cudaSuccess) {
		fprintf(stderr, "kernel failed\n");
		return -1;
	}
	std::sort(r.begin(), r.end());
	return (r[4] + r[5]) / 2;
}
