#include "progress_display.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace mysqlx_import {

namespace {

std::string megabytes(std::uint64_t bytes) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e6 << " MB";
  return s.str();
}

} // namespace

progress_display::progress_display(std::ostream& err, bool bar, double interval,
                                   std::optional<std::uint64_t> total,
                                   const std::atomic<std::uint64_t>& documents,
                                   const std::atomic<std::uint64_t>& input_bytes)
    : m_err(err), m_bar(bar), m_interval(interval), m_total(total), m_documents(documents),
      m_input_bytes(input_bytes), m_start(std::chrono::steady_clock::now()) {
  m_thread = std::thread([this] { loop(); });
}

void progress_display::finish() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_done) return;
    m_done = true;
  }
  m_cv.notify_all();
  m_thread.join();
  // The last state, so that even a short import shows one.
  if (m_bar)
    m_err << "\r" << line() << "\x1b[K\n" << std::flush;
  else
    m_err << line() << "\n" << std::flush;
}

std::string progress_display::line() const {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  const std::uint64_t docs = m_documents.load(std::memory_order_relaxed);
  const std::uint64_t bytes = m_input_bytes.load(std::memory_order_relaxed);
  const double rate = secs > 0 ? static_cast<double>(docs) / secs : 0;
  std::ostringstream s;
  double fraction = -1;
  if (m_total && *m_total > 0)
    fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(*m_total));
  if (m_bar && fraction >= 0) {
    constexpr int width = 30;
    const int full = static_cast<int>(fraction * width);
    s << "[" << std::string(full, '#') << std::string(width - full, ' ') << "] ";
  }
  if (!m_bar) s << "mysqlx-import: ";
  if (fraction >= 0) s << static_cast<int>(fraction * 100) << "%, ";
  s << docs << " documents, " << megabytes(bytes) << ", " << static_cast<std::uint64_t>(rate)
    << " docs/s";
  if (fraction > 0 && fraction < 1) {
    const double eta = secs * (1 - fraction) / fraction;
    s << ", ETA " << std::llround(eta) << " s";
  }
  return s.str();
}

void progress_display::loop() {
  const auto step =
      m_bar ? std::chrono::duration<double>(0.25) : std::chrono::duration<double>(m_interval);
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_cv.wait_for(lock, step, [&] { return m_done; })) {
    if (m_bar)
      m_err << "\r" << line() << "\x1b[K" << std::flush;
    else
      m_err << line() << "\n" << std::flush;
  }
}

} // namespace mysqlx_import
