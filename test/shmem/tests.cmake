# The SHMEM API tests, included by the build's test/CTestTestfile.cmake, which sets
# TANDEM_BUILD, TANDEM_SRC, OSHRUN and TANDEM_MPIRUN.  Every test carries the label "api".
#
#   tandem_shmem_test(NAME [PROGRAM prog] [NP n...] [ARGS a...] [ENV VAR=value...]
#                     [LAUNCH_ARGS o...] [LABELS l...] [ONE_NODE])
#     registers NAME_npN for each N (default 1 2 4): `oshrun LAUNCH_ARGS -n N
#     test/shmem/PROGRAM ARGS` (PROGRAM defaults to NAME; LAUNCH_ARGS are oshrun options).
#     Unless ONE_NODE, the same runs are registered in the two other placements, with the
#     label "internode": NAME_npN_nodesN (every PE its own virtual node, N >= 2) and
#     NAME_np4_nodes2 (2 nodes of 2 PEs), where PEs of different nodes share no memory and
#     talk only through libfabric.  The 2-node runs are registered once more on libfabric's
#     sockets provider (NAME_np2_nodes2_sockets, NAME_np4_nodes2_sockets; label "sockets"):
#     it keeps writes and atomics in order, so Tandem's ordered completion mode runs there,
#     while tcp;ofi_rxm (the default) runs the delivery-complete mode.
#   tandem_shmem_failure(NAME CASE STATUS REGEX [NP n...] [ENV ...])
#     registers NAME_npN: test/shmem/negative CASE run through expect_failure.sh, which
#     passes only if the job exits with STATUS ("nonzero": any) and its output matches
#     REGEX; @PE@ in REGEX stands for the PE that makes the bad call (the last one).

set(TANDEM_SHMEM_BIN "${TANDEM_BUILD}/test/shmem")
set(TANDEM_SHMEM_SRC "${TANDEM_SRC}/test/shmem")

function(tandem_shmem_run test labels np program)
  add_test(${test} "${OSHRUN}" ${ARGN} -n ${np} "${TANDEM_SHMEM_BIN}/${program}" ${T_ARGS})
  # PROCESSORS: ctest -jN starts no more PEs at once than N cores run (a job of more PEs
  # than N runs alone), so oversubscribed jobs do not also crowd each other.
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT 90 PROCESSORS ${np})
  if(T_ENV)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${T_ENV}")
  endif()
endfunction()

# The same run on another libfabric provider: registers TEST_PROVIDER, labelled PROVIDER.
function(tandem_shmem_run_on provider test labels np program)
  list(APPEND T_ENV TANDEM_OFI_PROVIDER=${provider})
  tandem_shmem_run(${test}_${provider} "${labels};${provider}" ${np} ${program} ${ARGN})
endfunction()

function(tandem_shmem_test name)
  cmake_parse_arguments(T "ONE_NODE" "PROGRAM" "NP;ARGS;ENV;LABELS;LAUNCH_ARGS" ${ARGN})
  if(NOT T_PROGRAM)
    set(T_PROGRAM ${name})
  endif()
  if(NOT T_NP)
    set(T_NP 1 2 4)
  endif()
  set(labels api ${T_LABELS})
  foreach(np IN LISTS T_NP)
    tandem_shmem_run(${name}_np${np} "${labels}" ${np} ${T_PROGRAM} ${T_LAUNCH_ARGS})
    if(NOT T_ONE_NODE AND np GREATER 1)
      tandem_shmem_run(${name}_np${np}_nodes${np} "${labels};internode" ${np} ${T_PROGRAM}
                       ${T_LAUNCH_ARGS} --nodes ${np})
    endif()
    if(NOT T_ONE_NODE AND np EQUAL 2)
      tandem_shmem_run_on(sockets ${name}_np2_nodes2 "${labels};internode" 2 ${T_PROGRAM} ${T_LAUNCH_ARGS} --nodes 2)
    endif()
    if(NOT T_ONE_NODE AND np EQUAL 4)
      tandem_shmem_run(${name}_np4_nodes2 "${labels};internode" 4 ${T_PROGRAM} ${T_LAUNCH_ARGS} --nodes 2)
      tandem_shmem_run_on(sockets ${name}_np4_nodes2 "${labels};internode" 4 ${T_PROGRAM} ${T_LAUNCH_ARGS} --nodes 2)
    endif()
  endforeach()
endfunction()

function(tandem_shmem_failure name case status regex)
  cmake_parse_arguments(T "" "" "NP;ENV" ${ARGN})
  if(NOT T_NP)
    set(T_NP 1 4)
  endif()
  foreach(np IN LISTS T_NP)
    math(EXPR culprit "${np} - 1")
    string(REPLACE "@PE@" "${culprit}" expected "${regex}")
    set(test ${name}_np${np})
    add_test(${test} bash "${TANDEM_SHMEM_SRC}/expect_failure.sh" ${status} "${expected}" --
             "${OSHRUN}" -n ${np} "${TANDEM_SHMEM_BIN}/negative" ${case})
    set_tests_properties(${test} PROPERTIES LABELS "api;negative" TIMEOUT 60)
    if(T_ENV)
      set_tests_properties(${test} PROPERTIES ENVIRONMENT "${T_ENV}")
    endif()
  endforeach()
