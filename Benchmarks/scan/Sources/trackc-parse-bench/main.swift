// The bare cost the scan benchmark compares trackc with: swift-syntax parsing each file, one after the
// other on one thread, nothing else (no visiting, no hashing, no output).
//
//     trackc-parse-bench FILE-LIST   (one path per line)
//
// Prints the number of files, their bytes and the wall seconds the parsing took (reading included).

import Foundation
import SwiftParser
import SwiftSyntax

let arguments = CommandLine.arguments
guard arguments.count == 2, let list = try? String(contentsOfFile: arguments[1], encoding: .utf8) else {
  FileHandle.standardError.write(Data("usage: trackc-parse-bench FILE-LIST\n".utf8))
  exit(64)
}
let paths = list.split(separator: "\n").map(String.init)
var bytes = 0
var tokens = 0
let start = ContinuousClock.now
for path in paths {
  guard let data = FileManager.default.contents(atPath: path) else { continue }
  bytes += data.count
  data.withUnsafeBytes { raw in
    let tree = Parser.parse(source: raw.bindMemory(to: UInt8.self))
    // Touch the result so that the parse cannot be optimised away.
    tokens &+= tree.endPosition.utf8Offset
  }
}
let elapsed = start.duration(to: .now)
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("files \(paths.count) bytes \(bytes) seconds \(seconds) check \(tokens)")
