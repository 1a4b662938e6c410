/*
 * catalog_cmds.h - the subcommands of `gpuplan catalog`, one file each.
 * Each takes argv with argv[0] its own name and returns the exit status.
 */
#ifndef GPUPLAN_CLI_CATALOG_CMDS_H
#define GPUPLAN_CLI_CATALOG_CMDS_H

int catalog_list(int argc, char **argv);
int catalog_show(int argc, char **argv);

#endif
