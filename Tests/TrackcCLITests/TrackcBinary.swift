import Foundation
import TrackcTestSupport

/// The `trackc` executable built alongside the tests (same build directory as the test bundle).
enum TrackcBinary {
  static let path = BuiltExecutable.path(named: "trackc")

  static func run(_ arguments: String..., in directory: URL = Fixtures.repositoryRoot) throws -> ProcessOutput {
    try run(arguments, in: directory)
  }

  static func run(_ arguments: [String], in directory: URL = Fixtures.repositoryRoot) throws -> ProcessOutput {
    try ProcessRunner.run(path, arguments, currentDirectory: directory)
  }
}
