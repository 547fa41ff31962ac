// Framing: encoding, decoding at every split point, the size limit, garbage.
#include "cdk/protocol/frame.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace cdk::protocol {
namespace {

std::string bytes(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(static_cast<char>(b));
  return s;
}

TEST(frame, append_frame_writes_le_length_counting_the_type_byte) {
  std::string out = "x"; // appends, never overwrites
  append_frame(out, 17, "");
  append_frame(out, 11, "abc");
  EXPECT_EQ(out, "x" + bytes({1, 0, 0, 0, 17}) + bytes({4, 0, 0, 0, 11}) + "abc");
}

TEST(frame, length_is_little_endian_for_large_payloads) {
  std::string out;
  append_frame(out, 2, std::string(0x10203, 'p'));
  EXPECT_EQ(out.substr(0, 5), bytes({0x04, 0x02, 0x01, 0x00, 2}));
  EXPECT_EQ(out.size(), 5u + 0x10203u);
}

TEST(frame, begin_end_frame_patches_the_length) {
  std::string out;
  const auto at = begin_frame(out, 0);
  out += "hello";
  ASSERT_TRUE(end_frame(out, at).ok());
  EXPECT_EQ(out, bytes({6, 0, 0, 0, 0}) + "hello");
}

std::string three_frames() {
  std::string s;
  append_frame(s, 11, "notice-payload");
  append_frame(s, 0, "");
  append_frame(s, 13, std::string(300, '\xff'));
  return s;
}

void expect_three_frames(const std::vector<frame>& got) {
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].type, 11);
  EXPECT_EQ(got[0].payload, "notice-payload");
  EXPECT_EQ(got[1].type, 0);
  EXPECT_EQ(got[1].payload, "");
  EXPECT_EQ(got[2].type, 13);
  EXPECT_EQ(got[2].payload, std::string(300, '\xff'));
}

TEST(frame_decoder, decodes_when_fed_all_at_once) {
  frame_decoder d;
  ASSERT_TRUE(d.feed(three_frames()).ok());
  std::vector<frame> got;
  while (auto f = d.next()) got.push_back(std::move(*f));
  expect_three_frames(got);
  EXPECT_EQ(d.buffered(), 0u);
}

TEST(frame_decoder, decodes_when_split_at_every_byte) {
  const std::string wire = three_frames();
  for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
    SCOPED_TRACE("split at " + std::to_string(cut));
    frame_decoder d;
    std::vector<frame> got;
    ASSERT_TRUE(d.feed(std::string_view(wire).substr(0, cut)).ok());
    while (auto f = d.next()) got.push_back(std::move(*f));
    ASSERT_TRUE(d.feed(std::string_view(wire).substr(cut)).ok());
    while (auto f = d.next()) got.push_back(std::move(*f));
    expect_three_frames(got);
  }
}

TEST(frame_decoder, decodes_one_byte_at_a_time) {
  const std::string wire = three_frames();
  frame_decoder d;
  std::vector<frame> got;
  for (char c : wire) {
    ASSERT_GT(d.bytes_wanted(), 0u);
    ASSERT_TRUE(d.feed(std::string_view(&c, 1)).ok());
    while (auto f = d.next()) got.push_back(std::move(*f));
  }
  expect_three_frames(got);
}

TEST(frame_decoder, peek_shows_the_next_frame_in_place_and_skip_drops_it) {
  frame_decoder d;
  std::string wire;
  append_frame(wire, 11, "notice");
  append_frame(wire, 17, "");
  append_frame(wire, 12, "partial");
  ASSERT_TRUE(d.feed(wire.substr(0, wire.size() - 1)).ok()); // the last one cut short
  auto v = d.peek();
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, 11);
  EXPECT_EQ(v->payload, "notice");
  auto again = d.peek(); // peeking takes nothing
  ASSERT_TRUE(again);
  EXPECT_EQ(again->payload.data(), v->payload.data());
  d.skip();
  v = d.peek();
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, 17);
  EXPECT_EQ(v->payload, "");
  auto f = d.next(); // next() agrees with peek()
  ASSERT_TRUE(f);
  EXPECT_EQ(f->type, 17);
  EXPECT_FALSE(d.peek()); // incomplete
  d.skip();               // nothing to drop: no change
  ASSERT_TRUE(d.feed(wire.substr(wire.size() - 1)).ok());
  v = d.peek();
  ASSERT_TRUE(v);
  EXPECT_EQ(v->payload, "partial");
  d.skip();
  EXPECT_FALSE(d.peek());
  EXPECT_EQ(d.buffered(), 0u);
}

TEST(frame_decoder, bytes_wanted_tracks_the_current_frame) {
  frame_decoder d;
  EXPECT_EQ(d.bytes_wanted(), frame_header_size);
  ASSERT_TRUE(d.feed(bytes({10, 0})).ok());
  EXPECT_EQ(d.bytes_wanted(), 3u);
  ASSERT_TRUE(d.feed(bytes({0, 0, 5})).ok());
  EXPECT_EQ(d.bytes_wanted(), 9u); // 10 - the type byte already here
  ASSERT_TRUE(d.feed(std::string(9, 'a')).ok());
  EXPECT_EQ(d.bytes_wanted(), 0u);
  auto f = d.next();
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->payload, std::string(9, 'a'));
}

TEST(frame_decoder, incomplete_frame_yields_nothing) {
  frame_decoder d;
  ASSERT_TRUE(d.feed(bytes({4, 0, 0, 0, 11, 'a', 'b'})).ok());
  EXPECT_FALSE(d.next().has_value());
  EXPECT_EQ(d.buffered(), 7u);
}

