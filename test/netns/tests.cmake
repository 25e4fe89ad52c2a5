# Virtual nodes in separate network namespaces (needs root; skipped otherwise).
add_test(netns_virtual_nodes bash "${TANDEM_SRC}/test/netns/netns_run.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/rma_types" "${TANDEM_BUILD}/test/shmem/signal"
         "${TANDEM_BUILD}/test/shmem/lock")
set_tests_properties(netns_virtual_nodes PROPERTIES LABELS "netns;internode" TIMEOUT 300 SKIP_RETURN_CODE 77)
