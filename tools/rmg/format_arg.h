/* Shared by rmg check and rmg convert: the template format named on the command line. */
#ifndef RMG_TOOL_FORMAT_ARG_H
#define RMG_TOOL_FORMAT_ARG_H

/* "auto", "yaml", "h3t", "sod", "vcmi"/"json" -> rmg_template_format; -1 if unknown. */
int rmg_cli_parse_format(const char *s);

#endif
