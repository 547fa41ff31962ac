// deflate_stream throughput, and what the 16 KiB read buffer saves when the
// framing layer reads a 5-byte header and then a small body (one syscall per
// read without it).
#include "cdk/foundation/compression.h"
#include "cdk/foundation/socket_stream.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

// A result-set-like message: many small JSON rows.
std::string rows(std::size_t bytes) {
  std::string s;
  for (int i = 0; s.size() < bytes; ++i) {
    s += R"({"_id":"00006523c4a30000000000)" + std::to_string(100000 + i) +
         R"(","item":"pen","qty":)" + std::to_string(i % 97) + "}";
  }
  s.resize(bytes);
  return s;
}

void BM_DeflateStreamCompress(benchmark::State& state) {
  std::string msg = rows(static_cast<std::size_t>(state.range(0)));
  cdk::deflate_stream_compressor tx;
  std::size_t wire = 0;
  for (auto _ : state) {
    std::string out = tx.compress(msg);
    wire += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
  state.counters["ratio"] = static_cast<double>(state.iterations() * msg.size()) /
                            static_cast<double>(wire == 0 ? 1 : wire);
}
BENCHMARK(BM_DeflateStreamCompress)->Arg(1024)->Arg(16 * 1024)->Arg(256 * 1024);

void BM_DeflateStreamDecompress(benchmark::State& state) {
  std::string msg = rows(static_cast<std::size_t>(state.range(0)));
  // One stream per direction: each iteration inflates the next message of a
  // long-lived stream, as a connection does.
  cdk::deflate_stream_compressor tx;
  std::vector<std::string> wire;
  for (int i = 0; i < 64; ++i) wire.push_back(tx.compress(msg));
  cdk::deflate_stream_decompressor rx;
  std::size_t next = 0;
  for (auto _ : state) {
    if (next == wire.size()) {
      state.PauseTiming();
      rx = cdk::deflate_stream_decompressor();
      next = 0;
      state.ResumeTiming();
    }
    auto out = rx.decompress(wire[next++], msg.size(), 64u << 20);
    if (!out) state.SkipWithError(out.err().message.c_str());
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
}
BENCHMARK(BM_DeflateStreamDecompress)->Arg(1024)->Arg(16 * 1024)->Arg(256 * 1024);

// 64 KiB of 5-byte header + 27-byte body frames through a socketpair.
constexpr std::size_t frame = 32;
constexpr std::size_t batch = 64 * 1024;

void fill(int fd, const std::string& data) {
  if (::send(fd, data.data(), data.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(data.size())) {
    std::abort();
  }
}

void BM_SmallReadsBuffered(benchmark::State& state) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) std::abort();
  int buf_size = 1 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &buf_size, sizeof buf_size);
  cdk::socket_stream s(cdk::unique_fd(fds[1]), true, "bench");
  cdk::unique_fd writer(fds[0]);
  std::string data(batch, 'x');
  char buf[frame];
  for (auto _ : state) {
    state.PauseTiming();
    fill(writer.get(), data);
    state.ResumeTiming();
    for (std::size_t done = 0; done < batch; done += frame) {
      for (std::size_t part : {std::size_t{5}, frame - 5}) {
        std::size_t got = 0;
        while (got < part) got += s.read_some(buf + got, part - got).value();
      }
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * batch));
}
BENCHMARK(BM_SmallReadsBuffered);

// The same reads straight from recv(): the cost the buffer avoids.
void BM_SmallReadsUnbuffered(benchmark::State& state) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) std::abort();
  int buf_size = 1 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &buf_size, sizeof buf_size);
  cdk::unique_fd reader(fds[1]), writer(fds[0]);
  std::string data(batch, 'x');
  char buf[frame];
  for (auto _ : state) {
    state.PauseTiming();
    fill(writer.get(), data);
    state.ResumeTiming();
    for (std::size_t done = 0; done < batch; done += frame) {
      for (std::size_t part : {std::size_t{5}, frame - 5}) {
        std::size_t got = 0;
        while (got < part)
          got += static_cast<std::size_t>(::recv(reader.get(), buf + got, part - got, 0));
      }
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * batch));
}
BENCHMARK(BM_SmallReadsUnbuffered);

} // namespace
