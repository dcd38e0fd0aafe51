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
    nonisolated(unsafe) var errorData = Data()
    let errorReader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
    errorReader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
    return ProcessOutput(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
