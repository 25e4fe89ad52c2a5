# The litmus tests (litmus.c), a sample for every run of the suite: every test in each
# placement with the defaults, and on 2 nodes of 2 with the deferral off and with the
# progress thread off.  `make litmus` runs the whole matrix (matrix.sh).
set(litmus "${TANDEM_BUILD}/test/litmus/litmus")
foreach(run "np2;-n;2" "np4;-n;4" "np2_nodes2;--nodes;2;-n;2" "np4_nodes2;--nodes;2;-n;4" "np4_nodes4;--nodes;4;-n;4")
  list(GET run 0 name)
  list(REMOVE_AT run 0)
  add_test(litmus_${name} "${OSHRUN}" ${run} "${litmus}" all 5000)
  set(labels "litmus")
  if(name MATCHES "nodes")
    set(labels "litmus;internode")
  endif()
  set_tests_properties(litmus_${name} PROPERTIES LABELS "${labels}" TIMEOUT 300 PROCESSORS 2)
endforeach()
foreach(setting "TANDEM_DEFER_THRESHOLD=off" "TANDEM_PROGRESS_THREAD=off" "TANDEM_AGGREGATE=off")
  string(REGEX REPLACE "TANDEM_([A-Z_]+)=(.*)" "\\1_\\2" name "${setting}")
  string(TOLOWER "${name}" name)
  add_test(litmus_np4_nodes2_${name} "${OSHRUN}" --nodes 2 -n 4 "${litmus}" all 5000)
  set_tests_properties(litmus_np4_nodes2_${name} PROPERTIES LABELS "litmus;internode" TIMEOUT 300 PROCESSORS 2
                       ENVIRONMENT "${setting}")
endforeach()
