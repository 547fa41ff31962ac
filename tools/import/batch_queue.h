// Batches from the reader to the sessions, and the order in which batches
// that share an _id are stored.
//
// The queue is bounded, so that a fast reader holds at most a few batches
// per session in memory. Batches leave it in input order; with several
// sessions they are stored at the same time, so a later batch could commit
// before an earlier one. Where they share an _id that decides what is
// stored (--replace, --patch: the later entry must win; without them: the
// later entry is the duplicate), so a batch that shares an _id with an
// earlier batch still being stored waits for it to commit (or to fail,
// and then is not stored either). An _id is a string's value or an
// integer's digits (check_result::id_key). So for every _id the entries stored are
// always the first ones of the input, in any stop, and a --resume stores
// the rest in order. Only the ids of the batches being stored are kept.
#pragma once

#include "batch.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace mysqlx_import {

class batch_queue {
public:
  batch_queue(std::size_t capacity, const std::atomic<int>* interrupted)
      : m_capacity(capacity), m_interrupted(interrupted) {}

  // False when the import stopped (or was interrupted) and the batch was
  // not queued.
  bool push(batch&& b);
  // The next batch, now in flight; none once the queue is closed and empty,
  // or stopped. Each batch popped must be finished().
  std::optional<batch> pop();
  // Waits until no earlier batch in flight shares an _id with `b`. False
  // when the import stopped meanwhile: `b` is not to be stored.
  bool wait_turn(const batch& b);
  // `b` is stored, or failed (call stop() first then).
  void finished(const batch& b);
  // No more batches will come; the queued ones are still handed out.
  void close();
  // The import stops: queued batches (not sent yet) are dropped, nothing
  // more is taken; the batches in flight finish, except those waiting
  // for their turn.
  void stop();
  bool stopped();

private:
  // Whether a batch in flight before `seq` shares an id with `ids`.
  bool behind(std::uint64_t seq, const std::vector<std::uint64_t>& ids) const;

  std::mutex m_mutex;
  std::condition_variable m_cv_not_empty, m_cv_not_full, m_cv_turn;
  std::deque<batch> m_items;
  // The batches in flight: seq -> the sorted hashes of their string _ids.
  std::map<std::uint64_t, std::vector<std::uint64_t>> m_in_flight;
  std::size_t m_capacity;
  const std::atomic<int>* m_interrupted;
  bool m_closed = false, m_stopped = false;
};

} // namespace mysqlx_import