TEST(frame_decoder, zero_length_is_malformed) {
  frame_decoder d;
  auto st = d.feed(bytes({0, 0, 0, 0}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().code, client_errc::malformed_packet);
  EXPECT_EQ(st.err().origin, error_origin::connection);
  EXPECT_TRUE(st.err().fatal);
  EXPECT_NE(st.err().message.find("length 0"), std::string::npos) << st.err().message;
}

TEST(frame_decoder, oversized_length_fails_before_the_payload_arrives) {
  frame_decoder d(1000);
  // Exactly at the limit is fine...
  std::string ok_frame;
  append_frame(ok_frame, 13, std::string(999, 'z'));
  ASSERT_TRUE(d.feed(ok_frame).ok());
  ASSERT_TRUE(d.next().has_value());
  // ...one above is not, as soon as the 4 length bytes are in.
  ASSERT_TRUE(d.feed(bytes({0xe9, 0x03, 0})).ok());
  auto st = d.feed(bytes({0}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().code, client_errc::malformed_packet);
  EXPECT_TRUE(st.err().fatal);
  EXPECT_NE(st.err().message.find("1001"), std::string::npos) << st.err().message;
  EXPECT_NE(st.err().message.find("1000"), std::string::npos) << st.err().message;
  EXPECT_EQ(d.buffered(), 0u); // nothing kept, nothing allocated for it
}

TEST(frame_decoder, huge_length_prefix_with_default_limit) {
  frame_decoder d;
  EXPECT_EQ(d.max_size(), 64u << 20);
  auto st = d.feed(bytes({0xff, 0xff, 0xff, 0xff, 1}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.err().message.find("4294967295"), std::string::npos) << st.err().message;
  EXPECT_NE(st.err().message.find("67108864"), std::string::npos) << st.err().message;
}

TEST(frame_decoder, bad_length_behind_good_frames_is_found_on_feed) {
  frame_decoder d(100);
  std::string wire;
  append_frame(wire, 0, "");
  wire += bytes({0, 1, 0, 0}); // 256 > 100
  auto st = d.feed(wire);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(d.failed());
}

TEST(frame_decoder, frames_before_a_bad_length_are_still_handed_out) {
  // A server reads one message at a time: what came before the bad length
  // is answered before the connection ends.
  frame_decoder d(100);
  std::string wire;
  append_frame(wire, 12, "one");
  append_frame(wire, 12, "two");
  wire += bytes({0, 1, 0, 0, 12, 'x'}); // 256 > 100
  ASSERT_FALSE(d.feed(wire).ok());
  EXPECT_EQ(d.failed_length(), 256u);
  auto a = d.next();
  auto b = d.next();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->payload, "one");
  EXPECT_EQ(b->payload, "two");
  EXPECT_FALSE(d.next().has_value());
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(d.buffered(), 0u); // nothing of the bad frame was kept
}

TEST(frame_decoder, failed_length_tells_an_empty_frame_from_a_large_one) {
  frame_decoder d(100);
  EXPECT_EQ(d.failed_length(), 0u);
  ASSERT_FALSE(d.feed(bytes({0, 0, 0, 0})).ok());
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(d.failed_length(), 0u);
  frame_decoder big(100);
  ASSERT_FALSE(big.feed(bytes({101, 0, 0, 0})).ok());
  EXPECT_EQ(big.failed_length(), 101u);
}

TEST(frame_decoder, a_new_limit_applies_to_lengths_not_read_yet) {
  frame_decoder d(100);
  std::string wire;
  append_frame(wire, 12, std::string(79, 'a')); // 80: checked under 100
  ASSERT_TRUE(d.feed(wire).ok());
  d.set_max_size(50);
  EXPECT_TRUE(d.next().has_value()); // already checked: kept
  ASSERT_FALSE(d.feed(wire).ok());   // read under the new limit
  EXPECT_EQ(d.failed_length(), 80u);
  EXPECT_NE(d.failure()->message.find("maximum message size of 50"), std::string::npos)
      << d.failure()->message;
}

TEST(frame_decoder, stays_failed_after_an_error) {
  frame_decoder d(16);
  ASSERT_FALSE(d.feed(bytes({0x20, 0, 0, 0})).ok());
  std::string good;
  append_frame(good, 0, "");
  EXPECT_FALSE(d.feed(good).ok());
  EXPECT_FALSE(d.next().has_value());
  ASSERT_TRUE(d.failure().has_value());
  EXPECT_EQ(d.failure()->code, client_errc::malformed_packet);
}

TEST(frame_decoder, garbage_either_decodes_or_fails_cleanly) {
  // Deterministic pseudo-random garbage: every outcome must be a clean frame
  // sequence or a malformed_packet error, never a crash or a huge buffer.
  std::uint32_t seed = 12345;
  for (int round = 0; round < 200; ++round) {
    std::string junk;
    for (int i = 0; i < 64; ++i) {
      seed = seed * 1664525u + 1013904223u;
      junk.push_back(static_cast<char>(seed >> 24));
    }
    frame_decoder d(4096);
    auto st = d.feed(junk);
    if (!st.ok()) {
      EXPECT_EQ(st.err().code, client_errc::malformed_packet);
      continue;
    }
    std::size_t consumed = 0;
    while (auto f = d.next()) consumed += frame_header_size + f->payload.size();
    EXPECT_EQ(consumed + d.buffered(), junk.size());
  }
}

} // namespace
} // namespace cdk::protocol
