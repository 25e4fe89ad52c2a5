# The providers Tandem uses here, checked with libfabric alone (test/fabric/provider_check.c),
# label "fabric".  shm's empty delivery-complete write never completes (Tandem writes a byte
# instead), so that case is left out for it; udp;ofi_rxd and ofi_mrail, which Tandem refuses,
# fail cases of their own (man 7 tandem, PROVIDERS).
# net's wait object never rests before libfabric 1.20 (Tandem's progress thread sleeps on
# its sockets instead: src/transport/ofi/socket_watch.h), so wait-rests is left out for it.
set(check "${TANDEM_BUILD}/test/fabric/provider_check")
foreach(provider "tcp;ofi_rxm" sockets)
  string(REPLACE ";" "_" name "provider_check_${provider}")
  add_test(${name} "${check}" "${provider}")
  set_tests_properties(${name} PROPERTIES LABELS "fabric" TIMEOUT 120)
endforeach()
add_test(provider_check_net "${check}" net empty-write fetch-read fetch-add inject-stream message write-read)
set_tests_properties(provider_check_net PROPERTIES LABELS "fabric" TIMEOUT 120)
add_test(provider_check_shm "${check}" shm fetch-read fetch-add inject-stream message)
set_tests_properties(provider_check_shm PROPERTIES LABELS "fabric" TIMEOUT 120)
# tandem_info's table of the providers: which it takes, which it refuses and why.
add_test(tandem_info_providers bash "${TANDEM_SRC}/test/fabric/tandem_info.sh" "${TANDEM_BUILD}/tools/tandem_info")
set_tests_properties(tandem_info_providers PROPERTIES LABELS "fabric" TIMEOUT 120)
# The libraries Tandem loads are those configure found (pkg-config, or --with-ofi, --with-pmix
# and --with-hwloc): CI's make distcheck configures against copies in other prefixes.
add_test(tandem_info_libraries bash "${TANDEM_SRC}/test/fabric/libraries.sh"
         "${TANDEM_BUILD}/tools/tandem_info" "${TANDEM_BUILD}/src/.libs/libtandem.so"
         "${TANDEM_FABRIC_LIBDIR}" "${TANDEM_PMIX_LIBDIR}" "${TANDEM_HWLOC_LIBDIR}")
set_tests_properties(tandem_info_libraries PROPERTIES LABELS "fabric" TIMEOUT 60)
# What configure chose for the site shows as the default: --enable-progress-thread.
add_test(tandem_info_defaults bash "${TANDEM_SRC}/test/fabric/defaults.sh"
         "${TANDEM_BUILD}/tools/tandem_info" "${TANDEM_PROGRESS_THREAD_DEFAULT}")
set_tests_properties(tandem_info_defaults PROPERTIES LABELS "fabric" TIMEOUT 60)
