/* picker: choose a (device, compute queue) entry. */
#ifndef FLOPSCOPE_PICKER_H
#define FLOPSCOPE_PICKER_H

#include "screen.h"
#include "devinfo.h"

/* Index of the chosen entry, or -1 when the user quits. */
int picker_run(Screen *s, const DeviceList *list, int initial);

#endif
