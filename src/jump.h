/* jump: a power-state change found in the FLOPS series (time, level before and
 * after). The dashboard lists and marks these; the detector fills them. */
#ifndef FLOPSCOPE_JUMP_H
#define FLOPSCOPE_JUMP_H

typedef struct Jump {
	double t_ms;
	double before, after;  /* FLOPS levels (medians) */
	double ratio;          /* after / before */
} Jump;

#endif
