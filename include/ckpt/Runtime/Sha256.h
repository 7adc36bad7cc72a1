//===- Sha256.h - SHA-256 (FIPS 180-4) --------------------------*- C++ -*-===//
//
// A small streaming SHA-256 for hashing the results of a run (ckpt-run's
// `outputs_sha256`). No dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_RUNTIME_SHA256_H
#define CKPT_RUNTIME_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ckpt::runtime {

class Sha256 {
public:
  using Digest = std::array<uint8_t, 32>;

  Sha256() { reset(); }

  /// Starts a new message.
  void reset();
  /// Appends `size` bytes to the message.
  void update(const void *data, size_t size);
  /// Pads the message, returns its digest and starts a new message.
  Digest finish();

  /// Lower-case hex of a digest (64 characters).
  static std::string toHex(const Digest &digest);
  /// The hex digest of one buffer.
  static std::string hexDigest(const void *data, size_t size);

private:
  void compress(const uint8_t *block);

  std::array<uint32_t, 8> state;
  std::array<uint8_t, 64> buffer;
  size_t buffered;
  uint64_t length; // bytes hashed so far
};

} // namespace ckpt::runtime

#endif // CKPT_RUNTIME_SHA256_H
