import Dispatch

/// Decodes a large config's screens on another core while the parser is still reading the file: the
/// receiving end of `YAMLMappingHandover`.
///
/// What it buys, measured (`Benchmarks/lint`, 6.0 MB config, 105,000 events, 2 cores, side by side with
/// the build before it): the screens' decoding (about 58 ms of CPU) runs while libyaml reads, and the
/// lint takes 140 ms instead of 166 (the README's "Performance"). Below `LintOptions.screenStreamingThreshold`
/// bytes it is not used: a thread's start and the copies cost more than they save there.
///
/// Batches are decoded in order on one serial queue; `finish()` waits for the last and returns what was
/// decoded, keyed by the value node of the pair in the finished document. `ConfigDecoder.decode` takes a
/// screen from here only when the pair matches; everything else it decodes itself, so the result never
/// depends on what was streamed.
final class ScreenStream: @unchecked Sendable {
  struct Decoded: Sendable {
    /// The pair's key in the finished document.
    let key: YAMLNodeID
    let screen: TrackingConfig.Screen?
    let problems: [ConfigProblem]
  }

  private let queue = DispatchQueue(label: "trackc.screen-stream")
  /// Touched only on `queue`.
  private var decoded: [YAMLNodeID: Decoded] = [:]

  var handover: YAMLMappingHandover {
    YAMLMappingHandover(key: "screens") { [self] batch in
      queue.async { self.decode(batch) }
    }
  }

  private func decode(_ batch: YAMLEntryBatch) {
    var decoder = ConfigDecoder(document: batch.document)
    for entry in batch.entries {
      decoder.problems.removeAll(keepingCapacity: true)
      let screen = decoder.screen(entry.pair)
      decoded[entry.original.value] = Decoded(key: entry.original.key, screen: screen, problems: decoder.problems)
    }
  }

  /// Waits for every batch handed over so far, and hands over the screens decoded from them (the stream
  /// keeps no reference, so the receiver can move them out without copying the table).
  func finish() -> [YAMLNodeID: Decoded] {
    queue.sync {
      defer { decoded = [:] }
      return decoded
    }
  }
}
