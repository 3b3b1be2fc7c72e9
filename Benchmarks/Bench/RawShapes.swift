// `bench --raw-shapes`: libzmq alone in each shape of replication (`RawWire.Replication`), 2
// and 3 echoes against one answering as the unsharded instance does, in the same turns: what
// the sharded row could reach in each shape if our code cost nothing (docs/scaling.md).

import ZeroMQ

enum RawShapes {
    /// Echo counts measured.
    static let counts = [2, 3]

    /// For each count and shape, `rounds` turns of `seconds` with `window` round trips in
    /// flight; one line per count and shape: the median ratio and each turn's.
    static func run(stack: BenchStack, seconds: Double, window: Int, rounds: Int) throws -> [String] {
        let context = try ZMQContext()
        // Messages as large as the product's: its action envelope, decision, acknowledgement, update.
        let product = try ProductClient(context: context, config: stack.config)
        defer { product.close() }
        let payload = try product.encodedAction()
        let reference = try RawDeployment(stack: stack, context: context, count: 0, payload: payload)
        defer { reference.stop() }
        var lines: [String] = []
        for count in counts {
            let shaped = try RawWire.Replication.allCases.map {
                ($0, try RawDeployment(stack: stack, context: context, count: count, payload: payload, replication: $0))
            }
            defer { for (_, deployment) in shaped { deployment.stop() } }
            var turns: [RawWire.Replication: [Double]] = [:]
            for _ in 0..<max(rounds, 1) {
                for (replication, deployment) in shaped {
                    let turn = try deployment.turn(against: reference, seconds: seconds, window: window)
                    turns[replication, default: []].append(turn.ratio)
                    progress("\(count) raw echoes, \(replication.rawValue): \(format(turn.run.rate, 0)) round trips/s; one echo just before: \(format(turn.echo.rate, 0))")
                }
            }
            for replication in RawWire.Replication.allCases {
                let ratios = turns[replication] ?? []
                lines.append("\(count) echoes, \(replication.rawValue): \(format(median(ratios), 3)) of one echo (turns \(ratios.map { format($0, 3) }.joined(separator: " ")))")
            }
        }
        return lines
    }
}
