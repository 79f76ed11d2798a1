import Foundation
import Testing
@testable import Etcd

extension EtcdTests {
    @Suite struct LineSplitter {
        @Test func linesAcrossChunksAndEmptyLinesSkipped() {
            let splitter = EtcdLineSplitter()
            #expect(splitter.append(Data("{\"a\"".utf8)).isEmpty)
            #expect(splitter.append(Data(":1}\n\n{\"b\":2}\n{\"c\"".utf8)) == [Data("{\"a\":1}".utf8), Data("{\"b\":2}".utf8)])
            #expect(splitter.append(Data(":3}".utf8)).isEmpty)
            #expect(splitter.rest() == Data("{\"c\":3}".utf8))
            #expect(splitter.rest() == nil)
        }
    }
}
