/* Tandem's profiling interface: every shmem_ routine is also exported as pshmem_, so a tool
 * can define shmem_X, do its own work and call pshmem_X. */
#ifndef TANDEM_PSHMEM_H
#define TANDEM_PSHMEM_H

#include <shmem.h>

#define TANDEM_PREFIX pshmem_
#include <tandem/api.h>
#undef TANDEM_PREFIX

#endif
