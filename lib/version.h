/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_VERSION_H
#define LIB_VERSION_H

/* One version for the kernel and the companion, and the record format's
 * version (docs/records.md): bumped when a record's meaning changes. */
#define HUGEZERO_VERSION "0.3"
/* The source it was built from (make passes it to lib/benchrec.c). */
#ifndef HZ_GIT
#define HZ_GIT "unknown"
#endif
#define RECORD_FORMAT 5

#endif
