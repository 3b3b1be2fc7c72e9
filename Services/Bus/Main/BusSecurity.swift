import Dispatch
import Glibc
import ProcessSupport
import ZeroMQ

/// The bus's CURVE side. With `BUS_KEYS_DIR` set, its XSUB and XPUB sockets are CURVE servers
/// and a ZAP handler on its own thread admits only the clients in `authorized/` (re-read on
/// SIGHUP). Without it, everything is plaintext and the bus says so loudly.
final class BusSecurity {
    /// The ZAP domain the bus's sockets put their clients to.
    static let zapDomain = "monster-bus"

    private let curve: CurveSettings?
    private let log: Log
    /// The admitted keys and their roles (re-read on SIGHUP).
    let allowList = Locked(AllowList())
    /// The bus's own public key; nil in plaintext.
    var ownKey: CurveKey? { curve?.keys.publicKey }
    private var zapThread: OSThread?
    private var reloader: SignalWaker?

    /// Reads the allow-list (if CURVE is on); a missing or invalid `authorized/` is an error.
    init(config: BusConfig, log: Log) throws(ConfigError) {
        curve = config.curve
        self.log = log
        guard let curve, let folder = curve.authorizedDirectory else {
            log.warn("BUS_KEYS_DIR is not set: the bus runs in PLAINTEXT — no encryption, no authentication; anyone who can reach \(config.frontend) or \(config.backend) can read and inject every message (create keys with `gateway keys init DIR` and set BUS_KEYS_DIR)")
            reloader = SignalWaker(signals: [SIGHUP]) { _ in log.info("SIGHUP: nothing to reload in plaintext") }
            return
        }
        do {
            let (list, warnings) = try AllowList.load(folder: folder)
            for warning in warnings { log.warn(warning) }
            allowList.withLock { $0 = list }
        } catch {
            throw ConfigError("BUS_KEYS_DIR: \(error) (it holds the public certificates of the admitted clients)")
        }
        let names = allowList.current.names.values.sorted().joined(separator: ", ")
        log.info("CURVE on: server key \(curve.keys.publicKey.z85) (\(curve.certificatePath)); \(allowList.current.count) authorised client key(s) in \(folder): \(names)")
        if allowList.current.count == 0 { log.warn("no client is authorised: \(folder) has no .key file") }
    }

    /// Starts the ZAP handler in `context` and returns once it is bound, so that no client
    /// can connect before it is there to refuse it. Installs the SIGHUP reload, which calls
    /// `onReload` once the new allow-list is in place. No-op in plaintext.
    func start(context: ZMQContext, onReload: @escaping @Sendable () -> Void) throws {
        guard let curve, let folder = curve.authorizedDirectory else { return }
        let allowList = self.allowList, log = self.log, ownKey = curve.keys.publicKey
        let bindError = Locked<(any Error)?>(nil)
        let bound = DispatchSemaphore(value: 0)
        zapThread = OSThread {
            let authenticator = ZAPAuthenticator(allowList: allowList, ownKey: ownKey, authorizedDirectory: folder, log: log)
            var isBound = false
            do {
                try ZAP.serve(context: context, ready: { isBound = true; bound.signal() }, decide: authenticator.decide)
            } catch {
                guard isBound else {
                    bindError.withLock { $0 = error }
                    bound.signal()
                    return
                }
                // Without its ZAP handler libzmq would admit any CURVE client: stop the bus instead.
                log.error("ZAP handler stopped: \(error); stopping the bus")
                context.shutdown()
            }
        }
        bound.wait()
        if let error = bindError.current { throw error }
        reloader = SignalWaker(signals: [SIGHUP]) { _ in
            Self.reload(folder, into: allowList, log: log)
            onReload()
        }
    }

    /// Makes `socket` a CURVE server (before it binds). No-op in plaintext.
    func secure(_ socket: ZMQSocket) throws {
        guard let curve else { return }
        try socket.makeCurveServer(curve.keys, zapDomain: Self.zapDomain)
    }

    /// Waits for the ZAP handler to finish (after the context is shut down).
    func join() {
        zapThread?.join()
    }

    /// Re-reads the allow-list; keeps the old one if the folder cannot be read.
    private static func reload(_ folder: String, into allowList: Locked<AllowList>, log: Log) {
        do {
            let (list, warnings) = try AllowList.load(folder: folder)
            for warning in warnings { log.warn(warning) }
            allowList.withLock { $0 = list }
            log.info("SIGHUP: re-read \(folder): \(list.count) authorised client key(s): \(list.names.values.sorted().joined(separator: ", ")) (the connections of removed keys are closed)")
        } catch {
            log.error("SIGHUP: kept the previous allow-list: \(error)")
        }
    }
}
