#include "retain.h"

#include <string.h>

bool retain_is_log_name(const char *name)
{
	/* YYYYMMDDTHHMMSSZ- then anything, then .jsonl */
	static const char shape[] = "DDDDDDDDTDDDDDDZ-";
	size_t n = strlen(name);
	if (n < sizeof shape - 1 + 1 + 6 || strcmp(name + n - 6, ".jsonl"))
		return false;
	for (size_t i = 0; i < sizeof shape - 1; i++) {
		char c = name[i];
		if (shape[i] == 'D' ? !(c >= '0' && c <= '9') : c != shape[i])
			return false;
	}
	return true;
}

size_t retain_pick(const uint64_t *sizes, const bool *spared, size_t n, size_t keep, uint64_t cap, uint64_t room,
                   bool *remove)
{
	uint64_t total = room;
	for (size_t i = 0; i < n; i++) {
		remove[i] = false;
		total += sizes[i];
	}
	size_t left = n, marked = 0;
	for (size_t i = 0; i < n; i++) {
		bool too_many = keep && left + 1 > keep;
		bool too_big = cap && total > cap;
		if (!too_many && !too_big)
			break;
		if (spared && spared[i])
			continue; /* counted, never removed: the next oldest goes instead */
		remove[i] = true;
		marked++;
		left--;
		total -= sizes[i];
	}
	return marked;
}
