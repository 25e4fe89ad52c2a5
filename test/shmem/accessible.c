/* shmem_pe_accessible, shmem_addr_accessible and shmem_ptr.  shmem_ptr must give a usable
 * pointer for every PE of this PE's node and NULL for PEs of other nodes (the virtual nodes
 * of TANDEM_VIRTUAL_NODES, blocks of consecutive PEs): every PE writes its slot into every
 * peer's objects, through the pointer where there is one and with shmem_p otherwise, and
 * every PE reads the result with plain loads. */
#include "common.h"

#define SLOTS 64
static long global_slots[SLOTS];
static int data_word = 12345; /* initialised: lives in .data, not .bss */

static int node_of(int pe, int npes) {
  const char *k = getenv("TANDEM_VIRTUAL_NODES");
  int nodes = k ? atoi(k) : 1;
  if (nodes < 1) nodes = 1;
  if (nodes > npes) nodes = npes;
  return pe / ((npes + nodes - 1) / nodes);
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  CHECK(shmem_pe_accessible(me), "shmem_pe_accessible(my own PE %d) is 0", me);
  for (int pe = 0; pe < npes; ++pe)
    CHECK(shmem_pe_accessible(pe) == 1, "shmem_pe_accessible(%d) is not 1", pe);
  CHECK(shmem_pe_accessible(-1) == 0, "shmem_pe_accessible(-1) is not 0");
  CHECK(shmem_pe_accessible(npes) == 0, "shmem_pe_accessible(n_pes) is not 0");

  long *heap_slots = shmem_calloc(SLOTS, sizeof(long));
  CHECK(heap_slots != NULL, "shmem_calloc failed");
  int local_word = 0;
  int *private_word = malloc(sizeof(int));
  for (int pe = 0; pe < npes; ++pe) {
    CHECK(shmem_addr_accessible(heap_slots, pe) == 1, "heap object not accessible on PE %d", pe);
    CHECK(shmem_addr_accessible(&heap_slots[SLOTS - 1], pe) == 1,
          "the last element of a heap object is not accessible on PE %d", pe);
    CHECK(shmem_addr_accessible(global_slots, pe) == 1, "global array not accessible on PE %d", pe);
    CHECK(shmem_addr_accessible(&data_word, pe) == 1, "initialised global not accessible on PE %d", pe);
    CHECK(shmem_addr_accessible(&local_word, pe) == 0, "a stack variable is accessible on PE %d", pe);
    CHECK(shmem_addr_accessible(private_word, pe) == 0, "a malloc'ed word is accessible on PE %d", pe);
  }
  CHECK(shmem_addr_accessible(heap_slots, -1) == 0, "accessible on PE -1");
  CHECK(shmem_addr_accessible(heap_slots, npes) == 0, "accessible on PE n_pes");

  CHECK(shmem_ptr(heap_slots, me) == heap_slots, "shmem_ptr(heap object, my PE) = %p, not %p",
        shmem_ptr(heap_slots, me), (void *)heap_slots);
  CHECK(shmem_ptr(global_slots, me) == global_slots, "shmem_ptr(global, my PE) is not the global");
  CHECK(shmem_ptr(&local_word, me) == NULL, "shmem_ptr of a stack address is not NULL");
  CHECK(shmem_ptr(private_word, 0) == NULL, "shmem_ptr of a malloc'ed address is not NULL");
  CHECK(shmem_ptr(heap_slots, npes) == NULL, "shmem_ptr to PE n_pes is not NULL");
  CHECK(shmem_ptr(heap_slots, -1) == NULL, "shmem_ptr to PE -1 is not NULL");

  /* Write through the pointers: my slot on every PE, heap and globals. */
  for (int pe = 0; pe < npes; ++pe) {
    long *remote_heap = shmem_ptr(heap_slots, pe);
    long *remote_global = shmem_ptr(global_slots, pe);
    long *remote_middle = shmem_ptr(&heap_slots[me % SLOTS], pe);
    if (node_of(pe, npes) != node_of(me, npes)) {
      CHECK(remote_heap == NULL && remote_global == NULL,
            "shmem_ptr gives a pointer for PE %d, which is on another node", pe);
      shmem_long_p(&heap_slots[me % SLOTS], 1000L * me + pe, pe);
      shmem_long_p(&global_slots[me % SLOTS], 2000L * me + pe, pe);
      continue;
    }
    CHECK(remote_heap != NULL, "shmem_ptr(heap object, %d) is NULL for a node peer", pe);
    CHECK(remote_global != NULL, "shmem_ptr(global, %d) is NULL for a node peer", pe);
    if (!remote_heap || !remote_global) continue;
    CHECK(remote_middle == remote_heap + me % SLOTS,
          "shmem_ptr of an element inside an object is not the same offset on PE %d", pe);
    remote_heap[me % SLOTS] = 1000L * me + pe;
    remote_global[me % SLOTS] = 2000L * me + pe;
  }
  shmem_barrier_all();
  for (int pe = 0; pe < npes && pe < SLOTS; ++pe) {
    CHECK(heap_slots[pe] == 1000L * pe + me, "heap slot %d = %ld, expected %ld", pe, heap_slots[pe],
          1000L * pe + me);
    CHECK(global_slots[pe] == 2000L * pe + me, "global slot %d = %ld, expected %ld", pe,
          global_slots[pe], 2000L * pe + me);
  }
  /* Read through the pointer what the peer itself wrote. */
  data_word = 777 + me;
  shmem_barrier_all();
  for (int pe = 0; pe < npes; ++pe) {
    int *remote = shmem_ptr(&data_word, pe);
    if (node_of(pe, npes) != node_of(me, npes)) {
      CHECK(shmem_int_g(&data_word, pe) == 777 + pe, "data_word on PE %d read with shmem_g is wrong", pe);
      continue;
    }
    CHECK(remote != NULL && *remote == 777 + pe, "data_word on PE %d read through shmem_ptr is %d",
          pe, remote ? *remote : -1);
  }
  shmem_barrier_all();
  shmem_free(heap_slots);
  free(private_word);
  return test_finish("accessible");
}
