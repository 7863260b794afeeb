#include "listing.h"

#include <string.h>

void listing_entry(const DeviceInfo *d, size_t number, char *buf, size_t len)
{
	snprintf(buf, len, "%4zu: %s (compute queue: %u, type: %s)", number, d->name,
	         d->queue_family, devinfo_type_str(d->type));
}

void listing_details(FILE *f, const DeviceInfo *d)
{
	char text[4096];
	devinfo_details(d, text, sizeof text);
	fputs(text, f);
}

void listing_print(FILE *f, const DeviceList *l, bool verbose)
{
	char line[512];
	fprintf(f, "Compatible devices:\n");
	for (size_t i = 0; i < l->count; i++) {
		listing_entry(&l->entries[i], i + 1, line, sizeof line);
		fprintf(f, "%s\n", line);
		if (verbose)
			listing_details(f, &l->entries[i]);
	}
}
