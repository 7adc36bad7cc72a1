//===- Sha256Test.cpp - SHA-256 against FIPS 180-4 vectors ----------------===//

#include "ckpt/Runtime/Sha256.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using ckpt::runtime::Sha256;

namespace {

std::string hashOf(const std::string &s) {
  return Sha256::hexDigest(s.data(), s.size());
}

TEST(Sha256, FipsVectors) {
  EXPECT_EQ(hashOf(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hashOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hashOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hashOf("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                   "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
  Sha256 sha;
  std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    sha.update(chunk.data(), chunk.size());
  EXPECT_EQ(Sha256::toHex(sha.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries (55/56 bytes: the length still fits
// in the last block or not; 64: a whole block), from Python's hashlib.
TEST(Sha256, PaddingBoundaries) {
  EXPECT_EQ(hashOf(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(hashOf(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(hashOf(std::string(63, 'a')),
            "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  EXPECT_EQ(hashOf(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  EXPECT_EQ(hashOf(std::string(65, 'a')),
            "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
  EXPECT_EQ(hashOf(std::string(119, 'a')),
            "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
  EXPECT_EQ(hashOf(std::string(120, 'a')),
            "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

// Feeding the same bytes in pieces of any size gives the same digest.
TEST(Sha256, StreamingMatchesOneShot) {
  std::vector<unsigned char> bytes;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 256; ++i)
      bytes.push_back(static_cast<unsigned char>(i));
  const std::string expected =
      "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363";
  EXPECT_EQ(Sha256::hexDigest(bytes.data(), bytes.size()), expected);
  for (size_t piece : {1u, 3u, 7u, 55u, 63u, 64u, 65u, 127u, 500u}) {
    Sha256 sha;
    for (size_t at = 0; at < bytes.size(); at += piece)
      sha.update(bytes.data() + at, std::min(piece, bytes.size() - at));
    EXPECT_EQ(Sha256::toHex(sha.finish()), expected) << "pieces of " << piece;
  }
}

TEST(Sha256, FinishStartsANewMessage) {
  Sha256 sha;
  sha.update("abc", 3);
  sha.finish();
  EXPECT_EQ(Sha256::toHex(sha.finish()),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

} // namespace