endfunction()

# Setup, query and memory.
tandem_shmem_test(setup)
foreach(level single funneled serialized)
  tandem_shmem_test(init_thread_${level} PROGRAM init_thread ARGS ${level} ONE_NODE)
endforeach()
tandem_shmem_test(init_thread_multiple PROGRAM init_thread ARGS multiple)
tandem_shmem_test(start_pes)
tandem_shmem_test(accessible)
tandem_shmem_test(memory)
# Zero-length operations on NULL buffers, PEs outside a deprecated active set.
tandem_shmem_test(edge_cases)
tandem_shmem_test(globals)
tandem_shmem_test(header_c99)
tandem_shmem_test(ranks)

# RMA, ordering, signals, synchronisation, atomics, locks.
tandem_shmem_test(rma_types)
tandem_shmem_test(rma_sized)
# Strided gets that read the span of their blocks across nodes, strided puts whose blocks
# travel packed, and those that do neither.
tandem_shmem_test(strided_spans NP 2 4)
# A flag at the end of a put, reset and put again: each word lands once, the last one last.
tandem_shmem_test(put_flag)
tandem_shmem_test(order)
tandem_shmem_test(barrier)
# Barriers by node (a leader per node): nodes of 2 and 1 PEs, and of 3 and 2.
tandem_shmem_run(barrier_np3_nodes2 "api;internode" 3 barrier --nodes 2)
tandem_shmem_run(barrier_np5_nodes2 "api;internode" 5 barrier --nodes 2)
tandem_shmem_test(signal)
tandem_shmem_test(p2p)
# Notified access: matching, the unexpected queue, back-pressure, all forms; with threads;
# and with every intra-node nbi notified put held by the scheduler.
tandem_shmem_test(notify)
tandem_shmem_test(notify_threads NP 1 2 4)
tandem_shmem_test(notify_defer PROGRAM notify NP 2 4 ENV TANDEM_DEFER_THRESHOLD=1)
# Across nodes, notifications as messages instead of remote CQ data (the fallback).
foreach(program notify notify_threads)
  tandem_shmem_test(${program}_messages PROGRAM ${program} NP 2 4 ENV TANDEM_NOTIFY=messages LABELS internode)
endforeach()
# The collectives' stamps across nodes as ordered writes of their own instead of riding on
# the data's write (the fallback where writes carry no notification word).
tandem_shmem_test(collectives_messages PROGRAM collectives NP 2 4 ENV TANDEM_NOTIFY=messages LABELS internode)
# The nonblocking collectives: every routine and type against its blocking twin, several in
# flight on two teams, mixed with RMA and blocking collectives.
tandem_shmem_test(nbc)
# The same with no progress thread: the PEs' own calls (waits, tests) move the requests.
tandem_shmem_test(nbc_progress_thread_off PROGRAM nbc ENV TANDEM_PROGRESS_THREAD=off)
# Random batches of them on four teams that share PEs, each PE posting the teams' requests
# in an order of its own and completing them in another, with atomics and blocking
# collectives in between; every result checked.
tandem_shmem_test(nbc_random NP 1 2 3 4)
# `nbc late` (the last PE computes after posting until PE 0's request completes) with
# TANDEM_STATS=1, passing where the output matches `expected`; LAUNCH: the launch command
# before the program, ARGS: more of the program's arguments, LABELS: the test's labels,
# ALONE: it takes both of the 2 cores' CTest slots and runs with no other test (its waits
# count time without preemption).
function(tandem_nbc_late_test name expected)
  cmake_parse_arguments(T "ALONE" "" "LAUNCH;ARGS;LABELS" ${ARGN})
  add_test(${name} bash "${TANDEM_SHMEM_SRC}/expect_output.sh" "${expected}"
           -- ${T_LAUNCH} "${TANDEM_SHMEM_BIN}/nbc" late ${T_ARGS})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "TANDEM_STATS=1" LABELS "${T_LABELS}")
  if(T_ALONE)
    set_tests_properties(${name} PROPERTIES PROCESSORS 2 RUN_SERIAL TRUE)
  endif()
endfunction()
# On one node: PE 0's waits ring the last PE's bell, and its progress thread does its part, or
# the two wait for each other forever.
tandem_nbc_late_test(stats_nbc_rang_np2 "Tandem stats: PE 0: it rang peers' bells [1-9][0-9]* times"
                     LAUNCH "${OSHRUN}" -n 2 LABELS api)
tandem_nbc_late_test(stats_nbc_served_np2
                     "Tandem stats: PE 1: peers rang its bell [1-9][0-9]* times, and its progress thread resumed its requests [1-9]"
                     LAUNCH "${OSHRUN}" -n 2 LABELS api)
