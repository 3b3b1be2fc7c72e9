import ZeroMQ

/// The CURVE public keys the bus admits, each with a name (its certificate's file name).
public struct AllowList: Sendable, Equatable {
    /// Each admitted key and its name.
    public private(set) var names: [CurveKey: String]

    /// An allow-list of `names`.
    public init(_ names: [CurveKey: String] = [:]) { self.names = names }

    /// The name of `key` if it is admitted.
    public func name(of key: CurveKey) -> String? { names[key] }

    /// How many keys are admitted.
    public var count: Int { names.count }

    /// The allow-list in `folder`: every public certificate (`NAME.key`) there, named `NAME`.
    /// Other files are ignored; a secret certificate there is reported in `warnings` (it does
    /// not belong in a folder of public keys). An unreadable or invalid `.key` file is an error.
    public static func load(folder: String) throws(CertificateError) -> (list: AllowList, warnings: [String]) {
        let entries: [String]
        do {
            entries = try TextFile.list(folder)
        } catch {
            throw CertificateError(error.description)
        }
        var names: [CurveKey: String] = [:]
        var warnings: [String] = []
        for entry in entries where !entry.hasPrefix(".") {
            let path = CurveSettings.join(folder, entry)
            if entry.hasSuffix(".key_secret") {
                warnings.append("\(path) is a secret certificate: only public certificates (.key) belong in \(folder); it is ignored, and should be removed")
            } else if entry.hasSuffix(".key") {
                let key = try Certificate.load(path).publicKey
                names[key] = names[key] ?? String(entry.dropLast(4))
            }
        }
        return (AllowList(names), warnings)
    }
}
