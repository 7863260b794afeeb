/* node_group: one source's controls made to act on several: the node
 * view's device in full pauses, restarts and sets the target of every
 * device, and a replay's speed, seek and step move every log; the position
 * shown is the shown source's. Reads SampleSources only. */
#ifndef FLOPSCOPE_NODE_GROUP_H
#define FLOPSCOPE_NODE_GROUP_H

#include <stddef.h>

#include "source.h"

typedef struct SourceGroup {
	SampleSource *const *src;  /* every source the controls act on */
	size_t n;
	const SampleSource *shown; /* the one on the screen */
} SourceGroup;

/* The shown source's controls, each acting on the group (g outlives
 * them); a control the shown source lacks stays absent, and signalling a
 * process stays its own. */
SourceControls source_group_controls(SourceGroup *g);

#endif
