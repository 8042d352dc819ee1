// `graphbench`: the front without LibTorch (cli.h).
#include "cli.h"

int main(int argc, char** argv) { return graphbench::cli::run_cli(argc, argv, nullptr); }