tandem_shmem_test(example_cg PROGRAM example_cg ARGS 32 60 1)
# The producer-consumer example of man 7 tandem_notify, compiled from the page.
tandem_shmem_test(notify_example)
# Every man page renders without warnings.
if(NOT TANDEM_MAN_PAGES STREQUAL "no")  # configure --disable-man-pages builds none
  add_test(man_pages bash "${TANDEM_SHMEM_SRC}/man_pages.sh" "${TANDEM_SRC}" "${TANDEM_BUILD}")
  set_tests_properties(man_pages PROPERTIES LABELS "docs" TIMEOUT 300)
endif()
# The library's exported data objects are the three fixed-size handles of shmem.h.
add_test(abi_objects bash "${TANDEM_SHMEM_SRC}/abi_objects.sh" "${TANDEM_BUILD}/src/.libs/libtandem.so")
set_tests_properties(abi_objects PROPERTIES LABELS "api" TIMEOUT 60)
# ... and its exported symbols are the OpenSHMEM names alone.
add_test(exports bash "${TANDEM_SHMEM_SRC}/exports.sh" "${TANDEM_BUILD}/src/.libs/libtandem.so")
set_tests_properties(exports PROPERTIES LABELS "api" TIMEOUT 60)
# The rooms of src/ include only the rooms below them (README.md, Layout).
add_test(floors bash "${TANDEM_SHMEM_SRC}/floors.sh" "${TANDEM_SRC}")
set_tests_properties(floors PROPERTIES LABELS "docs" TIMEOUT 60)
# Every test across virtual nodes (NAME_..._nodesN, N >= 2) is labelled internode.
add_test(labels bash "${TANDEM_SHMEM_SRC}/labels.sh" "${TANDEM_BUILD}/test")
set_tests_properties(labels PROPERTIES LABELS "docs" TIMEOUT 60)
# Jobs at scale (label "scale"): 128 PEs on one node, 64 and 128 on 4 virtual nodes each pass
# a barrier, an fcollect, reductions and an alltoall over every PE, within a bound on each
# PE's private memory (about 1 MB on one node; across nodes 5.6 MB at 64 PEs and 6.5 MB at
# 128, where the alltoall connects every pair; 89 MB across nodes when rxm's pools kept
# libfabric's sizes) and, across nodes, on its connections before the
# alltoall: 2 a node (measured: 3 or 4 with the launcher's; 117 at 128 PEs when collectives
# of more than 64 PEs pushed to every PE).
foreach(run "128;1;8;-1" "64;4;8;8" "128;4;8;8")
  list(GET run 0 np)
  list(GET run 1 nodes)
  list(GET run 2 mb)
  list(GET run 3 connections)
  set(test scale_np${np})
  set(launch -n ${np})
  set(labels scale)
  if(nodes GREATER 1)
    set(test ${test}_nodes${nodes})
    set(launch --nodes ${nodes} -n ${np})
    set(labels "scale;internode")
  endif()
  add_test(${test} "${OSHRUN}" ${launch} "${TANDEM_SHMEM_BIN}/scale_job" --max-private-mb ${mb}
           --max-connections ${connections})
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT 300 PROCESSORS ${np})
endforeach()
# rxm's pools across nodes: Tandem sizes them for its small messages and receives, and its
# completion queue for the job (FI_UNIVERSE_SIZE, 1024 by default), unless the user did (private memory
# measured: 4.6 MB); hwloc's plugins (Debian's: /usr/lib/<triplet>/hwloc/hwloc_gl.so and
# others, 1.5 MB resident) are unloaded once the progress thread has its core.
add_test(rxm_pools_np2_nodes2 "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/scale_job"
         --env FI_OFI_RXM_BUFFER_SIZE=512 --env FI_OFI_RXM_RX_SIZE=64 --env FI_UNIVERSE_SIZE=2
         --max-private-mb 8 --unmapped /hwloc/hwloc_)
add_test(rxm_pools_user_np2_nodes2 "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/scale_job"
         --env FI_OFI_RXM_BUFFER_SIZE=2048 --env FI_UNIVERSE_SIZE=4096)
set_tests_properties(rxm_pools_np2_nodes2 rxm_pools_user_np2_nodes2 PROPERTIES LABELS "api;internode" TIMEOUT 90
                     PROCESSORS 2)
set_tests_properties(rxm_pools_user_np2_nodes2 PROPERTIES ENVIRONMENT "FI_OFI_RXM_BUFFER_SIZE=2048;FI_UNIVERSE_SIZE=4096")
tandem_shmem_test(test_progress NP 2 4)
# Spinning on signal_fetch, a wait that already holds, test, test_any or a fetching atomic
# must let the blocking writes to this PE complete (manual-progress providers).
tandem_shmem_test(poll_progress)
# The same with no progress thread: nothing but these calls moves the network.
tandem_shmem_test(poll_progress_thread_off PROGRAM poll_progress ENV TANDEM_PROGRESS_THREAD=off)
# A PE that spins on its memory without calling the library, with the default settings:
# peers' puts, gets, fetching atomics and quiet on it must complete meanwhile.
tandem_shmem_test(spin_target)
# TANDEM_NET_TIMEOUT: a PE stopped by SIGSTOP ends the job, well within the time limit, with
# one line naming the waiting call and the stopped PE; a peer that is slow but answers (every
# 100 ms) is not taken for a dead one, nor one that computes for longer than the timeout.
# The link-down case is in test/netns.
foreach(provider tcp sockets)
  add_test(net_timeout_stop_${provider} bash "${TANDEM_SHMEM_SRC}/expect_failure.sh" 1
           "tandem: shmem_(long_put|quiet) on PE 0: PE 1 is unreachable: no network operation has completed for [0-9]+ s" --
           "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/net_timeout" stop)
  set(env TANDEM_NET_TIMEOUT=3 TANDEM_TEST_TIME_LIMIT=20)
  if(provider STREQUAL "sockets")
    list(APPEND env TANDEM_OFI_PROVIDER=sockets)
  endif()
  set_tests_properties(net_timeout_stop_${provider} PROPERTIES LABELS "api;internode;negative" TIMEOUT 60
                       ENVIRONMENT "${env}")
