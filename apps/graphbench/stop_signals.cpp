#include "stop_signals.h"

#include "graphbench/core/interrupt.h"
#include "graphbench/report/atomic_file.h"

#include <csignal>
#include <cstring>

#include <unistd.h>

namespace graphbench::cli {

namespace {

// Only async-signal-safe calls here: an atomic store, write, unlink, sigaction, raise.
extern "C" void on_stop_signal(int signal_number) {
  if (!stop_requested()) {
    request_stop(signal_number);
    static const char message[] =
        "\ngraphbench: stopping after the current sample or training step; the finished cases will be written "
        "(send the signal again to stop at once)\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, sizeof message - 1);
    return;
  }
  remove_pending_temporaries();
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(signal_number, &fallback, nullptr);
  ::raise(signal_number);  // delivered when this handler returns: the process ends by the signal
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

}  // namespace graphbench::cli
