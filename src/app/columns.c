#include "columns.h"
#include "inventory.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "listing.h"
#include "records.h"

static const void *at(const void *row, size_t off)
{
	return (const char *)row + off;
}

void columns_csv_header(FILE *f, const Column *cols, size_t n)
{
	const char *sep = "";
	for (size_t k = 0; k < n; k++) {
		const char *h = cols[k].form == COL_IDENTITY ? LISTING_IDENTITY_CSV : cols[k].csv;
		if (!cols[k].csv)
			continue;
		if (cols[k].form == COL_TEL_WATCH) {
			for (int t = 0; t < TEL_FIELD_COUNT; t++)
				if (tel_info[t].watch) {
					fprintf(f, "%s%s", sep, tel_info[t].key);
					sep = ",";
				}
			continue;
		}
		fprintf(f, "%s%s", sep, h);
		sep = ",";
	}
	fputc('\n', f);
}

/* A COL_PROCESSES field: the table in one quoted field; none: empty. */
static void csv_processes(FILE *f, const ProcTable *t)
{
	char text[PROCS_SHOWN * 96];
	if (t) {
		record_processes_csv(t, text, sizeof text);
		listing_csv_field(f, text);
	}
}

bool columns_csv(FILE *f, const Column *cols, size_t n, const void *row)
{
	const char *sep = "";
	for (size_t k = 0; k < n; k++) {
		const Column *c = &cols[k];
		if (!c->csv)
			continue;
		const void *v = at(row, c->at);
		if (c->form == COL_TEL_WATCH) {
			const double *tv = v;
			for (int t = 0; t < TEL_FIELD_COUNT; t++) {
				if (!tel_info[t].watch)
					continue;
				fputs(sep, f);
				sep = ",";
				if (isfinite(tv[t]))
					fprintf(f, tel_info[t].fmt, tv[t]);
			}
			continue;
		}
		fputs(sep, f);
		sep = ",";
		switch (c->form) {
		case COL_TEXT:
			fputs(*(const char *const *)v ? *(const char *const *)v : "", f);
			break;
		case COL_QUOTED: /* NULL: an empty field; "" quoted */
		case COL_STRING:
			if (*(const char *const *)v)
				listing_csv_field(f, *(const char *const *)v);
			break;
		case COL_NUMBER:
			if (isfinite(*(const double *)v))
				fprintf(f, c->csv_fmt ? c->csv_fmt : "%.17g", *(const double *)v);
			break;
		case COL_COUNT:
			fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)v);
			break;
		case COL_BOOL:
		case COL_FLAG:
			fputs(*(const bool *)v ? "1" : "0", f);
			break;
		case COL_IDENTITY: {
			const RowIdentity *id = v;
			if (id->dev)
				listing_identity_csv(f, id->dev, id->entry);
			else if (id->missing)
				listing_identity_csv_missing(f, id->missing->gpu, id->missing->name, id->missing->uuid,
				                             id->missing->pci);
			break;
		}
		case COL_TEL_WATCH: /* above */
			break;
		case COL_CHARS:
		case COL_CHARS_INDEX:
			fputs((const char *)v, f);
			break;
		case COL_CHARS_QUOTED:
		case COL_CHARS_STRING:
		case COL_CHARS_WORDS:
			listing_csv_field(f, (const char *)v);
			break;
		case COL_NUMBER_NULL:
			if (isfinite(*(const double *)v))
				fprintf(f, c->csv_fmt ? c->csv_fmt : "%.17g", *(const double *)v);
			break;
		case COL_SIZE:
			fprintf(f, "%zu", *(const size_t *)v);
			break;
		case COL_UTC: /* JSON only */
			break;
		case COL_PROCESSES:
			csv_processes(f, *(const ProcTable *const *)v);
			break;
		}
	}
	fputc('\n', f);
	return !ferror(f);
}

/* v as its CSV shows it where the format is fixed-point ("%.3f" seconds,
 * "%.0f" MHz: the precision a reading has), so that JSON carries 2300, not
 * 2299.9980000000028, and 0, not 1.51e-07; other formats ("%.6g") as is. */
static double as_shown(const char *fmt, double v)
{
	size_t n = fmt ? strlen(fmt) : 0;
	if (n < 2 || fmt[n - 1] != 'f' || !isfinite(v))
		return v;
	char buf[64];
	snprintf(buf, sizeof buf, fmt, v);
	double r = strtod(buf, NULL);
	return r == 0 ? 0 : r; /* never -0 */
}

