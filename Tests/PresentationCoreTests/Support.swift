import Domain
@testable import PresentationCore
import PresentationService

/// Drives a `PresentationCore` the way the bus adapter does, for tests.
struct Harness {
    var core = PresentationCore(memo: PresentationTables())

    mutating func send(_ device: String, _ action: PresentationAction) -> [Effect] {
        core.handle(device: device, action: action)
    }

    mutating func tap(_ device: String, _ element: String, profile: DeviceProfile? = nil) -> [Effect] {
        send(device, .tap(Tap(element: element, profile: profile ?? DeviceProfile.builtIn[device])))
    }

    /// A tap at `point` that no input view takes: the app's window hit-tests it.
    mutating func tap(_ device: String, at point: Point) -> [Effect] {
        send(device, .tap(Tap(point: point, profile: DeviceProfile.builtIn[device])))
    }

    mutating func rotate(_ device: String, _ orientation: Orientation) -> [Effect] {
        send(device, .rotate(Rotate(orientation: orientation, profile: DeviceProfile.builtIn[device])))
    }

    mutating func resize(_ device: String, _ width: SizeClass) -> [Effect] {
        send(device, .resize(Resize(width: width, profile: DeviceProfile.builtIn[device])))
    }

    mutating func select(_ device: String, _ name: String) -> [Effect] {
        send(device, .select(Select(monster: name, profile: DeviceProfile.builtIn[device])))
    }

    func presentation(_ device: String) -> Presentation? {
        core.devices[device]?.presentation
    }
}

/// The message types of `effects`, in order.
func types(_ effects: [Effect]) -> [MessageType] { effects.map(\.body.type) }

extension Effect {
    var presented: Presented? { if case .presented(let body) = self.body { body } else { nil } }
    var dismissed: Dismissed? { if case .dismissed(let body) = self.body { body } else { nil } }
    var hidden: Hidden? { if case .hidden(let body) = self.body { body } else { nil } }
    var unchanged: Unchanged? { if case .unchanged(let body) = self.body { body } else { nil } }
    var moved: Moved? { if case .moved(let body) = self.body { body } else { nil } }
    var errorBody: ErrorBody? { if case .error(let body) = self.body { body } else { nil } }
}
