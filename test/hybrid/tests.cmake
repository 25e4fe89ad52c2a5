# Programs that use MPI and OpenSHMEM together (hybrid.sh), under oshrun and Open MPI's
# mpirun, on one node and on 2 virtual nodes, in both orders of MPI_Init and shmem_init; and
# the line shmem_init stops with when an MPI initialised before it runs as a singleton.
# Skipped (77) without Open MPI's mpicc and headers (Debian: libopenmpi-dev).
set(hybrid_env "TANDEM_BUILD=${TANDEM_BUILD};TANDEM_SRC=${TANDEM_SRC};OSHRUN=${OSHRUN};MPICC=${TANDEM_MPICC};MPIRUN=${TANDEM_MPIRUN}")
foreach(run "oshrun;1" "oshrun;2" "mpirun;1" "mpirun;2" "guard;1")
  list(GET run 0 launcher)
  list(GET run 1 nodes)
  set(name hybrid_${launcher})
  set(labels "hybrid")
  if(nodes GREATER 1)
    set(name ${name}_nodes${nodes})
    set(labels "internode;hybrid")
  endif()
  if(launcher STREQUAL "mpirun" AND NOT TANDEM_MPIRUN)
    continue()
  endif()
  add_test(${name} bash "${TANDEM_SRC}/test/hybrid/hybrid.sh" ${launcher} ${nodes})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 150 PROCESSORS 4
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${hybrid_env}")
endforeach()
