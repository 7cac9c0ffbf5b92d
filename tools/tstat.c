// SPDX-License-Identifier: GPL-2.0
/* tstat - Student's t: see tstat.h. */
#include "tstat.h"

/*
 * t(0.975, df): the table for df <= 30; above, the Cornish-Fisher
 * expansion around the normal quantile, within 1e-5 of it from df 30 on.
 */
double t975(size_t df)
{
	static const double t[31] = {
		0, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646,
		2.3060, 2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314,
		2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
		2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
	};
	double z = 1.959963984540054, d = df, z2 = z * z;

	if (df <= 30)
		return t[df];
	return z + (z2 + 1) * z / 4 / d +
	       ((5 * z2 + 16) * z2 + 3) * z / 96 / (d * d) +
	       (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384 / (d * d * d) +
	       ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z /
	       92160 / (d * d * d * d);
}
