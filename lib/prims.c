// SPDX-License-Identifier: GPL-2.0-only
#include "lib/prims.h"
#include <stddef.h>

const char *const prim_names[] = {
	"orig", "rep", "erms", "movnti", "movntdq", "avx2", "avx2-nt",
	"avx512", "avx512-nt", "clzero", NULL,
};
