/* columns: an output record as a table of columns, the way htop's
 * Process_fields describes a process: each column its JSON key, its CSV
 * header and how its value is written, read from a row struct by offset.
 * A record's JSON object, its CSV line and the CSV header come from one
 * table: a new field is a row struct member and a column. */
#ifndef FLOPSCOPE_COLUMNS_H
#define FLOPSCOPE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devinfo.h"
#include "sample.h"

struct cJSON;

typedef enum ColForm {
	COL_TEXT,      /* const char *: JSON left out when NULL or ""; CSV as is */
	COL_QUOTED,    /* const char *: as COL_TEXT, CSV quoted (RFC 4180; NULL: an empty field) */
	COL_STRING,    /* const char *: JSON always ("" for NULL), CSV quoted */
	COL_NUMBER,    /* double: left out of JSON, empty in CSV, unless finite; CSV in csv_fmt */
	COL_COUNT,     /* uint64_t */
	COL_BOOL,      /* bool: JSON true or false, CSV 1 or 0 */
	COL_FLAG,      /* bool: JSON true when set, else left out; CSV 1 or 0 */
	COL_IDENTITY,  /* a RowIdentity: the device's columns (listing.h, LISTING_IDENTITY_CSV);
	                  JSON: none when its dev is NULL */
	COL_TEL_WATCH, /* double[TEL_FIELD_COUNT]: a column for each measured quantity shown in
	                  --watch (tel_rows.h's .watch), keyed and formatted by its row; as COL_NUMBER */
	/* records whose every key is always there (a fleet_gpu record: null where unknown) */
	COL_CHARS,     /* char[] in the row: CSV as is, JSON null when "" */
	COL_CHARS_QUOTED, /* char[]: CSV quoted, JSON null when "" */
	COL_CHARS_STRING, /* char[]: CSV quoted, JSON always a string */
	COL_CHARS_WORDS,  /* char[] of words, " " between: CSV quoted, JSON an array of strings */
	COL_NUMBER_NULL,  /* double: as COL_NUMBER, JSON null where not finite */
	COL_CHARS_INDEX,  /* char[] of a decimal index (a label's): CSV as is, JSON a number, null when "" */
	COL_SIZE,      /* size_t */
	COL_UTC,       /* no value of the row: JSON "utc", when the record is written
	                  (records.h's record_utc); not in CSV */
	COL_PROCESSES, /* const ProcTable *: JSON the array record_processes makes, CSV its one field
	                  (record_processes_csv, quoted); NULL or another namespace's: left out, empty */
} ColForm;

/* Which device and list entry a row is of. */
struct SessionMeta;
typedef struct RowIdentity {
	const DeviceInfo *dev;
	size_t entry;           /* 1-based, as --list numbers it */
	const struct SessionMeta *meta; /* dev NULL: the device as a log recorded it (a replay); NULL: none */
	const struct MissingGpu *missing; /* dev and meta NULL: a GPU Vulkan does not show (no entry) */
} RowIdentity;

/* The columns of a static table c. */
#define NCOLS(c) (sizeof (c) / sizeof *(c))

typedef struct Column {
	const char *json;       /* its key in the JSON record; NULL: not there */
	const char *csv;        /* its CSV header; NULL: not a CSV column */
	ColForm form;
	size_t at;              /* offsetof the value in the row */
	const char *csv_fmt;    /* COL_NUMBER in CSV: "%.6g", "%.4f" */
} Column;

/* The CSV header of cols[0..n), with its newline. */
void columns_csv_header(FILE *f, const Column *cols, size_t n);
/* row as a CSV line of cols (with its newline); false when f failed. */
bool columns_csv(FILE *f, const Column *cols, size_t n, const void *row);
/* row as a JSON object: {"type":type} (type NULL: none) then cols' keys;
 * NULL out of memory. */
struct cJSON *columns_json(const char *type, const Column *cols, size_t n, const void *row);

#endif
