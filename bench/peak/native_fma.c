/* The native ceiling for lavapipe: independent FMA chains in 256-bit vectors
 * (llvmpipe's width) on every core, as plain C. Prints the median GFLOPS of
 * ROUNDS runs. FLOP count: 2 x lanes x chains x steps x threads. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef float v8 __attribute__((vector_size(32)));
#define CHAINS 12
#define STEPS 4000000L

static volatile float sink;

static void *work(void *arg)
{
	float seed = *(float *)arg;
	v8 a, b, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11;
	for (int i = 0; i < 8; i++) {
		a[i] = 0.999999f;
		b[i] = 1e-6f;
		/* twelve named chains: the compiler keeps them in registers */
		x0[i] = seed + i * 1e-3f; x1[i] = x0[i] + 1; x2[i] = x0[i] + 2; x3[i] = x0[i] + 3;
		x4[i] = x0[i] + 4; x5[i] = x0[i] + 5; x6[i] = x0[i] + 6; x7[i] = x0[i] + 7;
		x8[i] = x0[i] + 8; x9[i] = x0[i] + 9; x10[i] = x0[i] + 10; x11[i] = x0[i] + 11;
	}
	for (long s = 0; s < STEPS; s++) {
		/* contracted to vfmadd with -mfma */
		x0 = x0 * a + b; x1 = x1 * a + b; x2 = x2 * a + b; x3 = x3 * a + b;
		x4 = x4 * a + b; x5 = x5 * a + b; x6 = x6 * a + b; x7 = x7 * a + b;
		x8 = x8 * a + b; x9 = x9 * a + b; x10 = x10 * a + b; x11 = x11 * a + b;
	}
	v8 t = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11;
	float r = 0;
	for (int i = 0; i < 8; i++)
		r += t[i];
	sink = r;
	return NULL;
}

static int cmp(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t *t = calloc((size_t)n, sizeof *t);
	float *seeds = calloc((size_t)n, sizeof *seeds);
	double *g = calloc((size_t)rounds, sizeof *g);
	for (int r = 0; r < rounds; r++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (long i = 0; i < n; i++) {
			seeds[i] = (float)i;
			pthread_create(&t[i], NULL, work, &seeds[i]);
		}
		for (long i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		g[r] = 2.0 * 8 * CHAINS * STEPS * (double)n / s * 1e-9;
	}
	qsort(g, (size_t)rounds, sizeof *g, cmp);
	printf("%.3f\n", g[rounds / 2]);
	return 0;
}
