#include "devsel.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int devsel_contains(const char *hay, const char *needle)
{
	if (!*needle)
		return 1;
	for (; *hay; hay++) {
		const char *h = hay, *n = needle;
		while (*h && *n && tolower((unsigned char)*h) == tolower((unsigned char)*n)) {
			h++;
			n++;
		}
		if (!*n)
			return 1;
	}
	return 0;
}

/* "GPU-" and dashes aside, 8 to 32 hex digits: a UUID or its prefix. */
static bool uuid_word(const char *w, char hex[33])
{
	bool prefixed = !strncasecmp(w, "GPU-", 4);
	if (prefixed)
		w += 4;
	size_t n = 0;
	for (; *w; w++) {
		if (*w == '-')
			continue;
		if (!isxdigit((unsigned char)*w) || n == 32)
			return false;
		hex[n++] = (char)tolower((unsigned char)*w);
	}
	hex[n] = '\0';
	return n >= 8;
}

/* One hex field of at most max digits ending at stop; *w moves past it. */
static bool hex_field(const char **w, size_t max, char stop, uint32_t *out)
{
	const char *p = *w;
	size_t n = 0;
	uint32_t v = 0;
	for (; isxdigit((unsigned char)*p) && n < max; p++, n++)
		v = v * 16 + (uint32_t)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
	if (!n || *p != stop)
		return false;
	*out = v;
	*w = stop ? p + 1 : p;
	return true;
}

/* [domain:]bus:device.function, hex (the domain up to 8 digits, as
 * nvidia-smi writes it). */
static bool pci_word(const char *w, DevselWord *out)
{
	const char *p = w;
	uint32_t a, b;
	if (!hex_field(&p, 8, ':', &a) || !hex_field(&p, 2, strchr(p, ':') ? ':' : '.', &b))
		return false;
	out->has_domain = *(p - 1) == ':';
	if (out->has_domain) { /* domain:bus:device.function */
		out->domain = a;
		out->bus = b;
		if (a > 0xffff || b > 0xff || !hex_field(&p, 2, '.', &out->device))
			return false;
	} else { /* bus:device.function */
		out->bus = a;
		out->device = b;
		if (a > 0xff)
			return false;
	}
	return hex_field(&p, 1, '\0', &out->function) && out->device < 32 && out->function < 8;
}

DevselWord devsel_word(const char *word)
{
	DevselWord w = { .kind = DEVSEL_NAME };
	if (pci_word(word, &w))
		w.kind = DEVSEL_PCI;
	else if (uuid_word(word, w.hex))
		w.kind = DEVSEL_UUID;
	return w;
}

static bool uuid_matches(const DeviceInfo *d, const char *hex)
{
	char mine[DEVINFO_UUID_LEN * 2 + 1];
	for (int i = 0; i < DEVINFO_UUID_LEN; i++)
		snprintf(mine + 2 * i, 3, "%02x", d->uuid[i]);
	return !strncmp(mine, hex, strlen(hex));
}

static bool word_matches(const DeviceInfo *d, const DevselWord *w, const char *word)
{
	switch (w->kind) {
	case DEVSEL_UUID:
		return uuid_matches(d, w->hex);
	case DEVSEL_PCI:
		return d->has_pci && d->pci_bus == w->bus && d->pci_device == w->device &&
		       d->pci_function == w->function && (!w->has_domain || d->pci_domain == w->domain);
	default:
		return devsel_contains(d->name, word);
	}
}

bool devsel_matches(const DeviceInfo *d, const char *word)
{
	DevselWord w = devsel_word(word);
	return word_matches(d, &w, word);
}

/* No entry named by the word: why, in its own terms. */
static void no_match(const DevselWord *w, const char *word, char *err, size_t errlen)
{
	if (w->kind == DEVSEL_UUID)
		snprintf(err, errlen, "no device's UUID begins with %s (\"%s\"; nvidia-smi -L and --list -v show them)",
		         w->hex, word);
	else if (w->kind == DEVSEL_PCI)
		snprintf(err, errlen, "no device at PCI address %s (--list -v shows each device's)", word);
	else
		snprintf(err, errlen, "no device name contains \"%s\"", word);
}

static int pick_default(const DeviceInfo *d, size_t n)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (devinfo_type_rank(d[i].type) < devinfo_type_rank(d[best].type))
			best = i;
	return (int)best;
}

int devsel_pick(const DeviceInfo *d, size_t n, const DevselQuery *q, char *err, size_t errlen)
{
	if (n == 0) {
		snprintf(err, errlen, "no compatible device");
		return -1;
	}
	if (!q->word && q->index > n) {
		snprintf(err, errlen, "device %u does not exist: there %s %zu entr%s", q->index, n == 1 ? "is" : "are",
		         n, n == 1 ? "y" : "ies");
		return -1;
	}
	if (!q->word)
		return q->index ? (int)q->index - 1 : pick_default(d, n);
	DevselWord w = devsel_word(q->word);
	unsigned want = q->index ? q->index : 1, seen = 0;
	int found = -1, first = -1;
	for (size_t i = 0; i < n; i++) {
		if (!word_matches(&d[i], &w, q->word))
			continue;
		/* a UUID prefix that two physical devices share names neither */
		if (w.kind == DEVSEL_UUID && first >= 0 && d[first].phys_index != d[i].phys_index) {
			snprintf(err, errlen, "\"%s\" begins the UUIDs of two devices (%s and %s): give more of it",
			         q->word, d[first].name, d[i].name);
			return -1;
		}
		if (first < 0)
			first = (int)i;
		if (++seen == want)
			found = (int)i;
	}
	if (found >= 0)
		return found;
	if (seen == 0)
		no_match(&w, q->word, err, errlen);
	else
		snprintf(err, errlen, "only %u device%s match \"%s\", not %u", seen, seen == 1 ? "" : "s", q->word, want);
	return -1;
}

