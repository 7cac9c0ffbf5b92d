// SPDX-License-Identifier: GPL-2.0
/* fcq/trace.c - instantiates the fcq:* tracepoints (trace.h). */
#define CREATE_TRACE_POINTS
#include "trace.h"
