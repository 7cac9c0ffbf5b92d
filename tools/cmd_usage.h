/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_usage - usage of a tool with commands (fcq-gen, fcq-net): every
 * command's, or one command's for `TOOL COMMAND --help`.
 */
#ifndef FCQ_CMD_USAGE_H
#define FCQ_CMD_USAGE_H

#include <stddef.h>
#include <stdio.h>

struct cmd_usage {
	const char *cmd;	/* the command's name */
	const char *text;	/* its usage, after "usage: " */
};

/*
 * Print @cmd's usage from @u (@n entries) to @f and exit with @status; with
 * @cmd NULL, @synopsis then every command's. A @cmd that is not in @u is a
 * usage error: everything to stderr, exit 2.
 */
void __attribute__((noreturn))
cmd_usage(FILE *f, const char *synopsis, const struct cmd_usage *u, size_t n,
	  const char *cmd, int status);

#endif
