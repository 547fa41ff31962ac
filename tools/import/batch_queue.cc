#include "batch_queue.h"

#include <algorithm>
#include <chrono>

namespace mysqlx_import {

namespace {

// The batch's _id keys, hashed (by the reader), sorted and unique. A
// collision only makes a batch wait when it need not; documents without an
// _id (or with a generated one) never wait.
std::vector<std::uint64_t> id_hashes(const batch& b) {
  std::vector<std::uint64_t> h = b.id_hashes;
  std::sort(h.begin(), h.end());
  h.erase(std::unique(h.begin(), h.end()), h.end());
  return h;
}

bool intersect(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j)
      ++i;
    else
      ++j;
  }
  return false;
}

} // namespace

bool batch_queue::push(batch&& b) {
  std::unique_lock<std::mutex> lock(m_mutex);
  // A signal handler cannot notify: look at its flag now and then.
  while (!m_cv_not_full.wait_for(lock, std::chrono::milliseconds(100),
                                 [&] { return m_stopped || m_items.size() < m_capacity; })) {
    if (m_interrupted != nullptr && m_interrupted->load() != 0) return false;
  }
  if (m_stopped) return false;
  m_items.push_back(std::move(b));
  m_cv_not_empty.notify_one();
  return true;
}

std::optional<batch> batch_queue::pop() {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_cv_not_empty.wait(lock, [&] { return m_stopped || m_closed || !m_items.empty(); });
  if (m_stopped || m_items.empty()) return std::nullopt;
  batch b = std::move(m_items.front());
  m_items.pop_front();
  // In flight from here, under the same lock as the pop: batches enter
  // m_in_flight in input order, so each waits only for earlier ones.
  m_in_flight.emplace(b.seq, id_hashes(b));
  m_cv_not_full.notify_one();
  return b;
}

bool batch_queue::behind(std::uint64_t seq, const std::vector<std::uint64_t>& ids) const {
  for (const auto& [other, other_ids] : m_in_flight) {
    if (other >= seq) break;
    if (intersect(ids, other_ids)) return true;
  }
  return false;
}

bool batch_queue::wait_turn(const batch& b) {
  std::unique_lock<std::mutex> lock(m_mutex);
  const auto self = m_in_flight.find(b.seq);
  if (self == m_in_flight.end() || self->second.empty()) return true;
  const std::vector<std::uint64_t>& ids = self->second;
  if (!behind(b.seq, ids)) return true;
  m_cv_turn.wait(lock, [&] { return m_stopped || !behind(b.seq, ids); });
  // An earlier batch with the same _id failed, or the import stops: storing
  // this one now could put a later entry before an earlier one.
  return !m_stopped;
}

void batch_queue::finished(const batch& b) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_in_flight.erase(b.seq);
  m_cv_turn.notify_all();
}

void batch_queue::close() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_closed = true;
  m_cv_not_empty.notify_all();
}

void batch_queue::stop() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_stopped = true;
  m_items.clear();
  m_cv_not_empty.notify_all();
  m_cv_not_full.notify_all();
  m_cv_turn.notify_all();
}

bool batch_queue::stopped() {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_stopped;
}

} // namespace mysqlx_import