endforeach()
# A memory wait with a put to the stopped PE outstanding: its message names the wait.
add_test(net_timeout_wait_np2_nodes2 bash "${TANDEM_SHMEM_SRC}/expect_failure.sh" 1
         "tandem: shmem_long_wait_until on PE 0: PE 1 is unreachable: no network operation has completed for [0-9]+ s" --
         "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/net_timeout" wait)
set_tests_properties(net_timeout_wait_np2_nodes2 PROPERTIES LABELS "api;internode;negative" TIMEOUT 60
                     ENVIRONMENT "TANDEM_NET_TIMEOUT=3;TANDEM_TEST_TIME_LIMIT=20")
# 3 PEs: PE 0 puts to PEs 1 and 2, PE 2 stops; PE 1 answers the probe, so PE 2 is named.
add_test(net_timeout_stop_np3_nodes3 bash "${TANDEM_SHMEM_SRC}/expect_failure.sh" 1
         "tandem: shmem_(long_put|quiet) on PE 0: PE 2 is unreachable: no network operation has completed for [0-9]+ s" --
         "${OSHRUN}" --nodes 3 -n 3 "${TANDEM_SHMEM_BIN}/net_timeout" stop)
set_tests_properties(net_timeout_stop_np3_nodes3 PROPERTIES LABELS "api;internode;negative" TIMEOUT 60
                     ENVIRONMENT "TANDEM_NET_TIMEOUT=3;TANDEM_TEST_TIME_LIMIT=20")
set(T_ARGS slow)
set(T_ENV TANDEM_NET_TIMEOUT=2)
tandem_shmem_run(net_timeout_slow_np2_nodes2 "api;internode" 2 net_timeout --nodes 2)
# A PE that waits for a lock and in a barrier longer than the timeout, for a peer that
# computes meanwhile, is not taken for one that waits on a dead peer.
set(T_ARGS compute)
tandem_shmem_run(net_timeout_compute_np2_nodes2 "api;internode" 2 net_timeout --nodes 2)
tandem_shmem_run_on(sockets net_timeout_compute_np2_nodes2 "api;internode" 2 net_timeout --nodes 2)
unset(T_ARGS)
unset(T_ENV)
tandem_shmem_test(atomics)
tandem_shmem_test(atomic_sum)
# 80,000 network atomics on 4 PEs that share 2 cores: alone, and with time to spare.  On
# sockets they take the longest (13 s alone, over 90 s beside another 4-PE test).
set_tests_properties(atomic_sum_np4_nodes2 atomic_sum_np4_nodes4 atomic_sum_np4_nodes2_sockets
                     PROPERTIES RUN_SERIAL TRUE TIMEOUT 240)
tandem_shmem_test(lock)
# Teams and collectives, also on 3 PEs (a team size that is not a power of two).
tandem_shmem_test(teams NP 1 2 3 4)
tandem_shmem_test(collectives NP 1 2 3 4)
# Eight PEs across nodes: three rounds of the recursive doubling that small reductions and
# fcollects take there.
tandem_shmem_run(collectives_np8_nodes8 "api;internode" 8 collectives --nodes 8)
tandem_shmem_run(collectives_np8_nodes2 "api;internode" 8 collectives --nodes 2)
# Small reductions and fcollects gather by node where a node holds more than one PE: a node
# whose leader is alone (3 PEs), and 3 PEs a node (6), where the gather once went to every PE.
tandem_shmem_run(collectives_np3_nodes2 "api;internode" 3 collectives --nodes 2)
tandem_shmem_run(collectives_np6_nodes2 "api;internode" 6 collectives --nodes 2)
tandem_shmem_run(teams_np3_nodes2 "api;internode" 3 teams --nodes 2)
tandem_shmem_test(collectives_legacy NP 1 2 3 4)
# Window epochs under each issue strategy (adaptive by default); hybrid also with a queue of
# one (a target is opened by its first operation).
tandem_shmem_test(epochs NP 1 2 3 4)
foreach(strategy lazy eager hybrid)
  tandem_shmem_test(epochs_${strategy} PROGRAM epochs NP 2 4 ENV TANDEM_EPOCH_STRATEGY=${strategy})
