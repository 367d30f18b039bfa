// SPDX-License-Identifier: GPL-2.0-only
/* MSRs in the companion (hosted/msr.h): Linux's msr driver. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "arch/x86_64/clear.h"
#include "hosted/hostroot.h"
#include "hosted/msr.h"
#include "lib/format.h"

bool host_rdmsr(u32 cpu, u32 msr, u64 *val, char *err, size_t n)
{
	char path[256];
	ssize_t got;
	int fd, e;

	snprintf(path, sizeof(path), "%s/dev/cpu/%u/msr", host_root(), cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		ksnprintf(err, n, "%s: %s%s", path, strerror(e),
			  e == ENOENT ? " (modprobe msr)" : "");
		return false;
	}
	got = pread(fd, val, sizeof(*val), msr);
	e = errno;
	close(fd);
	if (got == (ssize_t)sizeof(*val))
		return true;
	if (got < 0)
		ksnprintf(err, n, "%s at %#x: %s", path, msr, strerror(e));
	else
		ksnprintf(err, n, "%s at %#x: %zd bytes, not 8", path, msr, got);
	return false;
}

bool host_misc_enable_read(u64 *val, char *err, size_t n)
{
	return host_rdmsr(0, MISC_ENABLE_MSR, val, err, n);
}
