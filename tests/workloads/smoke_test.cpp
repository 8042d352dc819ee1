#include "support/catch.h"
TEST_CASE("engine placeholder") { CHECK(1 == 1); }