endforeach()
tandem_shmem_test(epochs_queue1 PROGRAM epochs NP 2 4 ENV TANDEM_EPOCH_STRATEGY=hybrid TANDEM_EPOCH_QUEUE=1)
# Every copy to a node peer held until the epoch's end, under each strategy.
foreach(strategy lazy eager hybrid adaptive)
  tandem_shmem_test(epochs_${strategy}_defer PROGRAM epochs NP 4 ENV TANDEM_EPOCH_STRATEGY=${strategy}
                    TANDEM_DEFER_THRESHOLD=1 LAUNCH_ARGS --nodes 2 ONE_NODE)
endforeach()
# An exclusive lock asked for during a stream of overlapping shared holders is granted; eager,
# so that shmemx_win_lock takes the lock on the call.
tandem_shmem_test(epochs_lock_fair NP 3 4 ENV TANDEM_EPOCH_STRATEGY=eager)
# More live teams and windows than the old fixed tables held (64, 32), up to the settings'
# limits (TANDEM_TEAMS, TANDEM_WINDOWS); at a limit the creation fails on every PE and one PE
# says why in one line.
foreach(kind teams windows)
  tandem_shmem_test(limits_${kind} PROGRAM limits ARGS ${kind})
endforeach()
set(limit_message "the call returns non-zero on every PE")
foreach(nodes 1 2)
  set(labels "api;negative")
  if(nodes GREATER 1)
    list(APPEND labels internode)
  endif()
  add_test(limits_teams_message_np4_nodes${nodes} bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
           "tandem: warning: shmem_team_split_strided on PE 0: this PE holds 16 of the 16 live teams that TANDEM_TEAMS allows: ${limit_message}"
           -- "${OSHRUN}" --nodes ${nodes} -n 4 "${TANDEM_SHMEM_BIN}/limits" teams)
  set_tests_properties(limits_teams_message_np4_nodes${nodes} PROPERTIES LABELS "${labels}" TIMEOUT 90
                       ENVIRONMENT "TANDEM_TEAMS=16")
  add_test(limits_windows_message_np4_nodes${nodes} bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
           "tandem: warning: shmemx_win_create on PE 0: this PE holds 8 of the 8 live windows that TANDEM_WINDOWS allows: ${limit_message}"
           -- "${OSHRUN}" --nodes ${nodes} -n 4 "${TANDEM_SHMEM_BIN}/limits" windows)
  set_tests_properties(limits_windows_message_np4_nodes${nodes} PROPERTIES LABELS "${labels}" TIMEOUT 90
                       ENVIRONMENT "TANDEM_WINDOWS=8")
endforeach()
# Each of 2 PEs has a slot free, not the same one.
add_test(limits_fragmented_np2 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "tandem: warning: shmem_team_split_strided on PE 0: no slot is free on every PE of the team, though none holds the 4 live teams that TANDEM_TEAMS allows: ${limit_message}"
         -- "${OSHRUN}" -n 2 "${TANDEM_SHMEM_BIN}/limits" fragmented)
set_tests_properties(limits_fragmented_np2 PROPERTIES LABELS "api;negative" TIMEOUT 90 ENVIRONMENT "TANDEM_TEAMS=4")
# The halo exchange of man 7 tandem_epochs, compiled from the page.
tandem_shmem_test(epochs_example NP 1 2 3 4)
tandem_shmem_test(thread_multiple)
tandem_shmem_test(generic_c11)
tandem_shmem_test(generic_cxx)
# The same with shmem.h and shmemx.h included inside extern "C" { }.
tandem_shmem_test(generic_cxx_extern_c NP 2 ONE_NODE)
# tools/shmem4py.h, the header shmem4py builds with, claims only what the library has.
tandem_shmem_test(shmem4py_config NP 1 ONE_NODE)
# Every generic name against every row of the specification's tables, in C11 and C++.
tandem_shmem_test(generic_tables NP 1 2)
tandem_shmem_test(generic_tables_cxx NP 1 2)
# The inter-node engine's modes and the progress thread.
include("${TANDEM_SHMEM_SRC}/network.cmake")

# SHMEM_DEBUG=1 adds bounds checks on every access: correct programs must not trip them.
foreach(program rma_sized globals signal atomics p2p edge_cases memory)
  tandem_shmem_test(${program}_debug PROGRAM ${program} NP 2 ENV SHMEM_DEBUG=1 ONE_NODE)
endforeach()
# Transfers that fill a global exactly, to it and from it, pass the globals' bounds check
# in every placement.
tandem_shmem_test(globals_debug_exact PROGRAM negative ARGS global_exact ENV SHMEM_DEBUG=1)

# One bad call each: the job must end with status 1 and a message naming the call, the PE
# and the argument.
set(addr "0x[0-9a-f]+")
tandem_shmem_failure(bad_pe_out_of_range pe_out_of_range 1
  "shmem_int_put on PE @PE@: pe = 7 is out of range")
tandem_shmem_failure(bad_negative_pe negative_pe 1
  "shmem_long_atomic_fetch_add on PE @PE@: pe = -1 is out of range")
