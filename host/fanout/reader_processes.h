// reader_processes.h — the commands that run the node readers (srun, ssh, pdsh, ...),
// run at once as children of this process, their standard output handed over line by
// line as it arrives, bounded in time: at the deadline each one still running is
// stopped with its whole process group (SIGTERM, then SIGKILL), so no reader outlives
// the front end and nothing hangs. An interrupt (SIGINT, SIGTERM, SIGHUP) while they
// run stops them the same way before it takes its usual course.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mpidbg::host {

// A line longer than this is cut there (the rest up to its newline dropped): no frame
// is near it, so the cut line reads as damage.
inline constexpr std::size_t kMaxReaderLineBytes = std::size_t{64} << 10;

struct ReaderCommand {
  std::vector<std::string> argv;  // argv[0] looked up in PATH
};

struct ReaderOutcome {
  bool started = false;
  bool timed_out = false;  // stopped at the deadline
  int exit_status = -1;    // when it exited
  int signal = 0;          // when a signal ended it
  std::string why;         // one sentence unless it exited with status 0
};

// Runs `commands`, handing `on_line(index, line)` each whole line of command `index`'s
// output (a last line without its newline is dropped; stderr is left to this process's
// stderr), until all have exited and closed their output, or `timeout_seconds` have
// passed. `on_tick()` is called about every 200 ms; `on_exit(index, outcome)` once per
// command as soon as it is over.
std::vector<ReaderOutcome> RunReaders(
    const std::vector<ReaderCommand>& commands, double timeout_seconds,
    const std::function<void(std::size_t, std::string_view)>& on_line,
    const std::function<void()>& on_tick,
    const std::function<void(std::size_t, const ReaderOutcome&)>& on_exit);

// The command line for messages: words joined by spaces.
std::string CommandText(const std::vector<std::string>& argv);

}  // namespace mpidbg::host
