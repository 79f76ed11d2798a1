import Foundation
import Testing

/// Files that are not what they should be at the store's or the device key's path.
@Suite("Bad files at the store and key paths") struct BadFilesTests {
    @Test("A FIFO at the device-key path is refused at once (status 8), not waited on forever")
    func fifoDeviceKey() throws {
        let store = try CLIStore.created()
        let real = store.file("device.key.real")
        try FileManager.default.moveItem(at: store.deviceKeyURL, to: real)
        #expect(mkfifo(store.deviceKeyURL.path, 0o600) == 0)
        let result = try store.run("list")
        #expect(result.status == Exit.unavailable, "\(result)")
        #expect(result.stderr.contains("is not a regular file"), "\(result.stderr)")
    }

    @Test("A FIFO or a symbolic link at the store path is refused with a message that says so")
    func fifoAndLinkStore() throws {
        let store = try CLIStore.created()
        let fifo = store.file("fifo.secstore")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let onFIFO = try CLI.run(["list", "--store", fifo.path, "--device-key", store.deviceKeyURL.path], home: store.directory)
        #expect(onFIFO.status == Exit.unavailable && onFIFO.stderr.contains("not a regular file"), "\(onFIFO)")

        let link = store.file("link.secstore")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store.storeURL)
        let onLink = try CLI.run(["list", "--store", link.path, "--device-key", store.deviceKeyURL.path], home: store.directory)
        #expect(onLink.status == Exit.unavailable && onLink.stderr.contains("is a symbolic link"), "\(onLink)")
    }

    @Test("A store file others can read (0644) is repaired to 0600 when opened")
    func exposedStoreIsRepaired() throws {
        let store = try CLIStore.created()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.storeURL.path)
        #expect(try store.run("list").status == Exit.success)
        let mode = try FileManager.default.attributesOfItem(atPath: store.storeURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
