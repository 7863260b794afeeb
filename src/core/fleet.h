/* fleet: the GPUs of many hosts as Prometheus holds flopscope's series
 * (app/fleet_cmd.c reads them), one row a GPU and workload, judged by the
 * node's outlier rule (outlier.h) across the fleet: a GPU more than the
 * margin below the median of the same model on the same workload, and
 * beyond the runs' noise. Pure. */
#ifndef FLOPSCOPE_FLEET_H
#define FLOPSCOPE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct FleetRow {
	char host[128];       /* Prometheus' instance label less its port (fleet_host_of) */
	char uuid[64];        /* "GPU-..." */
	char gpu[12];         /* NVML's index, digits only; "" none */
	char name[128];       /* the model, from flopscope_device_info; "" unknown */
	char workload[32];    /* "" none (an exporter's readings only) */
	char unit[20];        /* "flops", "ops", "bytes_per_second"; "" none */
	double median;        /* the throughput's median; NaN none */
	double noise;         /* the run's noise ratio; NaN unknown */
	char verdict[12];     /* the last check's status; "" none */
	char codes[200];      /* its causes' codes but ok ones, " " between; "" none */
	double power_w, clock_mhz, temp_c; /* the readings; NaN unknown */
	bool missing;         /* a GPU its host has and Vulkan does not show */
	/* the fleet's rule (fleet_judge) */
	double fleet_ratio;   /* median / its model's median on the workload; NaN: no peer */
	double noise_ref;
	size_t peers;         /* of its model and workload with a median, itself included */
	bool outlier, unsure;
} FleetRow;

typedef enum FleetSort { FLEET_BY_HOST, FLEET_BY_VERDICT, FLEET_BY_RATIO, FLEET_BY_POWER, FLEET_SORT_COUNT } FleetSort;

extern const char *const fleet_sort_names[FLEET_SORT_COUNT]; /* "host", "verdict", ... */

/* The host of a Prometheus instance label: "node1:9100" -> "node1",
 * "[::1]:19400" -> "[::1]", "node1" (relabelled, no port) as it is. A
 * node's exporters on several ports (node_exporter's textfile with the
 * check's results, the --watch exporter's readings) are one host, and a
 * GPU's rows and readings join there. */
void fleet_host_of(const char *instance, char *out, size_t len);
/* The outlier rule over rows[0..n) (model and workload: a kind); returns
 * how many are outliers. */
size_t fleet_judge(FleetRow *rows, size_t n, double pct);
/* Whether a row is one an admin acts on: missing, an outlier, or a
 * verdict other than pass, noref, skip or unsure. */
bool fleet_row_bad(const FleetRow *r);
/* A row's cells as the table and the screen show them ("-" unknown). */
typedef struct FleetCells {
	char median[48], ratio[16], verdict[12], power[16], clock[16], temp[16];
} FleetCells;
void fleet_cells(const FleetRow *r, FleetCells *c);
/* The table's column heads and a row's line in them (width: the line's at
 * most; host: "" where the row above had the same). */
#define FLEET_HEAD_FMT "%-22.22s %3.3s %-18.18s %-12.12s %14s %8s %-8s %6s %9s %5s  %s"
void fleet_head(char *out, size_t len);
void fleet_line(const FleetRow *r, const char *host, char *out, size_t len);
/* Whether the row passes the filters: model "" any; bad_only: only rows to
 * act on. */
bool fleet_row_shown(const FleetRow *r, const char *model, bool bad_only);
/* Sorted by key, then host, GPU and workload. */
void fleet_sort(FleetRow *rows, size_t n, FleetSort key);

#endif