tandem_shmem_failure(bad_stack_dest stack_dest 1
  "shmem_int_put on PE @PE@: dest = ${addr} is not a symmetric address")
tandem_shmem_failure(bad_malloc_dest malloc_dest 1
  "shmem_long_put on PE @PE@: dest = ${addr} is not a symmetric address")
tandem_shmem_failure(bad_heap_overrun heap_overrun 1
  "shmem_putmem on PE @PE@: dest = ${addr} with 4194304 bytes runs [0-9]+ bytes past the end of the symmetric heap"
  ENV SHMEM_SYMMETRIC_SIZE=1M)
tandem_shmem_failure(bad_object_end object_end 1
  "shmem_putmem on PE @PE@: dest = ${addr} with 4194304 bytes runs [0-9]+ bytes past the end of the symmetric heap"
  ENV SHMEM_SYMMETRIC_SIZE=1M)
tandem_shmem_failure(bad_before_init before_init 1
  "shmem_int_put on a PE not yet initiali[sz]ed \\(pid [0-9]+\\): called before shmem_init")
tandem_shmem_failure(bad_null_dest null_dest 1
  "shmem_int_put on PE @PE@: dest is NULL with a transfer of 16 bytes")
tandem_shmem_failure(bad_null_source null_source 1
  "shmem_getmem on PE @PE@: source is NULL with a transfer of 16 bytes")
tandem_shmem_failure(bad_cmp bad_cmp 1
  "shmem_int_wait_until on PE @PE@: cmp = 42 is not a comparison")
tandem_shmem_failure(bad_test_cmp bad_test_cmp 1
  "shmem_long_test_any on PE @PE@: cmp = -3 is not a comparison")
tandem_shmem_failure(bad_sig_op bad_sig_op 1
  "shmem_putmem_signal on PE @PE@: sig_op = 5 is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD")
tandem_shmem_failure(bad_notify_tag notify_tag 1
  "shmemx_putmem_notify on PE @PE@: tag = -3 is negative")
tandem_shmem_failure(bad_notify_pe notify_pe 1
  "shmemx_long_get_notify_nbi on PE @PE@: pe = 9 is out of range")
tandem_shmem_failure(bad_debug_overrun debug_overrun 1
  "shmem_putmem on PE @PE@: dest = ${addr} with 4096 bytes runs past the end of its [0-9]+-byte object"
  ENV SHMEM_DEBUG=1)
# The same for globals: their extents come from the executable's symbol table.
tandem_shmem_failure(bad_global_put_overrun global_put_overrun 1
  "shmem_long_put on PE @PE@: dest = ${addr} with 64 bytes runs past the end of its 32-byte object \\(the global bounded\\)"
  ENV SHMEM_DEBUG=1)
tandem_shmem_failure(bad_global_get_overrun global_get_overrun 1
  "shmem_long_get on PE @PE@: source = ${addr} with 64 bytes runs past the end of its 32-byte object \\(the global bounded\\)"
  ENV SHMEM_DEBUG=1)
tandem_shmem_failure(bad_invalid_ctx invalid_ctx 1
  "shmem_ctx_int_put on PE @PE@: ctx = SHMEM_CTX_INVALID")
tandem_shmem_failure(bad_invalid_team invalid_team 1
  "shmem_int_sum_reduce on PE @PE@: team = SHMEM_TEAM_INVALID")
tandem_shmem_failure(bad_destroyed_ctx destroyed_ctx 1
  "shmem_ctx_long_put on PE @PE@: ctx = ${addr} is not a context: destroyed, or never made by shmem_ctx_create")
tandem_shmem_failure(bad_garbage_ctx garbage_ctx 1
  "shmem_ctx_long_put on PE @PE@: ctx = ${addr} is not a context")
tandem_shmem_failure(bad_destroyed_team destroyed_team 1
  "shmem_team_translate_pe on PE @PE@: src_team = ${addr} is not a team: destroyed, or never made by a split")
tandem_shmem_failure(bad_garbage_team garbage_team 1
  "shmem_team_sync on PE @PE@: team = ${addr} is not a team")
tandem_shmem_failure(bad_root bad_root 1
  "shmem_long_broadcast on PE @PE@: PE_root = 99 is out of range")
# The nonblocking collectives' requests and arguments.
tandem_shmem_failure(bad_req_twice req_twice 1
  "shmemx_req_wait on PE @PE@: req = ${addr} is no request in flight: completed already")
tandem_shmem_failure(bad_req_garbage req_garbage 1
  "shmemx_req_test on PE @PE@: req = ${addr} is no request in flight")
tandem_shmem_failure(bad_req_null req_null 1
  "shmemx_long_sum_reduce_nbi on PE @PE@: req = NULL")
tandem_shmem_failure(bad_nbi_destroyed_team nbi_destroyed_team 1
  "shmemx_team_sync_nbi on PE @PE@: team = ${addr} is not a team: destroyed")
tandem_shmem_failure(bad_nbi_overlap nbi_overlap 1
  "shmemx_long_fcollect_nbi on PE @PE@: dest overlaps the dest of a shmemx_long_broadcast_nbi still in flight"
  NP 2 4 ENV SHMEM_DEBUG=1)
