/* Tandem's type tables: the one place that lists which C types each typed OpenSHMEM family
 * covers.  Each table is an X-macro: TABLE(X) expands X(TYPE, TYPENAME) once per row.  The
 * public declarations (api.h), the C11 _Generic selections and C++ overloads (shmem.h) and
 * the library's definitions (src/api) are all expanded from these tables. */
#ifndef TANDEM_TYPETABLE_H
#define TANDEM_TYPETABLE_H

/* Standard RMA types (put, get, p, g, iput, iget, ibput, ibget, nbi, put_signal). */
#define TANDEM_RMA_TYPES(X) \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char) \
  X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong) \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) \
  X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) \
  X(ptrdiff_t, ptrdiff)

/* Sized RMA (put8 ... put128): X(BITS, element type of that width). */
#define TANDEM_RMA_SIZES(X) \
  X(8, uint8_t) X(16, uint16_t) X(32, uint32_t) X(64, uint64_t) X(128, tandem_uint128_t)

/* Standard AMO types (inc, add, fetch_inc, fetch_add, compare_swap). */
#define TANDEM_AMO_STANDARD_TYPES(X) \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) \
  X(ptrdiff_t, ptrdiff)
/* Point-to-point synchronisation types (wait_until, test and their variants): the standard
 * AMO types, plus short and unsigned short, deprecated but still in use. */
#define TANDEM_P2P_TYPES(X) \
  TANDEM_AMO_STANDARD_TYPES(X) X(short, short) X(unsigned short, ushort)

/* Extended AMO types (fetch, set, swap). */
#define TANDEM_AMO_EXTENDED_TYPES(X) \
  TANDEM_AMO_STANDARD_TYPES(X) X(float, float) X(double, double)

/* Bitwise AMO types (and, or, xor and their fetching forms). */
#define TANDEM_AMO_BITWISE_TYPES(X) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

/* Deprecated typed families kept because public programs still call them.  The pre-1.4
 * atomic names (shmem_uint_finc, shmem_size_cswap, ...) cover every row of the standard and
 * extended AMO tables, as other implementations export them. */
#define TANDEM_AMO_DEPRECATED_TYPES(X) TANDEM_AMO_STANDARD_TYPES(X)
#define TANDEM_AMO_DEPRECATED_EXTENDED_TYPES(X) TANDEM_AMO_EXTENDED_TYPES(X)
#define TANDEM_WAIT_DEPRECATED_TYPES(X) \
  X(short, short) X(int, int) X(long, long) X(long long, longlong)

/* The distinct C types behind each table, for C11 _Generic and C++ overloads (the sized
 * typedefs are aliases of these and would make the selections ambiguous). */
#define TANDEM_GENERIC_RMA_TYPES(X) \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char) \
  X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong) \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define TANDEM_GENERIC_AMO_STANDARD_TYPES(X) \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define TANDEM_GENERIC_P2P_TYPES(X) \
  TANDEM_GENERIC_AMO_STANDARD_TYPES(X) X(short, short) X(unsigned short, ushort)
#define TANDEM_GENERIC_AMO_EXTENDED_TYPES(X) \
  TANDEM_GENERIC_AMO_STANDARD_TYPES(X) X(float, float) X(double, double)
/* The signed rows are int32_t and int64_t, whatever C types those are (int and long on
 * LP64); the unsigned fixed-width rows are aliases of the first three. */
#define TANDEM_GENERIC_AMO_BITWISE_TYPES(X) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int32_t, int32) X(int64_t, int64)

/* Collectives: broadcast, collect, fcollect, alltoall and alltoalls cover the standard RMA
 * types; the reductions have three tables of their own. */
#define TANDEM_COLL_TYPES(X) TANDEM_RMA_TYPES(X)
#define TANDEM_REDUCE_BITWISE_TYPES(X) \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) \
  X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define TANDEM_REDUCE_MINMAX_TYPES(X) \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) \
  X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar) \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) \
  X(uint64_t, uint64) X(size_t, size) X(float, float) X(double, double) \
  X(long double, longdouble)
/* Sum, product and the scans. */
#define TANDEM_REDUCE_ARITH_TYPES(X) \
  TANDEM_REDUCE_MINMAX_TYPES(X) X(tandem_complexd, complexd) X(tandem_complexf, complexf)

/* The deprecated active-set reductions (shmem_int_sum_to_all, ...). */
#define TANDEM_TO_ALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define TANDEM_TO_ALL_MINMAX_TYPES(X) \
  TANDEM_TO_ALL_BITWISE_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define TANDEM_TO_ALL_ARITH_TYPES(X) \
  TANDEM_TO_ALL_MINMAX_TYPES(X) X(tandem_complexd, complexd) X(tandem_complexf, complexf)

/* Distinct C types of the collectives, for the type-generic names. */
#define TANDEM_GENERIC_COLL_TYPES(X) TANDEM_GENERIC_RMA_TYPES(X)
#define TANDEM_GENERIC_REDUCE_BITWISE_TYPES(X) \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)
#define TANDEM_GENERIC_REDUCE_MINMAX_TYPES(X) TANDEM_GENERIC_RMA_TYPES(X)
#define TANDEM_GENERIC_REDUCE_ARITH_TYPES(X) \
  TANDEM_GENERIC_RMA_TYPES(X) X(tandem_complexd, complexd) X(tandem_complexf, complexf)

/* The complex types of the sum and product reductions. */
#ifdef __cplusplus
__extension__ typedef __complex__ float tandem_complexf;
__extension__ typedef __complex__ double tandem_complexd;
#else
typedef float _Complex tandem_complexf;
typedef double _Complex tandem_complexd;
#endif

/* A 16-byte element for put128/get128 and friends. */
typedef struct { unsigned long long tandem_word[2]; } tandem_uint128_t;

#endif
