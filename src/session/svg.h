/* svg: a session's plots as an SVG picture for reports (FLOPS, workgroups on
 * a log axis, GPU and CPU dispatch time with the target), with axes, labels
 * and level-change markers: a power-state change red and labelled, any other
 * change grey). Pure: writes to a FILE. */
#ifndef FLOPSCOPE_SVG_H
#define FLOPSCOPE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "change.h"
#include "sample.h"

bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms,
               const ChangeDetector *changes);

#endif