tandem_shmem_failure(bad_active_set bad_active_set 1
  "shmem_barrier on PE @PE@: PE_size = 0 is not a positive number of PEs")
tandem_shmem_failure(bad_team_ctx_pe team_ctx_pe 1
  "shmem_ctx_long_p on PE @PE@: pe = 64 is out of range for the context's team")
tandem_shmem_failure(bad_win_no_epoch win_no_epoch 1
  "shmemx_win_long_put on PE @PE@: no epoch is open towards pe = 0")
tandem_shmem_failure(bad_win_outside win_outside 1
  "shmemx_win_putmem on PE @PE@: dest = ${addr} \\(16 bytes\\) is not inside the window")
tandem_shmem_failure(bad_win_unlock win_unlock 1
  "shmemx_win_unlock on PE @PE@: pe = 0 is not locked by this PE")
tandem_shmem_failure(bad_win_lock_type win_lock_type 1
  "shmemx_win_lock on PE @PE@: lock_type = 7 is neither SHMEMX_WIN_LOCK_EXCLUSIVE nor SHMEMX_WIN_LOCK_SHARED")
tandem_shmem_failure(bad_win_group win_group 1
  "shmemx_win_start on PE @PE@: pes\\[1\\] = 0 appears twice")
tandem_shmem_failure(bad_win_acc_op win_acc_op 1
  "shmemx_win_long_accumulate on PE @PE@: op = 9 is not an accumulate operation")
tandem_shmem_failure(bad_win_acc_real win_acc_real 1
  "shmemx_win_double_accumulate on PE @PE@: op = 2: a bitwise operation on a floating-point window element")
tandem_shmem_failure(bad_win_acc_align win_acc_align 1
  "shmemx_win_long_accumulate on PE @PE@: dest = ${addr} is not aligned to its 8-byte elements")
tandem_shmem_failure(bad_free bad_free 1
  "shmem_free on PE @PE@: ptr = ${addr} was not returned by shmem_malloc")
tandem_shmem_failure(bad_thread_level bad_thread_level 1
  "shmem_init_thread on a PE not yet initiali[sz]ed \\(pid [0-9]+\\): requested = 7 is not a thread level")
# shmem_global_exit(3) on the last PE: the job's status is 3.
tandem_shmem_failure(global_exit global_exit 3 "")
# The last PE crashes (SIGSEGV) while the others wait in a barrier: it dies of the signal
# and the job ends at once with 128 + 11.
tandem_shmem_failure(crash crash 139 "PE @PE@ \\(pid [0-9]+\\) was killed by signal 11")
# The last PE writes through the null pointer that shmem_malloc(0) gave it: it dies of the
# signal, and its message names the zero-size allocation and the address.
tandem_shmem_failure(zero_size_write zero_size_write 139
  "shmem_malloc on PE @PE@: returned a null pointer for a zero size.*at 0x4$")
# The driver itself must fail when the program does not: a control that is expected to fail.
tandem_shmem_failure(expect_failure_control none 1 "" NP 2)
set_tests_properties(expect_failure_control_np2 PROPERTIES WILL_FAIL TRUE)

# The launcher brings a job down when a PE is killed, and leaves nothing in /dev/shm.
add_test(kill_cleanup bash "${TANDEM_SHMEM_SRC}/kill_cleanup.sh" "${OSHRUN}"
         "${TANDEM_SHMEM_BIN}/kill_target")
set_tests_properties(kill_cleanup PROPERTIES LABELS "api" TIMEOUT 60)
# The same with the heaps and globals in files of /dev/shm: the launcher removes a killed
# PE's files, and the next job's start sweeps those of a job killed whole.
add_test(kill_cleanup_files bash "${TANDEM_SHMEM_SRC}/kill_cleanup.sh" "${OSHRUN}"
         "${TANDEM_SHMEM_BIN}/kill_target")
set_tests_properties(kill_cleanup_files PROPERTIES LABELS "api" TIMEOUT 60 ENVIRONMENT "TANDEM_SHARED_MEMORY=dev-shm")
# The same with the PEs on 2 virtual nodes (PEs 0,1 and 2,3): the killed PE's peers on
# the other node share no memory with it.
add_test(kill_cleanup_nodes2 bash "${TANDEM_SHMEM_SRC}/kill_cleanup.sh" "${OSHRUN}"
         "${TANDEM_SHMEM_BIN}/kill_target" --nodes 2)
set_tests_properties(kill_cleanup_nodes2 PROPERTIES LABELS "internode" TIMEOUT 60)

