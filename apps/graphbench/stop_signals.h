// SIGINT and SIGTERM during a run: the first asks the run to stop (core/interrupt.h) at the end
// of the current sample or training step, so that the finished cases are written; a second ends
// the process at once, removing the temporary file it was writing, if any.
#pragma once

namespace graphbench::cli {

void install_stop_handlers();

}  // namespace graphbench::cli
