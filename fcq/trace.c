// SPDX-License-Identifier: GPL-2.0
/* Instantiates the fcq:* tracepoints (trace.h). */
#define CREATE_TRACE_POINTS
#include "trace.h"
