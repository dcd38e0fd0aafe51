import Foundation

/// Runs a program to completion and collects what it printed.
public struct ProcessOutput: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String
}

public enum ProcessRunner {
  public static func run(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes while the process runs, so a large output cannot fill a pipe and block it.
    let errorData = ErrorOutput()
    let errorRead = DispatchSemaphore(value: 0)
    Thread {
      errorData.bytes = error.fileHandleForReading.readDataToEndOfFile()
      errorRead.signal()
    }.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errorRead.wait()
    return ProcessOutput(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData.bytes, as: UTF8.self))
  }
}

/// What the reading thread collected; read only after it signals.
private final class ErrorOutput: @unchecked Sendable {
  var bytes = Data()
}
