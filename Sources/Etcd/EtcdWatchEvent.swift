/// One change seen by a watch.
///
/// ```swift
/// switch event.kind { case .put: apply(event.keyValue) case .delete: remove(event.keyValue.key) }
/// ```
package struct EtcdEvent: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case put
        /// The key was deleted; `keyValue` holds the key and the delete's `modRevision` only.
        case delete
    }

    package var kind: Kind
    package var keyValue: EtcdKeyValue

    package init(kind: Kind, keyValue: EtcdKeyValue) {
        self.kind = kind
        self.keyValue = keyValue
    }

    init(_ wire: WireEvent) throws {
        guard let kv = wire.kv else { throw EtcdError.malformedResponse("a watch event without a key") }
        // The gateway leaves PUT (the enum's default) out; anything else unknown is not an
        // event this client can apply, and taking it as a put would report a change that is not.
        switch wire.type {
        case nil, "PUT": kind = .put
        case "DELETE": kind = .delete
        default: throw EtcdError.malformedResponse("a watch event of an unknown type")
        }
        keyValue = try EtcdKeyValue(kv)
    }
}

/// The events of one watch response, in revision order. An empty batch is a progress
/// notification: nothing was missed up to `revision`.
///
/// ```swift
/// for try await batch in client.watch(prefix: p, startRevision: applied + 1) {
///     for event in batch.events { apply(event) }
///     applied = batch.events.last?.keyValue.modRevision ?? batch.revision
/// }
/// ```
package struct EtcdWatchBatch: Sendable, Equatable {
    /// The store's revision when etcd sent this response. For an empty batch (a progress
    /// notification) every change up to it has been delivered; a batch with events may run
    /// ahead of them (a lagging watcher catching up gets the current revision with its first
    /// events), so what was delivered is up to its last event's `modRevision`.
    package var revision: Int64
    package var events: [EtcdEvent]

    package init(revision: Int64, events: [EtcdEvent]) {
        self.revision = revision
        self.events = events
    }
}
