import Contract
import ProcessSupport

/// `gateway contract`: prints the AsyncAPI 3.0 document of the bus, generated from the
/// vocabulary (`Scripts/contract` writes it to docs/asyncapi.yaml).
enum ContractCommand {
    static func run() -> Int32 {
        do {
            print(try AsyncAPIDocument.yaml(), terminator: "")
            return ExitStatus.ok
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.refused
        }
    }
}
