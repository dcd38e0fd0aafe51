// The one file of TrackcCore that imports the C library of a platform. Everything else reaches the
// system through packages that are the same on Linux and macOS: swift-system (descriptors, stat, errno),
// FoundationEssentials (FileManager, ProcessInfo) and swift-subprocess (the parsing workers). What no
// package wraps is here, each piece a few lines; a `#if` outside this file is a bug.
//
// This file is compiled on Linux (Glibc) by every build and test run; the Darwin branches are
// type-checked against the macOS SDK by Scripts/typecheck-macos.sh in every CI run (see docs/platforms.md).

import Subprocess

#if canImport(Darwin)
  import Darwin
  import MachO  // _NSGetExecutablePath (mach-o/dyld.h)
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// swift-subprocess names executables by the FilePath of the SDK's System module on Apple platforms and
// of swift-system's SystemPackage elsewhere; the rest of TrackcCore uses SystemPackage everywhere.
#if canImport(System)
  import System
#else
  import SystemPackage
#endif

enum Platform {
  /// The path of this program's executable, to start parsing workers from; nil where the system does
  /// not say (then parsing runs in-process).
  static let executablePath: String? = {
    #if os(Linux) || os(Android)
      var buffer = [CChar](repeating: 0, count: 4097)
      let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #elseif canImport(Darwin)
      // dyld's record of the executable, possibly through a symbolic link; resolved so that the path
      // stays right if the link changes while trackc runs.
      var size: UInt32 = 0
      _ = _NSGetExecutablePath(nil, &size)
      var buffer = [CChar](repeating: 0, count: Int(size) + 1)
      guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    #else
      return nil
    #endif
  }()

  /// The worker executable, as swift-subprocess names it.
  static func executable(atPath path: String) -> Executable {
    .path(FilePath(path))
  }

  /// Caps this process's address space (a parsing worker's), so that a runaway allocation ends the
  /// worker, not the machine. Linux enforces it; macOS accepts `RLIMIT_AS` but does not enforce it
  /// (there the per-file time limit is the only bound).
  /// Not under a sanitizer, which has reserved terabytes of address space for its shadow memory: a cap
  /// would make every allocation fail (found running the tests under AddressSanitizer).
  static func limitAddressSpace(toBytes bytes: UInt64) {
    #if canImport(Darwin)
      let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everyImage: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    let sanitized = dlsym(everyImage, "__asan_init") != nil || dlsym(everyImage, "__tsan_init") != nil
    guard !sanitized else { return }
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    #if canImport(Glibc)
      _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    #else
      _ = setrlimit(RLIMIT_AS, &limit)
    #endif
  }

  /// Makes a write to a pipe whose reader is gone (a worker that died) fail with EPIPE instead of
  /// ending trackc with SIGPIPE. Process-wide, as signal dispositions are; trackc writes nothing else to
  /// pipes it does not own before it prints its results, where an early-closed reader is harmless.
  static func ignoreBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// Atomically replaces `destination` with `source` (both on one file system); false when it cannot.
  /// FileManager's `moveItem` refuses an existing destination, so writing a file atomically needs this.
  static func replace(_ destination: String, with source: String) -> Bool {
    rename(source, destination) == 0
  }

  /// `memchr`: the first `byte` among `count` bytes from `start`, nil when there is none.
  static func firstByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
    memchr(start, Int32(byte), count).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// `memcmp`: the byte order of two buffers' first `count` bytes.
  static func compareBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Int32 {
    memcmp(left, right, count)
  }
}
