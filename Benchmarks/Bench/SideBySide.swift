// What `bench --throughput-only` and `bench --latency-cost` start from: a stack, the product's
// client and the raw client on it, and the shape of the product's answer for the raw echo.

import Domain
import ZeroMQ

/// A started stack with both clients connected, warmed up and the product's answer measured.
struct SideBySide {
    let stack: BenchStack
    /// The clients' ZeroMQ context (for more clients of the same run).
    let context: ZMQContext
    let product: ProductClient
    let raw: RawClient
    /// The sizes of the product's decision and ack, for a raw echo answering like the product.
    let shape: RawClient.Shape

    /// Starts a stack, connects both clients (the raw payload as large as the product's
    /// action), makes `warmUp` product round trips, and runs `body`; stops everything after.
    static func run<Result>(warmUp: Int, _ body: (SideBySide) throws -> Result) throws -> Result {
        let stack = try BenchStack()
        defer { stack.stop(keep: false) }
        let context = try ZMQContext()
        let product = try ProductClient(context: context, config: stack.config)
        defer { product.close() }
        try product.handshake(services: BenchStack.serviceNames, timeout: 20)
        let payload = try product.encodedAction()
        let raw = try RawClient(context: context, config: stack.config, payload: payload)
        defer { raw.close() }
        try raw.handshake(timeout: 20)
        for _ in 0..<max(1, warmUp) { _ = try product.roundTrip(device: "bench-ipad") }
        guard let decision = product.samples[.presented], let ack = product.samples[.ack] else {
            throw BenchError("no decision and ack from \(MonsterBus.Service.presentationPolicy) to shape the raw echo's answers")
        }
        let shape = RawClient.Shape(first: try product.bus.codec.encode(decision).count, second: try product.bus.codec.encode(ack).count)
        return try body(SideBySide(stack: stack, context: context, product: product, raw: raw, shape: shape))
    }
}
