#include "stop_signals.h"

#include "graphbench/core/interrupt.h"
#include "graphbench/report/atomic_file.h"

#include <csignal>
#include <execinfo.h>
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

namespace {

// A crash says where: the stack, as glibc can name it, on standard error (then the default action,
// so the exit status still says which signal). Only async-signal-safe calls.
void on_crash_signal(int signal_number) {
  static const char header[] = "graphbench: crashed; the stack (build with symbols for names):\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, header, sizeof(header) - 1);
  void* frames[64];
  const int count = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

}  // namespace

void install_crash_handlers() {
  void* warm_up[1];
  ::backtrace(warm_up, 1);  // loads libgcc's unwinder now, not inside the handler
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(signal_number, on_crash_signal);
}

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
