/* devfeat: the device features a workload can need, as bits of one mask.
 * What each is called and what lacking it means is devfeat_rows.h's row;
 * how Vulkan spells, queries and enables it is src/gpu/features.c's table,
 * row for row. Pure. */
#ifndef FLOPSCOPE_DEVFEAT_H
#define FLOPSCOPE_DEVFEAT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum DevFeature {
#define DEV_FEATURE(id, ...) FEAT_##id,
#include "devfeat_rows.h"
#undef DEV_FEATURE
	FEAT_COUNT
} DevFeature;

#define FEAT(f) (1u << (f))

typedef struct DevFeatureInfo {
	const char *label;  /* in --list --verbose's line of features; NULL: not there */
	const char *lacks;  /* why a workload that needs it cannot run */
	bool before_shape;  /* it decides which shader can run: said before a missing matrix shape */
} DevFeatureInfo;

extern const DevFeatureInfo dev_features[FEAT_COUNT];

/* The matrix types' table: a VkComponentTypeKHR's name ("fp16", "bf16",
 * "int8", "fp8-e4m3"), "other" for a type it does not know. */
const char *matrix_component_str(uint32_t type);
/* ... and back: the type called name; false for a name it does not know. */
bool matrix_component_find(const char *name, uint32_t *type);

#endif
