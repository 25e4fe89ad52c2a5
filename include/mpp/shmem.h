/* The header location of OpenSHMEM 1.1 and earlier, kept for old programs. */
#include <shmem.h>
