import Foundation
import KeychainServices
import SecStore
import Glibc

extension Benchmark {
    // MARK: - Reads

    /// Per-read wall and thread-CPU time in nanoseconds: medians over the rounds of each
    /// round's mean.
    struct Time {
        var wall: Double
        var cpu: Double
    }

    struct ReadTimes {
        var baseline: Time
        var typed: Time
        var secItem: Time
        var secItemAttributes: Time
        var secItemReference: Time
        var baselineMiss: Time
        var typedMiss: Time
        var secItemMiss: Time
        /// `data(forAccount:service:)`, one round.
        var convenience: Double
    }

    /// Warms every side up (checking every secret and every miss), then times ``rounds``
    /// rounds of the same random reads on each side, one side after the other within a
    /// round, and one round of the one-line API.
    func timeReads(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws -> ReadTimes {
        // The same random order for every side; lookup keys, query strings and query
        // dictionaries are built up front so no timed loop pays for them.
        progress("[\(count(size)) items] preparing \(count(options.reads)) reads and misses per side…")
        let order = Workload.readOrder(count: options.reads, size: size, seed: Self.readSeed)
        let keys = order.flatMap(Workload.baselineKey)
        let missKeys = order.indices.flatMap { Workload.baselineKey(Self.missIndexBase + $0) }
        let queries = order.map { (service: Workload.service($0, size: size), account: Workload.account($0)) }
        // Absent accounts in the services that exist: a miss on the primary key.
        let misses = order.indices.map { (service: queries[$0].service, account: "absent-\($0)") }
        let secItemData = queries.map { SecItemWorkload.dataQuery(service: $0.service, account: $0.account) }
        let secItemAttributes = queries.map { SecItemWorkload.attributesAndDataQuery(service: $0.service, account: $0.account) }
        let secItemReferences = try workload.persistentReferences(order, size: size).map(SecItemWorkload.persistentReferenceQuery)
        let secItemMisses = misses.map { SecItemWorkload.dataQuery(service: $0.service, account: $0.account) }

        progress("[\(count(size)) items] warming up and checking \(count(Self.warmUpReads)) reads on each side…")
        for (number, index) in Workload.readOrder(count: Self.warmUpReads, size: size, seed: Self.warmUpSeed).enumerated() {
            try baseline.verify(index)
            try workload.verify(index, size: size)
            let service = Workload.service(index, size: size), account = Workload.account(index)
            var result: AnyObject?
            let status = SecItemCopyMatching(SecItemWorkload.dataQuery(service: service, account: account), &result)
            guard status == errSecSuccess, result as? Data == Data(Workload.secret(index)) else {
                throw BenchmarkError("SecItemCopyMatching: item \(index) read back a different secret (status \(status))")
            }
            let missKey = Workload.baselineKey(Self.missIndexBase + number)
            _ = try missKey.withUnsafeBufferPointer { try baseline.readMiss(key: $0.baseAddress!) }
            _ = try workload.readMiss(service: service, account: "absent-warm-\(number)")
            _ = try SecItemWorkload.readMiss(SecItemWorkload.dataQuery(service: service, account: "absent-warm-\(number)"))
        }
        // The other request shapes once each on the first few items of the order.
        for position in 0..<min(100, order.count) {
            let first = Workload.secret(order[position])[0]
            guard try SecItemWorkload.readAttributesAndData(secItemAttributes[position]) == first,
                  try SecItemWorkload.readData(secItemReferences[position]) == first else {
                throw BenchmarkError("SecItemCopyMatching: item \(order[position]) read back a different secret")
            }
        }

        progress("[\(count(size)) items] \(Self.rounds) rounds of \(count(options.reads)) random reads and misses on each side…")
        var rounds: [[(wall: UInt64, cpu: UInt64)]] = Array(repeating: [], count: 8)
        var sums = [UInt64](repeating: 0, count: 8)
        for _ in 0..<Self.rounds {
            // Each side in turn within a round, so drift (CPU frequency, page cache, other
            // load) hits every side alike.
            rounds[0].append(try keys.withUnsafeBufferPointer { buffer in
                try measureWallAndCPU {
                    var offset = 0
                    while offset < buffer.count {
                        sums[0] &+= UInt64(try baseline.read(key: buffer.baseAddress! + offset))
                        offset += Workload.keyByteCount
                    }
                }
            })
            rounds[1].append(try measureWallAndCPU {
                for query in queries { sums[1] &+= UInt64(try workload.read(service: query.service, account: query.account)) }
            })
            rounds[2].append(try measureWallAndCPU {
                for query in secItemData { sums[2] &+= UInt64(try SecItemWorkload.readData(query)) }
            })
            rounds[3].append(try measureWallAndCPU {
                for query in secItemAttributes { sums[3] &+= UInt64(try SecItemWorkload.readAttributesAndData(query)) }
            })
            rounds[4].append(try measureWallAndCPU {
                for query in secItemReferences { sums[4] &+= UInt64(try SecItemWorkload.readData(query)) }
            })
            rounds[5].append(try missKeys.withUnsafeBufferPointer { buffer in
                try measureWallAndCPU {
                    var offset = 0
                    while offset < buffer.count {
                        sums[5] &+= UInt64(try baseline.readMiss(key: buffer.baseAddress! + offset))
                        offset += Workload.keyByteCount
                    }
                }
            })
            rounds[6].append(try measureWallAndCPU {
                for miss in misses { sums[6] &+= UInt64(try workload.readMiss(service: miss.service, account: miss.account)) }
            })
            rounds[7].append(try measureWallAndCPU {
                for query in secItemMisses { sums[7] &+= UInt64(try SecItemWorkload.readMiss(query)) }
            })
        }
        var convenienceSum: UInt64 = 0
        let convenience = try measureNanoseconds {
            for query in queries {
                convenienceSum &+= UInt64(try workload.readConvenience(service: query.service, account: query.account))
            }
        }
        // Every pass read the same secrets (the sum of their first bytes proves it); every
        // miss pass counted one per lookup.
        let expectedPerPass = order.reduce(UInt64(0)) { $0 &+ UInt64(Workload.secret($1)[0]) }
        let rounds64 = UInt64(Self.rounds)
        for side in 0..<5 where sums[side] != expectedPerPass &* rounds64 {
            throw BenchmarkError("read side \(side): the timed reads returned different secrets than were stored")
        }
        for side in 5..<8 where sums[side] != UInt64(order.count) &* rounds64 {
            throw BenchmarkError("miss side \(side): a timed miss found something")
        }
        guard convenienceSum == expectedPerPass else {
            throw BenchmarkError("data(forAccount:service:) returned different secrets than were stored")
        }
        let reads = Double(order.count)
        func time(_ side: Int) -> Time {
            Time(wall: median(rounds[side].map { Double($0.wall) / reads }),
                 cpu: median(rounds[side].map { Double($0.cpu) / reads }))
        }
        return ReadTimes(baseline: time(0), typed: time(1), secItem: time(2), secItemAttributes: time(3),
                         secItemReference: time(4), baselineMiss: time(5), typedMiss: time(6), secItemMiss: time(7),
                         convenience: Double(convenience) / reads)
    }
}
