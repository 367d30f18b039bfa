// SPDX-License-Identifier: GPL-2.0-only
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "arch/x86_64/tsc.h"
#include "hosted/hostroot.h"
#include "hosted/zeroable.h"
#include "lib/format.h"

static bool exists(const char *path)
{
	return access(path, R_OK | W_OK) == 0;
}

bool zeroable_find(u64 huge_bytes, struct zeroable *z, char *why, size_t n)
{
	unsigned long long kb = (unsigned long long)(huge_bytes >> 10);

	z->n = 0;
	for (u32 node = 0; node < ZEROABLE_MAX_NODES; node++) {
		snprintf(z->path[z->n], sizeof(z->path[0]),
			 "%s/sys/devices/system/node/node%u/hugepages/"
			 "hugepages-%llukB/zeroable_hugepages", host_root(), node, kb);
		if (exists(z->path[z->n]))
			z->n++;
	}
	if (z->n)
		return true;
	ksnprintf(why, n, "this kernel has no zeroable_hugepages for %llukB "
		  "pages (Li Zhe's hugetlb series; %s/sys/devices/system/node/"
		  "node*/hugepages/hugepages-%llukB/zeroable_hugepages absent "
		  "or not writable)", kb, host_root(), kb);
	return false;
}

static u64 read_count(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t len;

	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return len > 0 ? strtoull(buf, NULL, 10) : 0;
}

u64 zeroable_request(const struct zeroable *z, u64 want, u64 *ticks)
{
	u64 asked = 0;

	*ticks = 0;
	for (u32 i = 0; i < z->n && asked < want; i++) {
		u64 can = read_count(z->path[i]), k = MIN(can, want - asked), t0;
		char num[24];
		int fd, len;

		if (!k || (fd = open(z->path[i], O_WRONLY)) < 0)
			continue;
		len = ksnprintf(num, sizeof(num), "%llu\n", (unsigned long long)k);
		/* The write zeroes them: time it, in this context. */
		t0 = tsc_begin();
		if (write(fd, num, (size_t)len) == len)
			asked += k;
		*ticks += tsc_end() - t0;
		close(fd);
	}
	return asked;
}
