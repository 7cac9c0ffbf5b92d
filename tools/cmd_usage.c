// SPDX-License-Identifier: GPL-2.0
/* cmd_usage - usage of a tool with commands; see cmd_usage.h. */
#include <stdlib.h>
#include <string.h>

#include "cmd_usage.h"

void cmd_usage(FILE *f, const char *synopsis, const struct cmd_usage *u,
	       size_t n, const char *cmd, int status)
{
	size_t i;

	for (i = 0; cmd && i < n; i++)
		if (!strcmp(cmd, u[i].cmd)) {
			fprintf(f, "usage: %s", u[i].text);
			exit(status);
		}
	if (cmd) {		/* not a command: a usage error */
		f = stderr;
		status = 2;
	}
	fputs(synopsis, f);
	for (i = 0; i < n; i++)
		fprintf(f, "\nusage: %s", u[i].text);
	exit(status);
}
