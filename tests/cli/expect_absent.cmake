# cmake -DDIR=PATH -P expect_absent.cmake: fails when PATH exists.
if(EXISTS "${DIR}")
  message(FATAL_ERROR "${DIR} exists, and nothing should have made it")
endif()
