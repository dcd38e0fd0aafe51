import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

/// `GET /v1/config`: the document as it is, with an ETag, faults included.
@Suite struct RemoteConfigurationTests {
  static let document =
    #"{"version": 1, "destinations": {"firebase": {"enabled": true}, "mixpanel": {"enabled": false, "sampling": 0.5}}, "events": {"CTRL_HOME_FAV": {"sampling": 0.1}}}"#

  @Test func servesTheFileAsItIsAndItsChanges() async throws {
    let scratch = try ScratchDirectory("remote")
    defer { scratch.remove() }
    let path = try scratch.write("remote.json", Self.document)
    try await withCollector({ $0.remoteConfiguration = .file(path) }) { collector in
      let first = try #require(try await RawHTTPClient.get("/v1/config", port: collector.port))
      #expect(first.status == 200)
      #expect(first.body == Self.document)
      #expect(first.headers["Content-Type"] == ["application/json"])
      let tag = try #require(first.headers["ETag"].first)

      let head = try await RawHTTPClient.send(RawHTTPClient.request("HEAD", "/v1/config", headers: []), port: collector.port)
      #expect(head?.status == 200)
      #expect(head?.body == "")
      #expect(head?.headers["Content-Length"] == [String(Self.document.utf8.count)])

      let unchanged = try await RawHTTPClient.get("/v1/config", port: collector.port, headers: [("If-None-Match", tag)])
      #expect(unchanged?.status == 304)
      #expect(unchanged?.body == "")

      try scratch.write("remote.json", "not even JSON")
      let changed = try await RawHTTPClient.get("/v1/config", port: collector.port, headers: [("If-None-Match", tag)])
      #expect(changed?.status == 200)
      #expect(changed?.body == "not even JSON")
      #expect(changed?.headers["ETag"].first != tag)
    }
  }

  @Test func servesADocumentSetInCode() async throws {
    try await withCollector({ $0.remoteConfiguration = .document(Array(Self.document.utf8)) }) { collector async throws in
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.body == Self.document)
      collector.setRemoteConfiguration(.document(Array("{}".utf8)))
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.body == "{}")
      collector.setRemoteConfiguration(nil)
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.status == 404)
    }
  }

  @Test func withoutADocumentItIs404() async throws {
    try await withCollector { collector in
      let answer = try await RawHTTPClient.get("/v1/config", port: collector.port)
      #expect(answer?.status == 404)
      #expect(answer?.code == "no-remote-configuration")
    }
  }

  @Test func anUnreadableOrOversizedFileIs500() async throws {
    let scratch = try ScratchDirectory("remote")
    defer { scratch.remove() }
    let large = try scratch.write("large.json", String(repeating: " ", count: 2 << 20))
    try await withCollector({ $0.remoteConfiguration = .file(scratch.url.appendingPathComponent("missing.json").path) }) { collector in
      let answer = try await RawHTTPClient.get("/v1/config", port: collector.port)
      #expect(answer?.status == 500)
      #expect(answer?.code == "remote-configuration-unreadable")
      collector.setRemoteConfiguration(.file(large))
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.status == 500)
      collector.setRemoteConfiguration(.file(scratch.path))  // a directory
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.status == 500)
      let fifo = scratch.url.appendingPathComponent("fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      collector.setRemoteConfiguration(.file(fifo))  // would block a reader forever
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port)?.status == 500)
    }
  }

  @Test func faultsApplyToTheConfigurationToo() async throws {
    try await withCollector({
      $0.remoteConfiguration = .document(Array(Self.document.utf8))
      $0.faults.failStatus = 503
      $0.faults.retryAfterSeconds = 3
    }) { collector in
      let answer = try await RawHTTPClient.get("/v1/config", port: collector.port)
      #expect(answer?.status == 503)
      #expect(answer?.headers["Retry-After"] == ["3"])
    }
  }
}
