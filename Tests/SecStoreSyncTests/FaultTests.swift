import Foundation
import Testing
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// Members and devices fail in the middle of sync; every device still converges to the
/// same items, `verify` stays clean, and no acknowledged local write is lost.
@Suite(.serialized) struct FaultTests {
    @Test func aMemberKilledAndRestartedDuringSync() async throws {
        let cluster = try await EtcdCluster.start(members: 3)
        defer { cluster.stop() }
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        for index in 0..<300 { try a.add("item-\(index)", "value-\(index)") }
        // The first endpoint, which every client tries first, dies while a pushes.
        let pushing = Task { try await a.syncNow() }
        try await Task.sleep(for: .milliseconds(30))
        cluster.kill(0)
        _ = try await pushing.value
        try b.add("while-down", "b")
        try await circle.converge()
        try await cluster.restart(0)
        try a.update("item-0", "after-restart")
        try await circle.converge()
        let expected = try a.contents()
        #expect(expected.count == 301)
        #expect(expected["api/item-0"] == "after-restart")
        #expect(try b.contents() == expected)
        #expect(try a.verifyIsClean() && b.verifyIsClean())
    }

    @Test func theLeaderKilled() async throws {
        let cluster = try await EtcdCluster.start(members: 3)
        defer { cluster.stop() }
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("before", "1")
        try await circle.converge()
        cluster.kill(try await cluster.leaderIndex())
        try a.add("during-election", "2")
        try b.update("before", "1-b")
        try await circle.converge()
        #expect(try a.contents() == ["api/before": "1-b", "api/during-election": "2"])
        #expect(try b.contents() == a.contents())
    }

    /// With every etcd member down, local writes still commit and wait in the journal; the
    /// pass fails with an etcd error and pushes them once etcd is back.
    @Test func localWritesGoOnWhileEtcdIsDownAndArePushedWhenItIsBack() async throws {
        let cluster = try await EtcdCluster.start(members: 3)
        defer { cluster.stop() }
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        for member in 0..<3 { cluster.kill(member) }
        try a.add("written-offline", "1")
        try a.update("written-offline", "2")
        await #expect(throws: SyncError.self) { try await a.syncNow() }
        // The push alone also ends with the error (it counted each change as failed and went
        // on, one retry window per change, when etcd was unreachable).
        try a.add("written-offline-2", "3")
        await #expect(throws: SyncError.self) { _ = try await (try a.syncEngine).push() }
        #expect(await (try a.syncEngine).status().pending == 2)
        // Together: a member alone has no quorum, so none would become ready.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for member in 0..<3 { group.addTask { try await cluster.restart(member) } }
            try await group.waitForAll()
        }
        try await circle.converge()
        #expect(try b.contents() == ["api/written-offline": "2", "api/written-offline-2": "3"])
        #expect(await (try a.syncEngine).status().pending == 0)
    }

    /// `secstore sync now` killed with SIGKILL while it applies: the store is whole, and the
    /// next pass converges (each chunk of records commits with the revision it reached).
    @Test func aDeviceKilledMidApply() async throws {
        let cluster = try await SharedCluster.cluster
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.addBulk(3000)
        try await a.syncNow()
        var killedMidway = false
        for delay in [150, 300, 600] where !killedMidway {
            let process = try SecstoreProcess.start(["--store", b.directory.storeURL.path, "--device-key",
                                                     b.directory.deviceKeyURL.path, "sync", "now"])
            try await Task.sleep(for: .milliseconds(delay))
            killedMidway = process.kill()
        }
        #expect(killedMidway, "no `sync now` was still running when killed")
        let reopened = try b.reopened()
        _ = try await reopened.syncNow()
        #expect(try b.contents() == a.contents())
        #expect(try b.verifyIsClean())
    }
}

/// A `secstore` process started in the background.
struct SecstoreProcess {
    let process: Process

    static func start(_ arguments: [String]) throws -> SecstoreProcess {
        let process = Process()
        process.executableURL = ProgramRun.productsDirectory.appending(path: "secstore")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        return SecstoreProcess(process: process)
    }

    /// Kills it with SIGKILL; returns whether it was still running.
    func kill() -> Bool {
        let running = process.isRunning
        if running { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return running
    }
}
