/* Touches a large part of the symmetric heap on every PE, as a program with big arrays does:
 * heap_touch MIB allocates MIB MiB, writes every page, puts the whole block into the next
 * PE's block and checks what the previous PE put into its own.  Used under a small /dev/shm
 * (test/hostile/small_shm.sh): the heap must not live where the mount's size applies, or a
 * shortage must come out of shmem_malloc as NULL with a message, never as a SIGBUS.  A NULL
 * block ends the job with shmem_global_exit(3). */
#include "common.h"

int main(int argc, char **argv) {
  const size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
  test_init();
  const int me = shmem_my_pe();
  const size_t bytes = mib << 20, words = bytes / sizeof(uint64_t);
  uint64_t *block = shmem_malloc(bytes);
  if (block == NULL) {
    fprintf(stderr, "heap_touch: PE %d: shmem_malloc(%zu) returned NULL\n", me, bytes);
    shmem_global_exit(3);
  }
  for (size_t i = 0; i < words; ++i) block[i] = ((uint64_t)me << 48) | i;
  uint64_t *received = shmem_malloc(bytes);
  if (received == NULL) {
    fprintf(stderr, "heap_touch: PE %d: shmem_malloc(%zu) returned NULL\n", me, bytes);
    shmem_global_exit(3);
  }
  shmem_putmem(received, block, bytes, test_right());
  shmem_barrier_all();
  const uint64_t from = (uint64_t)test_left();
  size_t wrong = 0;
  for (size_t i = 0; i < words; ++i) wrong += received[i] != ((from << 48) | i);
  CHECK(wrong == 0, "%zu of %zu words from PE %d are wrong", wrong, words, (int)from);
  shmem_free(received);
  shmem_free(block);
  return test_finish("heap_touch");
}
