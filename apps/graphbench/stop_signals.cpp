#include "stop_signals.h"

#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/report/atomic_file.h"

#include <csignal>
#include <cstdint>
#include <cstring>
#include <execinfo.h>

#include <fcntl.h>
#include <ucontext.h>
#include <unistd.h>

namespace graphbench::cli {

namespace {

// The same signal again this soon is the same request delivered twice, not a second one: coreutils'
// `timeout` (as CI runners use it) sends its SIGTERM to the command and then to the whole process
// group, which holds the command too. A person who means "at once" presses twice more slowly.
constexpr long long kSameRequestNs = 100LL * 1000 * 1000;

long long monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe (POSIX)
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

// Written only by the handler, which blocks both stop signals while it runs.
long long g_first_stop_ns = 0;

// Only async-signal-safe calls here: an atomic store, clock_gettime, write, unlink, sigaction, raise.
extern "C" void on_stop_signal(int signal_number) {
  if (stop_requested() && stop_signal() == signal_number && monotonic_ns() - g_first_stop_ns < kSameRequestNs) {
    return;  // one request, delivered twice
  }
  if (!stop_requested()) {
    g_first_stop_ns = monotonic_ns();
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

// Async-signal-safe text output: write(2) of a string, of a labelled number in hex on a line.
void write_text(const char* text) {
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, text, std::strlen(text));
}

void write_hex_line(const char* label, std::uintptr_t value) {
  write_text(label);
  char buffer[2 + 2 * sizeof(value) + 1];
  char* end = buffer + sizeof(buffer);
  char* p = end;
  *--p = '\n';
  do {
    *--p = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  *--p = 'x';
  *--p = '0';
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, p, static_cast<std::size_t>(end - p));
}

std::uintptr_t parse_hex(const char*& p) {
  std::uintptr_t value = 0;
  for (;; ++p) {
    const char c = *p;
    if (c >= '0' && c <= '9') {
      value = value * 16 + static_cast<std::uintptr_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      value = value * 16 + static_cast<std::uintptr_t>(c - 'a' + 10);
    } else {
      return value;
    }
  }
}

// The line of /proc/self/maps whose range holds `address` (the library and its offset there, for
// addr2line), or a note that none does: a jump to an address no library maps.
void write_mapping_of(std::uintptr_t address) {
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  static char line[4096];
  std::size_t length = 0;
  char c = 0;
  bool found = false;
  for (;;) {
    const ssize_t got = ::read(fd, &c, 1);  // byte by byte: no buffer to manage, and it is rare
    if (got <= 0 || c == '\n') {
      line[length] = '\0';
      const char* p = line;
      const std::uintptr_t low = parse_hex(p);
      if (*p == '-') ++p;
      const std::uintptr_t high = parse_hex(p);
      if (length > 0 && address >= low && address < high) {
        write_text("    in ");
        write_text(line);
        write_text("\n");
        found = true;
        break;
      }
      length = 0;
      if (got <= 0) break;
    } else if (length + 1 < sizeof(line)) {
      line[length++] = c;
    }
  }
  ::close(fd);
  if (!found) write_text("    (no mapping holds it)\n");
}

// A crash says where: the faulting address, the instruction pointer and the word at the stack
// pointer (the return address when the crash is a call through a bad pointer, which leaves the
// unwinder nothing to follow), each with the mapping that holds it; then the stack, as glibc can
// name it, on standard error; then the default action, so the exit status still says which signal.
// Only async-signal-safe calls.
void on_crash_signal(int signal_number, siginfo_t* info, void* context) {
  write_text("graphbench: crashed by ");
  write_text(signal_number == SIGSEGV ? "SIGSEGV" : signal_number == SIGBUS ? "SIGBUS" : signal_number == SIGFPE ? "SIGFPE"
             : signal_number == SIGILL ? "SIGILL" : "SIGABRT");
  write_hex_line("; fault address ", reinterpret_cast<std::uintptr_t>(info != nullptr ? info->si_addr : nullptr));
#if defined(__x86_64__) && defined(REG_RIP)
  if (context != nullptr) {
    const auto* uc = static_cast<const ucontext_t*>(context);
    const auto pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    const auto sp = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
    write_hex_line("  instruction pointer ", pc);
    write_mapping_of(pc);
    if (sp != 0) {
      const std::uintptr_t top = *reinterpret_cast<const std::uintptr_t*>(sp);
      write_hex_line("  word at the stack pointer (the caller, after a call through a bad pointer) ", top);
      write_mapping_of(top);
    }
  }
#else
  (void)context;
#endif
  write_text("graphbench: the stack (build with symbols for names):\n");
  void* frames[64];
  const int count = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

}  // namespace

void crash_for_test() {
  // A call through a null function pointer: the crash whose stack the unwinder cannot follow.
  void (*volatile nowhere)() = nullptr;
  nowhere();
}

void install_crash_handlers() {
  void* warm_up[1];
  ::backtrace(warm_up, 1);  // loads libgcc's unwinder now, not inside the handler
  struct sigaction action {};
  action.sa_sigaction = on_crash_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(signal_number, &action, nullptr);
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