/* One item of a GPU list: its entry (the first of its device) or -1 with
 * why. */
static int gpu_item(const DeviceInfo *d, size_t n, const char *item, const char *from, const GpuMap *map,
                    char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long k = item[0] >= '0' && item[0] <= '9' ? strtoul(item, &end, 10) : 0;
	if (item[0] >= '0' && item[0] <= '9' && !*end && !errno) {
		for (size_t i = 0; i < n; i++)
			if (d[i].has_gpu_index && d[i].gpu_index == k)
				return (int)i;
		if (!map->by)
			snprintf(err, errlen, "GPU %lu (%s): cannot be mapped to a device: %s", k, from, map->why_not);
		else
			snprintf(err, errlen, "GPU %lu (%s): %s has no GPU %lu that Vulkan shows (%s; --list -v the devices)",
			         k, from, map->by, k, map->hint);
		return -1;
	}
	DevselWord w = devsel_word(item); /* a UUID or a PCI address: a name was refused with the list's form */
	int found = -1;
	for (size_t i = 0; i < n; i++) {
		if (!word_matches(&d[i], &w, item))
			continue;
		if (found >= 0 && d[found].phys_index != d[i].phys_index) {
			snprintf(err, errlen, "\"%s\" (%s) names more than one device: give more of it", item, from);
			return -1;
		}
		if (found < 0)
			found = (int)i;
	}
	if (found < 0) {
		char why[256];
		no_match(&w, item, why, sizeof why);
		snprintf(err, errlen, "%s (%s)", why, from);
	}
	return found;
}

bool devsel_gpu_list_wellformed(const char *list, const char *from, char *err, size_t errlen)
{
	for (const char *p = list;;) {
		char item[128];
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof item) {
			snprintf(err, errlen, "%s: \"%s\" is not a list of GPUs (0,1 or GPU-<uuid>,... or 0000:1b:00.0,...)",
			         from, list);
			return false;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		size_t d1 = strspn(item, "0123456789");
		/* digits-digits is a range of NVML indices, never a UUID's prefix */
		bool looks = d1 && item[d1] == '-' && item[d1 + 1] && strspn(item + d1 + 1, "0123456789") == len - d1 - 1;
		unsigned long lo, hi;
		int used = 0;
		if (looks && !(sscanf(item, "%lu-%lu%n", &lo, &hi, &used) == 2 && (size_t)used == len && lo <= hi &&
		               hi - lo < 1024)) {
			snprintf(err, errlen, "%s: \"%s\" is not a range of GPU indices (LOW-HIGH, low first, at most 1024 "
			         "GPUs)", from, item);
			return false;
		}
		bool index = d1 == len || looks;
		if (!index && devsel_word(item).kind == DEVSEL_NAME) {
			snprintf(err, errlen, "%s: \"%s\" is not a GPU's index, range, UUID or PCI address (in \"%s\")", from,
			         item, list);
			return false;
		}
		p += len;
		if (!*p)
			return true;
		p++;
	}
}

size_t devsel_gpu_list(const DeviceInfo *d, size_t n, const char *list, const char *from, const GpuMap *map,
                       int *idx, size_t cap, char *err, size_t errlen)
{
	/* the whole list's form first: a malformed item is bad input before
	 * any item is looked up ("0," was said as GPU 0's mapping) */
	if (!devsel_gpu_list_wellformed(list, from, err, errlen))
		return 0;
	size_t count = 0;
	const char *p = list;
	for (;;) {
		char item[128];
		size_t len = strcspn(p, ",");
		memcpy(item, p, len);
		item[len] = '\0';
		/* a range of NVML indices: 0-3 (its form checked above) */
		unsigned long lo = 0, hi = 0;
		int used = 0;
		size_t d1 = strspn(item, "0123456789");
		bool range = d1 && item[d1] == '-' && sscanf(item, "%lu-%lu%n", &lo, &hi, &used) == 2;
		for (unsigned long k = range ? lo : 0; k <= (range ? hi : 0); k++) {
			char one[32];
			if (range)
				snprintf(one, sizeof one, "%lu", k);
			int i = gpu_item(d, n, range ? one : item, from, map, err, errlen);
			if (i < 0)
				return 0;
			bool seen = false;
			for (size_t j = 0; j < count; j++)
				seen |= d[idx[j]].phys_index == d[i].phys_index;
			if (seen)
				continue;
			if (count == cap) {
				snprintf(err, errlen, "%s: more than %zu GPUs", from, cap);
				return 0;
			}
			idx[count++] = i;
		}
		p += len;
		if (!*p)
			return count;
		p++;
	}
}
