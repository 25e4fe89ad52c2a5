/* man/mkman.sh runs this header through the C and the C++ preprocessor: the C run gives
 * every declaration of <shmem.h> and of the nonblocking collectives (<tandem/nbc.h>), and below, one record per row of the type tables (their
 * TYPENAMEs, and the order in which a page lists its types); the C++ run gives the
 * overloads of <tandem/generic.h>.  man/mkman.awk reads the three. */
#define TANDEM_DEPRECATED
#include <shmem.h>
#include <shmemx.h>

#define TANDEM_MAN_TYPE(T, N) @type T @name N @end
TANDEM_RMA_TYPES(TANDEM_MAN_TYPE)
TANDEM_AMO_EXTENDED_TYPES(TANDEM_MAN_TYPE)
TANDEM_AMO_BITWISE_TYPES(TANDEM_MAN_TYPE)
TANDEM_P2P_TYPES(TANDEM_MAN_TYPE)
TANDEM_COLL_TYPES(TANDEM_MAN_TYPE)
TANDEM_REDUCE_BITWISE_TYPES(TANDEM_MAN_TYPE)
TANDEM_REDUCE_MINMAX_TYPES(TANDEM_MAN_TYPE)
TANDEM_REDUCE_ARITH_TYPES(TANDEM_MAN_TYPE)
TANDEM_TO_ALL_ARITH_TYPES(TANDEM_MAN_TYPE)
TANDEM_WAIT_DEPRECATED_TYPES(TANDEM_MAN_TYPE)
