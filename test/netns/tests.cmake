# Virtual nodes in separate network namespaces (needs root; skipped otherwise).
add_test(netns_virtual_nodes bash "${TANDEM_SRC}/test/netns/netns_run.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/rma_types" "${TANDEM_BUILD}/test/shmem/signal"
         "${TANDEM_BUILD}/test/shmem/lock")
set_tests_properties(netns_virtual_nodes PROPERTIES LABELS "netns;internode" TIMEOUT 300 SKIP_RETURN_CODE 77)
# A link taken down mid-run ends the job with a message naming the unreachable PE.
add_test(netns_link_down bash "${TANDEM_SRC}/test/netns/link_down.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/net_timeout")
set_tests_properties(netns_link_down PROPERTIES LABELS "netns;internode" TIMEOUT 120 SKIP_RETURN_CODE 77)
# A link that flaps for 0.5 s under puts, atomics and collectives: the job goes on and its
# checks pass; one that stays down past TANDEM_NET_TIMEOUT ends it with the named error.
foreach(mode short long)
  add_test(netns_link_flap_${mode} bash "${TANDEM_SRC}/test/netns/link_flap.sh" ${mode} "${OSHRUN}"
           "${TANDEM_BUILD}/test/shmem/flap_traffic")
  set_tests_properties(netns_link_flap_${mode} PROPERTIES LABELS "netns;internode;hostile" TIMEOUT 120
                       PROCESSORS 2 SKIP_RETURN_CODE 77)
endforeach()
