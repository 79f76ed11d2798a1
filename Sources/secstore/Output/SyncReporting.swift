import SecStoreSync

/// The JSON of sync's reports.
enum SyncReporting {
    static func json(_ report: SyncReport) -> JSONValue {
        .object(["pushed": .number(Int64(report.pushed)), "applied": .number(Int64(report.applied)),
                 "refused": .number(Int64(report.refused)), "conflicts": .number(Int64(report.conflicts)),
                 "revision": .number(report.revision)])
    }

    static func json(_ status: SyncStatus) -> JSONValue {
        var object: [String: JSONValue] = [
            "device": .string(status.deviceID), "circle": .string(status.circleID), "prefix": .string(status.prefix),
            "endpoints": .array(status.endpoints.map(JSONValue.string)), "awaitingApproval": .bool(status.awaitingApproval),
            "revision": .number(status.revision), "pending": .number(Int64(status.pending)),
            "records": .number(Int64(status.records)), "conflictCopies": .number(Int64(status.conflictCopies)),
        ]
        if let epoch = status.epoch { object["epoch"] = .number(Int64(epoch)) }
        if let members = status.members { object["devices"] = .array(members.map(JSONValue.string)) }
        if let isMember = status.isMember { object["isMember"] = .bool(isMember) }
        return .object(object)
    }
}
