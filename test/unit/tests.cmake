# GoogleTest unit tests of internal pieces: one CTest test per suite.
foreach(suite SymmetricAllocator ParseSize ParseBool ConfigEnvironment ConfigTable ConfigUnknown OpQueue Scheduler GlobalObjectTable NetTimeout NetTimeoutOn ShmCopy SocketWatch Doorbell AnswerSlots RequestRings FlatTable PutLists SharedFile SharedLocator Cards Admit ZeroPages PeerPages Pieces)
  add_test(unit_${suite} "${TANDEM_BUILD}/test/unit/unit_tests" "--gtest_filter=${suite}.*")
  set_tests_properties(unit_${suite} PROPERTIES LABELS "unit" TIMEOUT 60)
endforeach()
