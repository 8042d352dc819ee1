// The Catch2 main for both test binaries (Catch2 3.x brings its own through Catch2WithMain, but
// one main of ours keeps the two versions alike).
#if GRAPHBENCH_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
#endif
