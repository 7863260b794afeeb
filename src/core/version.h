#ifndef FLOPSCOPE_VERSION_H
#define FLOPSCOPE_VERSION_H
#define FLOPSCOPE_VERSION "0.1.0"
/* The version of the JSON records' schemas (docs/schema/): every record
 * that names a device carries it as "schema"; it grows when a field's
 * meaning changes or a field goes, not when one is added. */
#define FLOPSCOPE_SCHEMA_VERSION 2
#endif
