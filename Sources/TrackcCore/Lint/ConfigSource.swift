import SystemPackage

/// A config that could not be read at all (as opposed to one that was read and has problems).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String

  public var description: String { "cannot read '\(path)': \(reason)" }
}

/// A config file's bytes, as read from disk or handed over by a test or an editor.
public struct ConfigSource: Sendable {
  /// The path printed in diagnostics.
  public var path: String
  public var input: InputBytes
  /// The size of the whole file, which may exceed `byteCount` when reading stopped at the size limit.
  public var fileSize: Int

  public var byteCount: Int { input.buffer.count }

  public init(path: String, input: InputBytes, fileSize: Int? = nil) {
    self.path = path
    self.input = input
    self.fileSize = fileSize ?? input.buffer.count
  }

  public init(path: String, bytes: [UInt8], fileSize: Int? = nil) {
    self.init(path: path, input: InputBytes(bytes), fileSize: fileSize)
  }

  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }
}

extension ConfigSource {
  /// Reads a config from disk, stopping after `maxBytes + 1` bytes so that a huge file (or a device that
  /// never ends) costs no more than the limit; `fileSize` still tells how large the file really is.
  public static func read(path: String, maxBytes: Int = LintOptions.defaultMaxConfigBytes) throws(InputError) -> ConfigSource {
    func failure(_ error: any Error) -> InputError {
      InputError(path: path, reason: (error as? Errno)?.description ?? "\(error)")
    }
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
    } catch {
      throw failure(error)
    }
    defer { try? file.close() }
    let status: Stat
    do {
      status = try file.stat()
    } catch {
      throw failure(error)
    }
    if status.type == .directory { throw InputError(path: path, reason: "it is a directory") }
    let reportedSize = status.type == .regular ? Int(status.size) : 0
    // A regular file over the limit is not read at all; its size is all the linter needs to report.
    if reportedSize > maxBytes { return ConfigSource(path: path, bytes: [], fileSize: reportedSize) }

    // Read into uninitialised memory (no zero-filling a file-sized buffer first), growing it only for
    // files that do not report their size (pipes, devices).
    let cap = maxBytes + 1
    var bytes: [UInt8] = []
    var capacity = min(cap, max(reportedSize + 1, 64 << 10))
    while true {
      var readError: (any Error)?
      let filled = bytes.count
      var grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = 0
        if filled > 0 {
          bytes.withUnsafeBufferPointer { old in _ = buffer.initialize(fromContentsOf: old) }
          count = filled
        }
        while count < capacity {
          do {
            let read = try file.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
            if read == 0 { break }
            count += read
          } catch {
            readError = error
            return
          }
        }
      }
      if let readError { throw failure(readError) }
      swap(&bytes, &grown)
      // Stop at the end of the input, or once past the limit (the linter reports the size).
      if bytes.count < capacity || bytes.count >= cap { break }
      capacity = min(cap, capacity * 2)
    }
    return ConfigSource(path: path, bytes: bytes, fileSize: max(reportedSize, bytes.count))
  }
}
