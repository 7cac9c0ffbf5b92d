/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tstat - Student's t, for the toolkit's 95 % intervals over seeds
 * (fcq-report, fcq-cnsim).
 */
#ifndef FCQ_TSTAT_H
#define FCQ_TSTAT_H

#include <stddef.h>

/* t(0.975, @df); 0 for @df 0. */
double t975(size_t df);

#endif
