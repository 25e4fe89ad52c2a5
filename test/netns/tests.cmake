# Virtual nodes in separate network namespaces (needs root; skipped otherwise).
add_test(netns_virtual_nodes bash "${TANDEM_SRC}/test/netns/netns_run.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/rma_types" "${TANDEM_BUILD}/test/shmem/signal"
         "${TANDEM_BUILD}/test/shmem/lock")
set_tests_properties(netns_virtual_nodes PROPERTIES LABELS "netns;internode" TIMEOUT 300 SKIP_RETURN_CODE 77)
# A link taken down mid-run ends the job with a message naming the unreachable PE: under a
# PE that puts, and under collectives that wait with nothing outstanding.
add_test(netns_link_down bash "${TANDEM_SRC}/test/netns/link_down.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/net_timeout")
set_tests_properties(netns_link_down PROPERTIES LABELS "netns;internode" TIMEOUT 120 SKIP_RETURN_CODE 77)
add_test(netns_link_down_collectives bash "${TANDEM_SRC}/test/netns/link_down.sh" "${OSHRUN}"
         "${TANDEM_BUILD}/test/shmem/flap_traffic")
set_tests_properties(netns_link_down_collectives PROPERTIES LABELS "netns;internode;hostile" TIMEOUT 120
                     PROCESSORS 2 SKIP_RETURN_CODE 77)
# A link that flaps for 0.5 s, and for 2 s, under puts, atomics and collectives: the job goes
# on and its checks pass.
foreach(down 0.5 2)
  string(REPLACE "." "_" name "${down}")
  add_test(netns_link_flap_${name}s bash "${TANDEM_SRC}/test/netns/link_flap.sh" ${down} "${OSHRUN}"
           "${TANDEM_BUILD}/test/shmem/flap_traffic")
  set_tests_properties(netns_link_flap_${name}s PROPERTIES LABELS "netns;internode;hostile" TIMEOUT 120
                       PROCESSORS 2 SKIP_RETURN_CODE 77)
endforeach()
