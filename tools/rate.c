// SPDX-License-Identifier: GPL-2.0
/* rate - the toolkit's rate syntax; see rate.h. */
#include <stdlib.h>
#include <string.h>

#include "rate.h"

double parse_rate(const char *s)
{
	char *unit;
	double v = strtod(s, &unit);

	if (unit == s || v <= 0)
		return -1;
	if (!strcmp(unit, "Gbps"))
		v *= 1e9;
	else if (!strcmp(unit, "Mbps"))
		v *= 1e6;
	else if (!strcmp(unit, "Kbps"))
		v *= 1e3;
	else if (strcmp(unit, "bps"))
		return -1;
	return v / 8;
}
