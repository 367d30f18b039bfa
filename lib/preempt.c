// SPDX-License-Identifier: GPL-2.0-only
#include "lib/preempt.h"
#include <stddef.h>

#define NAME(id, name) [PREEMPT_MODEL_##id] = name,
const char *const preempt_model_names[PREEMPT_MODEL_COUNT + 1] = {
	[PREEMPT_MODEL_OFF] = "off",
	PREEMPT_MODELS(NAME)
};
