// A UCI engine running as a child process (for `echecs match`): lines in,
// lines out with timeouts. The process is ended when the object goes away.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace echecs::engine {

class UciProcess {
public:
    // Starts `command` through /bin/sh; throws std::runtime_error on failure.
    explicit UciProcess(const std::string& command);
    ~UciProcess();
    UciProcess(const UciProcess&) = delete;
    UciProcess& operator=(const UciProcess&) = delete;

    // False when the engine has gone away.
    bool send(const std::string& line);
    // The next line, or nullopt after `timeout_ms` or at end of output.
    std::optional<std::string> read_line(std::int64_t timeout_ms);
    // Reads until a line starting with `prefix`; nullopt on timeout or exit.
    std::optional<std::string> wait_for(const std::string& prefix, std::int64_t timeout_ms);
    bool alive() const { return alive_; }
    // The engine's process id (the shell execs it), for reading its /proc files.
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int to_child_ = -1, from_child_ = -1;
    std::string buffer_;
    bool alive_ = false;
};

}  // namespace echecs::engine