/* " "-separated words of text as a JSON array under key */
static bool add_words(cJSON *j, const char *key, const char *text)
{
	cJSON *words = cJSON_AddArrayToObject(j, key);
	bool ok = words != NULL;
	for (const char *w = text; ok && *w;) {
		size_t len = strcspn(w, " ");
		if (len) {
			char one[128];
			snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), w);
			cJSON *item = cJSON_CreateString(one);
			ok = item && cJSON_AddItemToArray(words, item);
		}
		w += len;
		w += strspn(w, " ");
	}
	return ok;
}

/* Column c of a row (its value at v) into j; false out of memory. */
static bool add_column(cJSON *j, const Column *c, const void *v)
{
	bool ok = true;
	switch (c->form) {
	case COL_TEXT:
	case COL_QUOTED: {
		const char *s = *(const char *const *)v;
		if (s && *s)
			ok = cJSON_AddStringToObject(j, c->json, s) != NULL;
		break;
	}
	case COL_STRING: {
		const char *s = *(const char *const *)v;
		ok = cJSON_AddStringToObject(j, c->json, s ? s : "") != NULL;
		break;
	}
	case COL_NUMBER:
		if (isfinite(*(const double *)v))
			ok = cJSON_AddNumberToObject(j, c->json, as_shown(c->csv_fmt, *(const double *)v)) != NULL;
		break;
	case COL_COUNT:
		ok = cJSON_AddNumberToObject(j, c->json, (double)*(const uint64_t *)v) != NULL;
		break;
	case COL_BOOL:
		ok = cJSON_AddBoolToObject(j, c->json, *(const bool *)v) != NULL;
		break;
	case COL_FLAG:
		if (*(const bool *)v)
			ok = cJSON_AddTrueToObject(j, c->json) != NULL;
		break;
	case COL_TEL_WATCH:
		for (int t = 0; ok && t < TEL_FIELD_COUNT; t++)
			if (tel_info[t].watch && isfinite(((const double *)v)[t]))
				ok = cJSON_AddNumberToObject(j, tel_info[t].key, as_shown(tel_info[t].fmt, ((const double *)v)[t])) !=
				     NULL;
		break;
	case COL_CHARS:
	case COL_CHARS_QUOTED:
		ok = (*(const char *)v ? cJSON_AddStringToObject(j, c->json, v) : cJSON_AddNullToObject(j, c->json)) != NULL;
		break;
	case COL_CHARS_STRING:
		ok = cJSON_AddStringToObject(j, c->json, v) != NULL;
		break;
	case COL_CHARS_INDEX:
		ok = (*(const char *)v ? cJSON_AddNumberToObject(j, c->json, strtod(v, NULL))
		                       : cJSON_AddNullToObject(j, c->json)) != NULL;
		break;
	case COL_CHARS_WORDS:
		ok = add_words(j, c->json, v);
		break;
	case COL_NUMBER_NULL:
		ok = (isfinite(*(const double *)v) ? cJSON_AddNumberToObject(j, c->json, as_shown(c->csv_fmt, *(const double *)v))
		                                   : cJSON_AddNullToObject(j, c->json)) != NULL;
		break;
	case COL_SIZE:
		ok = cJSON_AddNumberToObject(j, c->json, (double)*(const size_t *)v) != NULL;
		break;
	case COL_PROCESSES: {
		const ProcTable *t = *(const ProcTable *const *)v;
		cJSON *a = t ? record_processes(t) : NULL;
		ok = a ? cJSON_AddItemToObject(j, c->json, a) : !t || t->foreign; /* NULL: out of memory */
		if (!ok)
			cJSON_Delete(a);
		break;
	}
	case COL_UTC:
		ok = record_utc(j);
		break;
	case COL_IDENTITY:
		if (c->json && ((const RowIdentity *)v)->dev) {
			const RowIdentity *id = v;
			listing_identity_json(j, id->dev, id->entry);
		} else if (c->json && ((const RowIdentity *)v)->meta) {
			const RowIdentity *id = v;
			listing_identity_json_meta(j, id->meta, id->entry);
		}
		break;
	}
	return ok;
}

cJSON *columns_json(const char *type, const Column *cols, size_t n, const void *row)
{
	cJSON *j = cJSON_CreateObject();
	if (!j || (type && !cJSON_AddStringToObject(j, "type", type))) {
		cJSON_Delete(j);
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		const Column *c = &cols[k];
		if ((c->json || c->form == COL_IDENTITY) && !add_column(j, c, at(row, c->at))) {
			cJSON_Delete(j);
			return NULL;
		}
	}
	return j;
}
