/* listing: the device list as the tutorial prints it, and --list --verbose. */
#ifndef FLOPSCOPE_LISTING_H
#define FLOPSCOPE_LISTING_H

#include <stdbool.h>
#include <stdio.h>

#include "devinfo.h"

/* "   N: name (compute queue: F, type: T)" */
void listing_entry(const DeviceInfo *d, size_t number, char *buf, size_t len);
void listing_print(FILE *f, const DeviceList *l, bool verbose);
/* --list --format json: a JSON Lines record an entry, named as the session
 * log's session record names the same facts; false when f failed. */
bool listing_print_json(FILE *f, const DeviceList *l);
/* The --verbose facts of one entry, indented lines. */
void listing_details(FILE *f, const DeviceInfo *d);

#endif
