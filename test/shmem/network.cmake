# The SHMEM API tests of the inter-node engine's modes and of the progress thread, included
# by tests.cmake (whose functions they use): coalesced puts, the two paths of atomics, the
# software path's request rings, a target that computes without calling the library, where
# the progress thread runs and what wakes it, intra-node copies held back beside network
# transfers, and the progress thread's duties.

# Runs of small nbi puts, coalesced across nodes (TANDEM_AGGREGATE, on in every other run).
tandem_shmem_test(coalesce)
tandem_shmem_test(coalesce_aggregate_off PROGRAM coalesce NP 2 ENV TANDEM_AGGREGATE=off)

# The two paths of atomics between nodes.  On tcp;ofi_rxm every atomic takes the software
# path by default (rxm's own are messages too): the target PE applies each one with a CPU
# atomic, and node peers use CPU atomics, so the default 2-node runs mix both on one word.
# TANDEM_ATOMICS=provider runs them on rxm's atomics instead (node peers' too), and
# TANDEM_ATOMICS=software on sockets, whose own atomics are the default there: its ordered
# completion mode, where a fence must keep puts ahead of a later software atomic.
# epochs: window accumulates of many elements travel as runs of elements per request.
foreach(program atomics atomic_sum lock signal order thread_multiple epochs)
  set(T_ENV TANDEM_ATOMICS=provider)
  tandem_shmem_run(${program}_provider_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
  tandem_shmem_run(${program}_provider_np4_nodes4 "api;internode" 4 ${program} --nodes 4)
  set(T_ENV TANDEM_ATOMICS=software)
  tandem_shmem_run_on(sockets ${program}_software_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
endforeach()
set_tests_properties(atomic_sum_provider_np4_nodes2 atomic_sum_provider_np4_nodes4
                     atomic_sum_software_np4_nodes2_sockets PROPERTIES RUN_SERIAL TRUE TIMEOUT 240)
tandem_shmem_run(busy_target_software "api;internode" 2 busy_target --nodes 2)
set_tests_properties(busy_target_software PROPERTIES
                     ENVIRONMENT "TANDEM_ATOMICS=software;TANDEM_PROGRESS_THREAD=on")
tandem_shmem_run(busy_target_software_default "api;internode" 2 busy_target --nodes 2)
unset(T_ENV)
# On tcp;ofi_rxm (the default) a PE's software atomic requests after its first to a target are
# written into its ring there, not sent as messages (TANDEM_STATS counts them at the target).
add_test(stats_request_rings_np2_nodes2 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "Tandem stats: PE 1: [1-9][0-9]* software requests served \\(atomics and gets\\), [1-9][0-9]* of them written into its rings"
         -- "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/atomics")
# None of the job's own messages is dropped as a stranger's (test/hostile/stranger.sh counts those).
set_tests_properties(stats_request_rings_np2_nodes2 PROPERTIES LABELS "api;internode" TIMEOUT 90
                     ENVIRONMENT "TANDEM_STATS=1"
                     FAIL_REGULAR_EXPRESSION "[1-9][0-9]* messages dropped as not from the job")
# Blocking gets of a few bytes read what their owner wrote, in every placement; across nodes
# they are requests written into the target's ring (over 5400 of each PE's to each other PE).
tandem_shmem_test(small_gets NP 2 4)
add_test(stats_small_gets_np3_nodes3 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "Tandem stats: PE 2: [1-9][0-9]{3,} software requests served \\(atomics and gets\\), [1-9][0-9]{3,} of them written into its rings"
         -- "${OSHRUN}" --nodes 3 -n 3 "${TANDEM_SHMEM_BIN}/small_gets")
set_tests_properties(stats_small_gets_np3_nodes3 PROPERTIES LABELS "api;internode" TIMEOUT 120
                     ENVIRONMENT "TANDEM_STATS=1")

# A target that computes for 2 s without calling the library: with a progress thread (the
# default), PE 0's operations on it complete during that time (the program
# checks it); without (off), they complete correctly once it calls the library again.
tandem_shmem_run(busy_target_default "api;internode" 2 busy_target --nodes 2)
tandem_shmem_run(busy_target_no_progress_thread "api;internode" 2 busy_target --nodes 2)
set_tests_properties(busy_target_no_progress_thread PROPERTIES ENVIRONMENT "TANDEM_PROGRESS_THREAD=off")
# PEs that a launcher bound to some of the machine's cores (here every PE to CPU 0, under
# taskset): each progress thread runs on the other CPUs, not behind its computing PE; with
# TANDEM_PROGRESS_THREAD=off no thread leaves the PE's CPUs.  On one node too, where a PE's
# first nonblocking collective starts its thread.
add_test(progress_cores_np2_nodes2 taskset -c 0 "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/progress_cores")
add_test(progress_cores_off_np2_nodes2 taskset -c 0 "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/progress_cores" none)
set_tests_properties(progress_cores_np2_nodes2 progress_cores_off_np2_nodes2 PROPERTIES
                     LABELS "api;internode" TIMEOUT 90 PROCESSORS 2)
add_test(progress_cores_np2 taskset -c 0 "${OSHRUN}" -n 2 "${TANDEM_SHMEM_BIN}/progress_cores")
add_test(progress_cores_off_np2 taskset -c 0 "${OSHRUN}" -n 2 "${TANDEM_SHMEM_BIN}/progress_cores" none)
set_tests_properties(progress_cores_np2 progress_cores_off_np2 PROPERTIES
                     LABELS "api" TIMEOUT 90 PROCESSORS 2)
set_tests_properties(progress_cores_off_np2 progress_cores_off_np2_nodes2 PROPERTIES
                     ENVIRONMENT "TANDEM_PROGRESS_THREAD=off")
# Meanwhile PE 1's progress thread sleeps on the provider's connections and wakes when PE 0's
# operations arrive, not by a timer (TANDEM_STATS counts those wakes): with each provider
# that talks through sockets.
foreach(provider "tcp;ofi_rxm" net sockets)
  string(REPLACE ";" "_" name "busy_target_traffic_wakes_${provider}")
  add_test(${name} bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
           "Tandem stats: PE 1: the progress thread woke [1-9][0-9]* times for traffic \\(connections watched: [1-9]"
           -- "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/busy_target")
  set_tests_properties(${name} PROPERTIES LABELS "api;internode" TIMEOUT 90
                       ENVIRONMENT "TANDEM_STATS=1;TANDEM_OFI_PROVIDER=${provider}")
endforeach()
# A PE that computes after posting a collective (nbc late), its progress thread on a core
# it shares (taskset: 2 CPUs for 2 PEs): PE 0's waits ring it, and its thread rests until they
# do (TANDEM_STATS counts both).  Alone: a wait rings once it has gone on 200 us without a
# gap, which a loaded machine's preemptions break (the peer's thread then serves on its own
# after its 3 ms rest, and no ring is counted).
tandem_nbc_late_test(stats_nbc_rings_np2_nodes2 "Tandem stats: PE 0: it rang peers' doorbells [1-9][0-9]* times"
                     LAUNCH taskset -c 0,1 "${OSHRUN}" --nodes 2 -n 2
                     LABELS api internode ALONE)
tandem_nbc_late_test(stats_nbc_rests_np2_nodes2
                     "Tandem stats: PE 1: it rang peers' doorbells [0-9]+ times, and its progress thread rested [1-9][0-9]* times"
                     LAUNCH taskset -c 0,1 "${OSHRUN}" --nodes 2 -n 2
                     LABELS api internode ALONE)
# 2 nodes of 2, the last PE asleep after its post until its node peer's request completes:
# the node peer's waits ring its doorbell (they rang none before, and its part waited for
# the end of its thread's rest).
tandem_nbc_late_test(stats_nbc_node_rings_np4_nodes2 "Tandem stats: PE 3: peers rang its doorbell [1-9][0-9]* times"
                     LAUNCH "${OSHRUN}" --nodes 2 -n 4 ARGS sleep LABELS api internode ALONE)

# Intra-node nbi transfers held back until quiet/fence (TANDEM_DEFER_THRESHOLD, 8K in every
# other run): completion and ordering must hold when every one is held, and when none is.
foreach(program rma_types rma_sized order barrier signal globals thread_multiple generic_c11 coalesce)
  tandem_shmem_test(${program}_defer PROGRAM ${program} NP 2 4 ENV TANDEM_DEFER_THRESHOLD=1 ONE_NODE)
  tandem_shmem_test(${program}_defer_off PROGRAM ${program} NP 2 4 ENV TANDEM_DEFER_THRESHOLD=off ONE_NODE)
endforeach()
# TANDEM_STATS=1: order's 64 KiB nbi puts to a node peer are held (how many of their bytes
# overlap network transfers depends on timing).
add_test(stats_np4_nodes2 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "Tandem stats: PE 0: [1-9][0-9]* nbi copies held back \\([0-9]+ bytes\\), [0-9]+ bytes of them copied while network transfers were in flight"
         -- "${OSHRUN}" --nodes 2 -n 4 "${TANDEM_SHMEM_BIN}/order")
# The threshold is set, not inherited: the suite also runs with TANDEM_DEFER_THRESHOLD=off.
set_tests_properties(stats_np4_nodes2 PROPERTIES LABELS "api;internode" TIMEOUT 90
                     ENVIRONMENT "TANDEM_STATS=1;TANDEM_DEFER_THRESHOLD=8K")
# TANDEM_STATS=1 counts the puts that coalesce's runs carried in batches across nodes.
add_test(stats_coalesce_np2_nodes2 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "Tandem stats: PE 0: .* [1-9][0-9]* small puts coalesced"
         -- "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/coalesce")
set_tests_properties(stats_coalesce_np2_nodes2 PROPERTIES LABELS "api;internode" TIMEOUT 90
                     ENVIRONMENT "TANDEM_STATS=1;TANDEM_AGGREGATE=on")
# Deferred copies travel beside network operations in the mixed placement; with auto, copies
# are held only there (the network is in use), from a size that follows the copy bandwidth.
tandem_shmem_test(order_defer_mixed PROGRAM order NP 4 ENV TANDEM_DEFER_THRESHOLD=1 LAUNCH_ARGS --nodes 2 ONE_NODE
                  LABELS internode)
foreach(program rma_types rma_sized order barrier signal globals thread_multiple generic_c11 coalesce)
  tandem_shmem_test(${program}_defer_auto PROGRAM ${program} NP 4 ENV TANDEM_DEFER_THRESHOLD=auto
                    LAUNCH_ARGS --nodes 2 ONE_NODE LABELS internode)
endforeach()

# The progress thread's duties (TANDEM_PROXY_WRITES, TANDEM_PROXY_COPIES), which by default
# only a thread with a core of its own takes on (these tests' PEs leave it none): forced on,
# with every intra-node nbi copy held, so the thread posts the large puts to other nodes and
# runs the copies while the PEs go on.
set(T_ENV TANDEM_PROGRESS_THREAD=on TANDEM_PROXY_WRITES=on TANDEM_PROXY_COPIES=on TANDEM_DEFER_THRESHOLD=1)
foreach(program order signal coalesce thread_multiple rma_types barrier)
  tandem_shmem_run(${program}_proxy_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
  tandem_shmem_run_on(sockets ${program}_proxy_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
endforeach()
unset(T_ENV)
