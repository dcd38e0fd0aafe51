import Dispatch

/// Decodes and checks screens while the YAML is still being parsed.
///
/// The parser hands over each screen as soon as its entry is complete (a snapshot of the document, safe
/// to read from another thread); a worker thread decodes batches of them and runs the screen rules, and
/// the cross-screen rules take the results in file order. When parsing ends, the parsing thread joins in
/// on what is left. The results are used only if they match what the whole document says afterwards
/// (same screens, same settings); otherwise `Linter` does the work again the ordinary way, so streaming
/// never changes a finding, only when it is found.
final class ScreenPipeline: YAMLEntryObserver, @unchecked Sendable {
  struct Batch {
    var screens: [TrackingConfig.Screen]
    var decodeDiagnostics: [Diagnostic]
    var ruleDiagnostics: [Diagnostic]
    var environment: RuleEnvironment.Fingerprint
  }

  private struct Job {
    let index: Int
    let document: YAMLDocument
    let pairs: [YAMLPair]
    let environment: RuleEnvironment
  }

  private static let batchSize = 32

  private let file: String
  private let lock = ConditionLock()

  // Parsing thread only.
  private var head = TrackingConfig()
  private var environment: RuleEnvironment
  private var pendingPairs: [YAMLPair] = []
  private var pendingDocument: YAMLDocument?
  private(set) var screenKeyRanges: [SourceRange] = []

  // Under `lock`.
  private var jobs: [Job] = []
  private var nextJob = 0
  private var batches: [Batch?] = []
  private var busyWorkers = 0
  private var finished = false
  private(set) var invalidated = false
  private var workerStarted = false
  private var workerDone = false

  // Under `sequenceLock`: the cross-screen rules, fed in order.
  private let sequenceLock = ConditionLock()
  private var sequenceCursor = 0
  private let sequenceCheckers = RuleCatalog.screenSequenceRules.map { $0.makeChecker() }
  private var sequenceContext: RuleContext

  init(file: String) {
    self.file = file
    environment = RuleEnvironment(TrackingConfig())
    sequenceContext = RuleContext(file: file)
  }

  // MARK: YAMLEntryObserver (parsing thread)

  func observesEntries(under path: [String]) -> Bool {
    path.isEmpty || path == ["screens"]
  }

  func wantsEntry(withKey key: UnsafeBufferPointer<UInt8>, under path: [String]) -> Bool {
    guard path.isEmpty else { return true }
    return ["conventions", "destinations", "defaults"].contains { key.elementsEqual($0.utf8) }
  }

  func entryCompleted(_ pair: YAMLPair, under path: [String], in document: YAMLDocument) {
    guard !invalidated else { return }
    if path.isEmpty {
      // A setting the screen rules depend on; its findings are reported by the final decode.
      var decoder = ConfigDecoder(file: file, document: document)
      decoder.decodeTopLevelEntry(pair, into: &head)
      environment = RuleEnvironment(head)
      return
    }
    screenKeyRanges.append(document.range(pair.key))
    pendingPairs.append(pair)
    pendingDocument = document
    if pendingPairs.count == Self.batchSize { submitPending() }
  }

  func snapshotsInvalidated() {
    lock.lock()
    invalidated = true
    jobs.removeAll()
    lock.broadcast()
    while busyWorkers > 0 { lock.wait() }
    lock.unlock()
  }

  private func submitPending() {
    guard let document = pendingDocument, !pendingPairs.isEmpty else { return }
    lock.lock()
    jobs.append(Job(index: batches.count, document: document, pairs: pendingPairs, environment: environment))
    batches.append(nil)
    if !workerStarted {
      workerStarted = true
      DispatchQueue.global().async { [self] in workerLoop() }
    }
    lock.broadcast()
    lock.unlock()
    pendingPairs.removeAll(keepingCapacity: true)
  }

  // MARK: Work

  private func workerLoop() {
    while let job = takeJob(waiting: true) { run(job) }
    lock.lock()
    workerDone = true
    lock.broadcast()
    lock.unlock()
  }

  private func takeJob(waiting: Bool) -> Job? {
    lock.lock()
    defer { lock.unlock() }
    while true {
      if invalidated { return nil }
      if nextJob < jobs.count {
        let job = jobs[nextJob]
        nextJob += 1
        busyWorkers += 1
        return job
      }
      if finished || !waiting { return nil }
      lock.wait()
    }
  }

  private func run(_ job: Job) {
    var decoder = ConfigDecoder(file: file, document: job.document)
    var context = RuleContext(file: file)
    var screens: [TrackingConfig.Screen] = []
    screens.reserveCapacity(job.pairs.count)
    for pair in job.pairs {
      guard let screen = decoder.screen(pair) else { continue }
      Linter.checkScreen(screen, in: job.environment, context: &context)
      screens.append(screen)
    }
    lock.lock()
    batches[job.index] = Batch(
      screens: screens, decodeDiagnostics: decoder.diagnostics, ruleDiagnostics: context.diagnostics,
      environment: job.environment.fingerprint)
    busyWorkers -= 1
    lock.broadcast()
    lock.unlock()
    feedSequenceRules()
  }

  /// Hands finished batches to the cross-screen rules, strictly in file order.
  private func feedSequenceRules() {
    sequenceLock.lock()
    defer { sequenceLock.unlock() }
    while true {
      lock.lock()
      let batch = sequenceCursor < batches.count ? batches[sequenceCursor] : nil
      lock.unlock()
      guard let batch else { return }
      for screen in batch.screens {
        for checker in sequenceCheckers { checker.check(screen, in: &sequenceContext) }
      }
      sequenceCursor += 1
    }
  }

  // MARK: End of parsing

  /// Submits what is left, helps the worker finish, and returns every batch in file order, with the
  /// cross-screen findings; nil when the snapshots were invalidated.
  func finish() -> (batches: [Batch], sequenceDiagnostics: [Diagnostic])? {
    submitPending()
    lock.lock()
    finished = true
    lock.broadcast()
    lock.unlock()
    while let job = takeJob(waiting: false) { run(job) }
    lock.lock()
    while busyWorkers > 0 || (workerStarted && !workerDone) { lock.wait() }
    let result = invalidated ? nil : batches.map { $0! }
    lock.unlock()
    feedSequenceRules()
    guard let result else { return nil }
    return (result, sequenceContext.diagnostics)
  }
}
