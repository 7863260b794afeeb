/* libFuzzer: a Prometheus server's answers to --fleet, as hostile as it
 * likes, made into the fleet's rows and judged: each line of the input one
 * query's answer (a JSON document; its data.result where it has one, else
 * itself), the queries' fills taken in turn as fleet_cmd.c takes them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fleet.h"
#include "fleet_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const Fill order[] = { F_INFO, F_MISSING, F_MEDIAN, F_NOISE, F_STATUS, F_CAUSE,
	                              F_POWER, F_CLOCK, F_TEMP, F_POWER, F_CLOCK, F_TEMP };
	Fleet f = { 0 }, readings = { 0 };
	const char *p = (const char *)data, *end = p + size;
	for (size_t k = 0; k < sizeof order / sizeof *order && p < end; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		cJSON *doc = cJSON_ParseWithLength(p, n);
		const cJSON *res = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "data"), "result");
		fleet_read_fill(&f, &readings, order[k], res ? res : doc, k % 3 ? 1 : 1e-3);
		cJSON_Delete(doc);
		p += n + 1;
	}
	fleet_read_join(&f, &readings);
	free(readings.rows);
	fleet_read_free_index(&readings);
	fleet_read_drop_device_rows(&f);
	fleet_read_free_index(&f);
	fleet_judge(f.rows, f.n, 5);
	char line[1024];
	for (int s = 0; s < FLEET_SORT_COUNT; s++) {
		fleet_sort(f.rows, f.n, (FleetSort)s);
		for (size_t k = 0; k < f.n; k++) {
			FleetCells c;
			fleet_cells(&f.rows[k], &c);
			fleet_line(&f.rows[k], k && !strcmp(f.rows[k].host, f.rows[k - 1].host) ? "" : f.rows[k].host, line,
			           sizeof line);
			fleet_row_shown(&f.rows[k], f.rows[0].name, s & 1);
		}
	}
	free(f.rows);
	return 0;
}
