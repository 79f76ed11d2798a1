import Foundation
import Testing
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// Concurrent changes end the same on every device (docs/sync.md, "Conflicts").
@Suite struct ConflictTests {
    @Test func concurrentEditsEndWithTheLatestModificationEverywhere() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("shared", "v1")
        try await circle.converge()
        // Both edit before either syncs; b's edit is the later one.
        try a.update("shared", "from-a")
        try await Task.sleep(for: .milliseconds(5))
        try b.update("shared", "from-b")
        try await a.syncNow()
        try await b.syncNow()
        try await circle.converge()
        #expect(try a.contents() == ["api/shared": "from-b"])
        #expect(try b.contents() == ["api/shared": "from-b"])
    }

    @Test func concurrentCreatesKeepTheFirstInEtcdAndTheOtherAsAConflictCopy() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("new", "a's")
        try b.add("new", "b's")
        try a.add("same", "equal")
        try b.add("same", "equal")
        try await a.syncNow()
        let report = try await b.syncNow()
        #expect(report.conflicts == 1)
        try await circle.converge()
        #expect(try a.contents() == ["api/new": "a's", "api/same": "equal"])
        // b keeps its own value beside the winner, no longer syncing, marked as a conflict copy.
        #expect(try b.contents() == ["api/new": "a's", "api/same": "equal", "api/new (local)": "b's"])
        #expect(await (try b.syncEngine).status().conflictCopies == 1)
    }

    @Test func aDeleteAndALaterEditEndWithTheEdit() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("contested", "v1")
        try await circle.converge()
        try a.delete("contested")
        try await Task.sleep(for: .milliseconds(5))
        try b.update("contested", "edited-after-delete")
        try await a.syncNow()
        try await b.syncNow()
        try await circle.converge()
        #expect(try a.contents() == ["api/contested": "edited-after-delete"])
        #expect(try b.contents() == ["api/contested": "edited-after-delete"])
    }

    @Test func anEditAndALaterDeleteEndWithTheDelete() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("contested", "v1")
        try await circle.converge()
        try b.update("contested", "edited")
        try await Task.sleep(for: .milliseconds(5))
        try a.delete("contested")
        try await b.syncNow()
        try await a.syncNow()
        try await circle.converge()
        #expect(try a.contents().isEmpty)
        #expect(try b.contents().isEmpty)
    }
}
