/* picker: choose a (device, compute queue) entry. */
#ifndef FLOPSCOPE_PICKER_H
#define FLOPSCOPE_PICKER_H

#include "screen.h"
#include "devinfo.h"

#include <stddef.h>

#define PICKER_MAX 256  /* entries that can be marked */

/* The chosen entries into out (at most cap): those marked with space (a:
 * one entry of each physical device), in list order, or the highlighted
 * one when none is marked; 0 when the user quits. */
size_t picker_run(Screen *s, const DeviceList *list, int initial, int *out, size_t cap);

#endif