# Open MPI's mpirun launches Tandem PEs too.
if(TANDEM_MPIRUN)
  add_test(mpirun_launch bash "${TANDEM_SHMEM_SRC}/mpirun_launch.sh" "${TANDEM_MPIRUN}"
           "${TANDEM_SHMEM_BIN}/ranks")
  set_tests_properties(mpirun_launch PROPERTIES LABELS "api" TIMEOUT 60)
  # The same across 2 virtual nodes: under an external launcher TANDEM_VIRTUAL_NODES does
  # what oshrun --nodes does.
  add_test(mpirun_launch_nodes2 bash "${TANDEM_SHMEM_SRC}/mpirun_launch.sh" "${TANDEM_MPIRUN}"
           "${TANDEM_SHMEM_BIN}/ranks")
  set_tests_properties(mpirun_launch_nodes2 PROPERTIES LABELS "api;internode" TIMEOUT 60
                       ENVIRONMENT "TANDEM_VIRTUAL_NODES=2")
endif()

# The rules that RDMA NICs impose (TANDEM_OFI_REQUIRE, man 7 tandem, PROVIDERS), followed on
# tcp;ofi_rxm, which imposes none (named as tcp, which libfabric serves as tcp;ofi_rxm, so that
# a provider set for the whole suite leaves these runs alone): provider contexts and
# descriptors for every local buffer, both checked as they are followed (label "rules"); no
# use of the write order; no FI_ATOMIC.
# Then other providers on 2 nodes of 1 and 2 PEs: shm (offset keys, no wait object on its
# queues, signal handlers of its own, no empty delivery-complete write) and tcp;ofi_rxm under
# libfabric's debug hook.  Every internode run on one of them: TANDEM_OFI_PROVIDER=shm ctest
# -L internode -LE 'sockets|net', and likewise FI_HOOK=debug or TANDEM_OFI_REQUIRE=...
set(rules_programs rma_types rma_sized strided_spans atomics signal order collectives notify epochs coalesce thread_multiple)
foreach(rules "mr_local,context" unordered no_atomics)
  string(REPLACE "," "_" tag "${rules}")
  set(T_ENV TANDEM_OFI_REQUIRE=${rules} TANDEM_OFI_PROVIDER=tcp)
  foreach(program IN LISTS rules_programs)
    tandem_shmem_run(${program}_${tag}_np4_nodes2 "api;internode;rules" 4 ${program} --nodes 2)
  endforeach()
endforeach()
# Private buffers of every size registered for their operation, none through bounce buffers.
set(T_ENV TANDEM_OFI_REQUIRE=mr_local TANDEM_OFI_BOUNCE=64 TANDEM_OFI_PROVIDER=tcp)
tandem_shmem_run(rma_types_mr_local_bounce64_np4_nodes2 "api;internode;rules" 4 rma_types --nodes 2)
unset(T_ENV)
foreach(program rma_types strided_spans atomics signal order collectives notify)
  foreach(np 2 4)
    tandem_shmem_run_on(shm ${program}_np${np}_nodes2 "api;internode" ${np} ${program} --nodes 2)
  endforeach()
endforeach()
# Software atomics' answers come back as messages where the provider does not talk through
# kernel sockets (written into the initiator's answer slots where it does): shm with every
# atomic in software.
set(T_ENV TANDEM_OFI_REQUIRE=no_atomics)
foreach(program atomics signal)
  tandem_shmem_run_on(shm ${program}_no_atomics_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
endforeach()
set(T_ENV FI_HOOK=debug TANDEM_OFI_PROVIDER=tcp)
foreach(program rma_types atomics signal collectives)
  tandem_shmem_run(${program}_hook_debug_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
endforeach()
unset(T_ENV)

# A TANDEM_* variable that is no setting (here a typo) gets one line from PE 0 naming the
# closest setting; a rule of TANDEM_OFI_REQUIRE that does not exist ends the job naming it.
add_test(unknown_setting_np2 bash "${TANDEM_SHMEM_SRC}/expect_output.sh"
         "tandem: warning: shmem_init on PE 0: TANDEM_PROGRES_THREAD is not a Tandem setting and is ignored; the closest one is TANDEM_PROGRESS_THREAD"
         -- "${OSHRUN}" -n 2 "${TANDEM_SHMEM_BIN}/ranks")
set_tests_properties(unknown_setting_np2 PROPERTIES LABELS "api" TIMEOUT 60 ENVIRONMENT "TANDEM_PROGRES_THREAD=on")
add_test(bad_ofi_require_np2 bash "${TANDEM_SHMEM_SRC}/expect_failure.sh" 1
         "bad environment: TANDEM_OFI_REQUIRE=\"context,mr_locals\" names \"mr_locals\", not one of context, mr_local, unordered, no_atomics"
         -- "${OSHRUN}" --nodes 2 -n 2 "${TANDEM_SHMEM_BIN}/ranks")
set_tests_properties(bad_ofi_require_np2 PROPERTIES LABELS "api;negative" TIMEOUT 60
                     ENVIRONMENT "TANDEM_OFI_REQUIRE=context,mr_locals")

# libfabric's net provider (TANDEM_OFI_PROVIDER=net) reports completions, without a
# context, of the writes posted without FI_COMPLETION; every PE took the first for one of
# its own and crashed in shmem_init.  Its paths once, on 2 nodes of 2 PEs.
foreach(program rma_types atomics signal collectives notify)
  tandem_shmem_run_on(net ${program}_np4_nodes2 "api;internode" 4 ${program} --nodes 2)
endforeach()
