/* Tandem's extensions to OpenSHMEM (the shmemx_ prefix). */
#ifndef TANDEM_SHMEMX_H
#define TANDEM_SHMEMX_H

#include <shmem.h>

#endif
