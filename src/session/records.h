/* records: the JSON encodings of a sample, a level change, an excursion and
 * a summary, as the
 * session log, --analyze and --format json write them (one object per
 * line). */
#ifndef FLOPSCOPE_RECORDS_H
#define FLOPSCOPE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "procs.h"
#include "summary.h"
#include "verdict.h"

struct cJSON;
/* o on a line of its own in f, then freed; false when o is NULL (out of
 * memory) or it cannot be printed or written. Every JSON record is written
 * so: however long, never cut or dropped. */
bool json_line(FILE *f, struct cJSON *o);
/* The contract of a record that names no device (a device's identity
 * carries the same): "flopscope" (the version) and "schema"
 * (FLOPSCOPE_SCHEMA_VERSION), added to o; false out of memory. */
bool record_stamp(struct cJSON *o);
/* "utc": the wall-clock time now, ISO 8601 in UTC to the millisecond
 * ("2026-11-29T15:10:39.123Z"), as dmon's -o DT: when a record was
 * written; false out of memory. */
bool record_utc(struct cJSON *o);
/* One sample as a JSON object ({"dev":N first when dev > 0: one of several
 * devices}); NULL out of memory. */
struct cJSON *record_sample_obj(const Sample *s, unsigned dev);
/* The same with "processes" (record_processes) where the sample read
 * other processes on the device and t names them (NULL: none added). */
struct cJSON *record_sample_procs(const Sample *s, unsigned dev, const ProcTable *t);
/* The other processes on a device as a JSON array, the rows of the
 * process table: [{"pid","name","user","type","memory_bytes","util_pct",
 * "command"}] (a figure unknown left out; name, user and command "" where
 * unknown); NULL for a table of another PID namespace's pids (counted,
 * never named) or out of memory. Watch, check and sample records carry it
 * as "processes". */
struct cJSON *record_processes(const ProcTable *t);
/* The same in one CSV field: "pid name user type memory_bytes util_pct"
 * per process, "; " between them (a figure unknown: "-"; name and user
 * have no spaces: /proc's comm and a user name); "" with none. */
void record_processes_csv(const ProcTable *t, char *out, size_t len);
/* {"type":TYPE} with "t_ms" and "gap_ms" where finite, exact: a replay's
 * "restart" and "gap" marks; NULL out of memory. */
struct cJSON *record_mark_obj(const char *type, double t_ms, double gap_ms);
/* {"type":"change","index":..,"kind":"step"|"ramp","cause":"power_state"|
 * "not_power_state"|"unexplained","why":..,"t_ms":..,"t_end_ms":..,
 * "before":..,"after":..,"ratio":..,"unit":..,...} */
struct cJSON *record_change_json(const Change *c, size_t index, const char *unit);
/* {"type":"event","t_ms":..,"on":[keys],"off":[keys],"clock_before_mhz":..,
 * "clock_after_mhz":..,"before":..,"after":..,"ratio":..,"unit":..,"why":..}:
 * a telemetry event (televent.h), null where unknown */
struct cJSON *record_event_json(const TelEvent *e, const char *unit);
/* {"type":"excursion","t_ms":..,"t_end_ms":..,"samples":..,"level":..,"depth":..} */
struct cJSON *record_excursion_json(const Excursion *e, const char *unit);
/* {"changes":N,"power_state":..,"not_power_state":..,"unexplained":..,
 * "excursions":..,"excursion_ms":..} added to o; false when out of memory */
bool record_change_counts(struct cJSON *o, const ChangeDetector *d);
/* A run's energy added to o: "energy_j", "energy_s", "power_mean_w",
 * "power_max_w", the limit (TEL_KEY_POWER_LIMIT_W), "work_per_joule" (null where no power or
 * limit was read: never 0) and "clock_reduced_s" ({reason key: s}, null
 * where no reason bits were read); false when out of memory. Every record
 * of a run's result carries them. */
bool record_energy(struct cJSON *o, const Energy *e);
/* A verdict's causes added to o as "causes": [{"code":..,"severity":..,
 * "figures":{name: value or null},"action":..,"text":..}], the lead first;
 * false when out of memory. */
bool record_causes(struct cJSON *o, const Causes *cs);
bool record_summary_json(FILE *f, const SummaryResult *r, size_t dropped,
                         uint64_t checks_passed);

#endif
