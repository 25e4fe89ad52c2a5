/* Tandem: OpenSHMEM 1.6.  The routines are declared in <tandem/api.h> from the type tables
 * in <tandem/typetable.h>; this header adds the constants, the deprecated names and the
 * type-generic interface (C11 _Generic, or C++ overloads). */
#ifndef TANDEM_SHMEM_H
#define TANDEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <tandem/typetable.h>

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "Tandem 0.1.0"
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_GE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_LE 6
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_CTX_PRIVATE (1L << 0)
#define SHMEM_CTX_SERIALIZED (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* Work-array sizes of the deprecated active-set collectives. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* Contexts.  SHMEM_CTX_DEFAULT, like SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, is a link-time
 * constant: the address of a library object whose size never changes (the library keeps
 * what it stands for elsewhere), so a program keeps working with later libraries. */
typedef struct tandem_ctx *shmem_ctx_t;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

#ifdef __cplusplus
extern "C" {
#endif
extern struct tandem_ctx tandem_ctx_default;
#ifdef __cplusplus
}
#endif
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)&tandem_ctx_default)

/* Teams.  SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED are link-time constants (see Contexts). */
typedef struct tandem_team *shmem_team_t;
typedef struct {
  int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#ifdef __cplusplus
extern "C" {
#endif
extern struct tandem_team tandem_team_world, tandem_team_shared;
#ifdef __cplusplus
}
#endif
#define SHMEM_TEAM_WORLD ((shmem_team_t)&tandem_team_world)
#define SHMEM_TEAM_SHARED ((shmem_team_t)&tandem_team_shared)

/* Sessions. */
typedef struct {
  size_t total_ops;
} shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
#define SHMEM_CTX_SESSION_BATCH (1L << 0)

/* Deprecated routines carry the compiler's deprecation attribute, so that a program learns
 * of their replacement; define TANDEM_DEPRECATED as empty before including shmem.h to
 * silence it. */
#ifndef TANDEM_DEPRECATED
#if defined(__GNUC__) || defined(__clang__)
#define TANDEM_DEPRECATED __attribute__((deprecated))
#else
#define TANDEM_DEPRECATED
#endif
#endif

#define TANDEM_PREFIX shmem_
#include <tandem/api.h>
#undef TANDEM_PREFIX

#ifdef __cplusplus
extern "C" {
#endif
/* Deprecated names without the shmem_ prefix. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);
/* Target of a type-generic call whose argument type has no routine. */
void tandem_generic_no_match(void);
#ifdef __cplusplus
}
#endif

#include <tandem/generic.h>

#endif
