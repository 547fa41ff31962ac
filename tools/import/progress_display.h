// Progress on standard error while an import runs: a bar redrawn in place
// on a terminal, else a line every `interval` seconds, and the last state
// when it finishes.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

namespace mysqlx_import {

class progress_display {
public:
  // `documents` stored and the `input_bytes` whose documents are stored are
  // read from another thread while the import updates them.
  progress_display(std::ostream& err, bool bar, double interval, std::optional<std::uint64_t> total,
                   const std::atomic<std::uint64_t>& documents,
                   const std::atomic<std::uint64_t>& input_bytes);
  progress_display(const progress_display&) = delete;
  progress_display& operator=(const progress_display&) = delete;
  ~progress_display() { finish(); }
  void finish();

private:
  std::string line() const;
  void loop();

  std::ostream& m_err;
  bool m_bar;
  double m_interval;
  std::optional<std::uint64_t> m_total;
  const std::atomic<std::uint64_t>& m_documents;
  const std::atomic<std::uint64_t>& m_input_bytes;
  std::chrono::steady_clock::time_point m_start;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  std::thread m_thread;
};

} // namespace mysqlx_import
