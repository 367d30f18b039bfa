/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_CALIB_H
#define LIB_CALIB_H

#include "lib/types.h"

/* floor(n / d); saturates at ~0 when d is 0 or the quotient overflows. */
u64 div_u128(unsigned __int128 n, u64 d);
/* a * b / d without overflow in the product; saturates at ~0 on overflow. */
u64 mul_div_u64(u64 a, u64 b, u64 d);
/* Frequency implied by @ticks of a counter over @ref_ticks of one at @ref_hz. */
u64 calib_hz(u64 ticks, u64 ref_ticks, u64 ref_hz);
/* (a - b) / b in parts per million, rounded toward zero. */
s64 ppm_diff(u64 a, u64 b);
/* Nanoseconds in @ticks of a clock at @hz. */
u64 ticks_to_ns(u64 ticks, u64 hz);

#endif
