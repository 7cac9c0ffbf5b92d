/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rate - the toolkit's one rate syntax, HPCC's topology.txt units, shared
 * by fcq-net (links) and fcq-gen (paced streams).
 */
#ifndef FCQ_RATE_H
#define FCQ_RATE_H

/* "100Gbps", "25Mbps", "800Kbps", "1000bps" -> bytes/s; -1 if not a rate. */
double parse_rate(const char *s);

#endif
