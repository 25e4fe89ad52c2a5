# oshrun's behaviour, one bash script per concern, each driving the launcher on small
# programs (shell commands and the PMIx client built as test/launcher/pmix_client).
# Included by the build tree's CTestTestfile.cmake, which sets TANDEM_BUILD and TANDEM_SRC.
set(TANDEM_LAUNCHER_TESTS
  exit_status     # 0 / first failure's status; a failed PE ends the job
  signal_death    # 128+signal, teardown within 5 s, SIGKILL for PEs ignoring SIGTERM
  output          # forwarding, whole lines, --tag-output
  stdin           # stdin to PE 0 only
  environment     # -x VAR / -x VAR=value, TANDEM_LAUNCHER
  timeout         # --timeout gives 124
  terminate       # SIGTERM/SIGINT/SIGHUP to oshrun; nothing left running
  virtual_nodes   # --nodes K sets TANDEM_VIRTUAL_NODES
  pmix_rank       # rank, size, locality and abort through PMIx
  shm_cleanup     # /dev/shm/tandem-<pid>-* removed
  usage           # options, errors, exit status 127, temporary directory removed
  wrappers)       # oshcc --showme:compile / --showme:link build a program that runs
foreach(test IN LISTS TANDEM_LAUNCHER_TESTS)
  add_test(launcher_${test} bash "${TANDEM_SRC}/test/launcher/${test}.sh")
  set_tests_properties(launcher_${test} PROPERTIES
    LABELS "launcher"
    TIMEOUT 60
    ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD};TANDEM_SRC=${TANDEM_SRC};OSHRUN=${TANDEM_BUILD}/tools/oshrun/oshrun;PMIX_CLIENT=${TANDEM_BUILD}/test/launcher/pmix_client")
endforeach()
# Slurm's srun --mpi=pmix launches Tandem PEs (a private one-machine Slurm; skipped where
# Slurm's daemons are not installed or this is not root).
add_test(launcher_slurm bash "${TANDEM_SRC}/test/launcher/slurm.sh")
set_tests_properties(launcher_slurm PROPERTIES
  LABELS "launcher;slurm"
  TIMEOUT 300
  SKIP_RETURN_CODE 77
  ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD};TANDEM_SRC=${TANDEM_SRC};OSHRUN=${TANDEM_BUILD}/tools/oshrun/oshrun;MPICC=${TANDEM_MPICC}")
# srun --mpi=pmix across 2 and 4 hosts of a private Slurm, each host a slurmd in network,
# UTS and mount namespaces of its own (needs root, Slurm's daemons and iproute2; skipped
# otherwise).
foreach(hosts 2 4)
  add_test(launcher_slurm_nodes${hosts} bash "${TANDEM_SRC}/test/launcher/slurm_hosts.sh" ${hosts})
  set_tests_properties(launcher_slurm_nodes${hosts} PROPERTIES
    LABELS "launcher;slurm;netns;internode"
    TIMEOUT 300
    PROCESSORS 2
    SKIP_RETURN_CODE 77
    ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD};TANDEM_SRC=${TANDEM_SRC};OSHRUN=${TANDEM_BUILD}/tools/oshrun/oshrun;MPICC=${TANDEM_MPICC}")
endforeach()
# Open MPI's mpirun across 2 hosts made the same way, its remote shell a script that enters
# a host's namespaces (needs root, mpirun and iproute2; skipped otherwise).
if(TANDEM_MPIRUN)
  add_test(launcher_mpirun_hosts bash "${TANDEM_SRC}/test/launcher/mpirun_hosts.sh")
  set_tests_properties(launcher_mpirun_hosts PROPERTIES
    LABELS "launcher;netns;internode"
    TIMEOUT 300
    PROCESSORS 2
    SKIP_RETURN_CODE 77
    ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD};TANDEM_SRC=${TANDEM_SRC};OSHRUN=${TANDEM_BUILD}/tools/oshrun/oshrun;MPIRUN=${TANDEM_MPIRUN};MPICC=${TANDEM_MPICC}")
endif()
