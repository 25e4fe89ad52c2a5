# Hostile conditions: what clusters and containers impose on a job.
# A 64 MB /dev/shm, as in a container (needs root and unshare; skipped otherwise).
add_test(hostile_small_shm bash "${TANDEM_SRC}/test/hostile/small_shm.sh")
set_tests_properties(hostile_small_shm PROPERTIES LABELS "hostile;internode" TIMEOUT 120 PROCESSORS 2
                     SKIP_RETURN_CODE 77 ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD}")
# PEs of one node in different PID namespaces: memfds refused with the setting named, files
# in /dev/shm work (needs root and unshare; skipped otherwise).
add_test(hostile_pid_namespace bash "${TANDEM_SRC}/test/hostile/pid_namespace.sh")
set_tests_properties(hostile_pid_namespace PROPERTIES LABELS "hostile" TIMEOUT 60 PROCESSORS 2
                     SKIP_RETURN_CODE 77 ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD}")
# A TCP connection between the PEs of two nodes reset mid-job: the job ends at once with
# the line naming both PEs, the operation and the cause (needs root and ss -K).
add_test(hostile_connection_reset bash "${TANDEM_SRC}/test/hostile/connection_reset.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/net_timeout")
set_tests_properties(hostile_connection_reset PROPERTIES LABELS "hostile;internode" TIMEOUT 60 PROCESSORS 2
                     SKIP_RETURN_CODE 77)
# A stranger that reaches the PEs' endpoints: its messages are dropped, its writes with
# guessed keys fail, the job's results stay right.  tcp;ofi_rxm with a sample of keys (each
# try there costs some 10 ms), sockets with every key from 0 to 4096.
add_test(hostile_stranger_tcp bash "${TANDEM_SRC}/test/hostile/stranger.sh" tcp+ofi_rxm sample)
add_test(hostile_stranger_sockets bash "${TANDEM_SRC}/test/hostile/stranger.sh" sockets all)
set_tests_properties(hostile_stranger_tcp hostile_stranger_sockets PROPERTIES LABELS "hostile;internode" TIMEOUT 300
                     PROCESSORS 2 SKIP_RETURN_CODE 77 ENVIRONMENT "TANDEM_BUILD=${TANDEM_BUILD}")
