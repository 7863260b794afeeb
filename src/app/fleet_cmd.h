/* fleet_cmd: --fleet URL, a fleet's GPUs as a Prometheus server holds
 * flopscope's series (and dcgm-exporter's readings where flopscope has
 * none, joined by UUID): a row a GPU and workload grouped by host, the last
 * check's verdict and causes, the readings, and the fleet-wide outliers;
 * a table, CSV or JSON (docs/FLEET.md). */
#ifndef FLOPSCOPE_FLEET_CMD_H
#define FLOPSCOPE_FLEET_CMD_H

#include <stdatomic.h>

#include "cli.h"

/* Exit 0: read, and no GPU to act on; 1: an outlier, a failing verdict or
 * a missing GPU; 6: Prometheus could not be read (said). */
int fleet_run(const Options *o, atomic_int *quit);

#endif
