// SIGINT and SIGTERM during a run: the first asks the run to stop (core/base/interrupt.h) at the end
// of the current sample or training step, so that the finished cases are written; a second ends
// the process at once, removing the temporary file it was writing, if any.
#pragma once

namespace graphbench::cli {

void install_stop_handlers();

// SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: the stack printed on standard error before the
// process ends by the signal, so that a crash on a machine without a debugger still says where.
void install_crash_handlers();

// Test only (GRAPHBENCH_TEST_CRASH set): crashes the way a call through a bad pointer does, so that
// a test can check what the crash handler says.
void crash_for_test();

}  // namespace graphbench::cli
