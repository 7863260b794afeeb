#include "devfeat.h"

#include <stddef.h>
#include <string.h>

const DevFeatureInfo dev_features[FEAT_COUNT] = {
#define DEV_FEATURE(id, ...) [FEAT_##id] = { __VA_ARGS__ },
#include "devfeat_rows.h"
#undef DEV_FEATURE
};

/* VkComponentTypeKHR's numbers, and their names */
static const struct {
	uint32_t type;
	const char *name;
} components[] = {
	{ 0, "fp16" }, { 1, "fp32" }, { 2, "fp64" }, { 3, "int8" }, { 4, "int16" }, { 5, "int32" },
	{ 6, "int64" }, { 7, "uint8" }, { 8, "uint16" }, { 9, "uint32" }, { 10, "uint64" },
	{ 1000141000, "bf16" },         /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
	{ 1000491002, "fp8-e4m3" },     /* VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT */
	{ 1000491003, "fp8-e5m2" },
	{ 1000491000, "int8-packed" },
	{ 1000491001, "uint8-packed" },
};

const char *matrix_component_str(uint32_t type)
{
	for (size_t i = 0; i < sizeof components / sizeof *components; i++)
		if (components[i].type == type)
			return components[i].name;
	return "other";
}

bool matrix_component_find(const char *name, uint32_t *type)
{
	for (size_t i = 0; i < sizeof components / sizeof *components; i++)
		if (!strcmp(components[i].name, name)) {
			*type = components[i].type;
			return true;
		}
	return false;
}
