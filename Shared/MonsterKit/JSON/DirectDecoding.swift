/// The hottest envelopes read straight from their JSON bytes in one pass, without `Decodable`'s
/// containers or a tree: the header, and the bodies of the device actions (`device.tap`,
/// `rotate`, `resize`, `select`, `interaction`, `describe`, with their profile), `input.tap`,
/// `ack`, `presentation.presented` and `presentation.dismissed`. It accepts only what the
/// `Decodable` path accepts, with the same value (first of repeated keys, unknown keys
/// ignored); anything else — another type, an escape, an unusual number, any error — gives nil,
/// and the codec takes the `Decodable` path, which decides and explains. `EnvelopeCodecTests`,
/// `DirectDecodingTests` and the fuzzer hold the two paths to the same results.
enum DirectDecoding {
    /// The envelope in `json` (valid UTF-8) when it is valid and its body is one of the direct types; nil otherwise.
    static func decode(_ json: [UInt8]) -> Envelope? {
        json.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return try? reader.envelope()
        }
    }

    /// The message type named by the bytes of `range`, if it is one read directly.
    static func directType(_ reader: JSONReader, _ range: Range<Int>) -> MessageType? {
        if reader.key(range, is: "device.tap") { return .tap }
        if reader.key(range, is: "ack") { return .ack }
        if reader.key(range, is: "presentation.presented") { return .presented }
        if reader.key(range, is: "presentation.dismissed") { return .dismissed }
        if reader.key(range, is: "input.tap") { return .inputTap }
        if reader.key(range, is: "device.rotate") { return .rotate }
        if reader.key(range, is: "device.resize") { return .resize }
        if reader.key(range, is: "device.select") { return .select }
        if reader.key(range, is: "device.interaction") { return .interaction }
        if reader.key(range, is: "device.describe") { return .describe }
        return nil
    }
}

extension JSONReader {
    /// The envelope, checked as `Envelope.init(from:)` checks it.
    mutating func envelope() throws(NotDirect) -> Envelope {
        var version: Int?, type: MessageType?
        var id: Range<Int>?, correlationId: Range<Int>?, service: Range<Int>?, seq: UInt64?, time: Range<Int>?
        var device: Range<Int>?, traceparent: Range<Int>?, parentSpan: Range<Int>?, replyTo: Range<Int>?
        var body: Body?, bodyStart: Int?
        // The optional members seen (null or not): the first of a repeated key wins.
        var seenDevice = false, seenTraceparent = false, seenParentSpan = false, seenReplyTo = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "v") {
                if version == nil { version = try integer() } else { try skipValue() }
            } else if key(name, is: "type") {
                if type == nil {
                    guard let direct = DirectDecoding.directType(self, try plainString()) else { throw NotDirect() }
                    type = direct
                } else {
                    try skipValue()
                }
            } else if key(name, is: "id") {
                if id == nil { id = try plainString() } else { try skipValue() }
            } else if key(name, is: "correlationId") {
                if correlationId == nil { correlationId = try plainString() } else { try skipValue() }
            } else if key(name, is: "service") {
                if service == nil { service = try plainString() } else { try skipValue() }
            } else if key(name, is: "device") {
                if !seenDevice { seenDevice = true; device = null() ? nil : try plainString() } else { try skipValue() }
            } else if key(name, is: "seq") {
                if seq == nil { seq = try unsigned() } else { try skipValue() }
            } else if key(name, is: "time") {
                if time == nil { time = try plainString() } else { try skipValue() }
            } else if key(name, is: "traceparent") {
                if !seenTraceparent { seenTraceparent = true; traceparent = null() ? nil : try plainString() } else { try skipValue() }
            } else if key(name, is: "parentSpan") {
                if !seenParentSpan { seenParentSpan = true; parentSpan = null() ? nil : try plainString() } else { try skipValue() }
            } else if key(name, is: "replyTo") {
                if !seenReplyTo { seenReplyTo = true; replyTo = null() ? nil : try plainString() } else { try skipValue() }
            } else if key(name, is: "body") {
                if body != nil || bodyStart != nil {
                    try skipValue()
                } else if let type {
                    body = try self.body(type)
                } else {
                    bodyStart = position
                    try skipValue()
                }
            } else {
                try skipValue()
            }
        }
        guard atEnd(), version == Envelope.currentVersion, let type, let id, let correlationId, let service, let seq, let time
        else { throw NotDirect() }
        if body == nil, let bodyStart {
            var reader = JSONReader(bytes, at: bodyStart)
            body = try reader.body(type)
        }
        guard let body else { throw NotDirect() }
        guard !id.isEmpty, isIdentifier(id), !correlationId.isEmpty, isIdentifier(correlationId),
              !service.isEmpty, isIdentifier(service) else { throw NotDirect() }
        if let device, device.isEmpty || device.count > 64 || !isIdentifier(device) { throw NotDirect() }
        if let replyTo, replyTo.isEmpty || replyTo.count > 64 || !isIdentifier(replyTo)
            || bytes[replyTo].contains(Topic.separator) { throw NotDirect() }
        let timeText = text(time)
        guard Timestamp.parse(timeText) != nil else { throw NotDirect() }
        let traceparentText = traceparent.map(text)
        if let traceparentText, TraceContext(traceparent: traceparentText) == nil { throw NotDirect() }
        let parentSpanText = parentSpan.map(text)
        if let parentSpanText, !TraceContext.isSpanId(parentSpanText) { throw NotDirect() }
        return Envelope(
            id: text(id), correlationId: text(correlationId), service: text(service), device: device.map(text), seq: seq,
            time: timeText, traceparent: traceparentText, parentSpan: parentSpanText, replyTo: replyTo.map(text), body: body)
    }

    /// The body of a message of `type` (one of `DirectDecoding.directType`'s), at the reader.
    mutating func body(_ type: MessageType) throws(NotDirect) -> Body {
        switch type {
        case .tap: return .tap(try tap())
        case .ack: return .ack(try ack())
        case .presented: return .presented(try presented())
        case .dismissed: return .dismissed(try dismissed())
        case .inputTap: return .inputTap(try inputTap())
        case .rotate: return .rotate(try rotate())
        case .resize: return .resize(try resize())
        case .select: return .select(try select())
        case .interaction: return .interaction(try interaction())
        case .describe: return .describe(try describe())
        default: throw NotDirect()
        }
    }

    // MARK: Device actions

    mutating func tap() throws(NotDirect) -> Tap {
        var element: String?, point: Point?, profile: DeviceProfile?
        var seenElement = false, seenPoint = false, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "element"), !seenElement {
                seenElement = true; element = null() ? nil : try string()
            } else if key(name, is: "point"), !seenPoint {
                seenPoint = true; point = null() ? nil : try self.point()
            } else if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        var tap = Tap(element: "", profile: profile)
        tap.element = element; tap.point = point
        return tap
    }

    mutating func rotate() throws(NotDirect) -> Rotate {
        var orientation: Orientation?, profile: DeviceProfile?, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "orientation"), orientation == nil {
                orientation = try enumeration(Orientation.self)
            } else if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        guard let orientation else { throw NotDirect() }
        return Rotate(orientation: orientation, profile: profile)
    }

    mutating func resize() throws(NotDirect) -> Resize {
        var width: SizeClass?, mode: WindowMode?, profile: DeviceProfile?
        var seenMode = false, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "width"), width == nil {
                width = try enumeration(SizeClass.self)
            } else if key(name, is: "mode"), !seenMode {
                seenMode = true; mode = null() ? nil : try enumeration(WindowMode.self)
            } else if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        guard let width else { throw NotDirect() }
        var resize = Resize(width: width, profile: profile)
        resize.mode = mode
        return resize
    }

    mutating func select() throws(NotDirect) -> Select {
        var monster: String?, profile: DeviceProfile?, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "monster"), monster == nil {
                monster = try string()
            } else if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        guard let monster else { throw NotDirect() }
        return Select(monster: monster, profile: profile)
    }

    mutating func interaction() throws(NotDirect) -> Interaction {
        var element: String?, enabled: Bool?, profile: DeviceProfile?, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "element"), element == nil {
                element = try string()
            } else if key(name, is: "enabled"), enabled == nil {
                enabled = try bool()
            } else if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        guard let element, let enabled else { throw NotDirect() }
        return Interaction(element: element, enabled: enabled, profile: profile)
    }

    mutating func describe() throws(NotDirect) -> Describe {
        var profile: DeviceProfile?, seenProfile = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "profile"), !seenProfile {
                seenProfile = true; profile = null() ? nil : try self.profile()
            } else {
                try skipValue()
            }
        }
        return Describe(profile: profile)
    }

    mutating func profile() throws(NotDirect) -> DeviceProfile {
        var idiom: Idiom?, screen: Size?, os: OSVersion?, orientation: Orientation?, widthClass: SizeClass?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "idiom"), idiom == nil {
                idiom = try enumeration(Idiom.self)
            } else if key(name, is: "screen"), screen == nil {
                screen = try size()
            } else if key(name, is: "os"), os == nil {
                guard let version = OSVersion(try string()) else { throw NotDirect() }
                os = version
            } else if key(name, is: "orientation"), orientation == nil {
                orientation = try enumeration(Orientation.self)
            } else if key(name, is: "widthClass"), widthClass == nil {
                widthClass = try enumeration(SizeClass.self)
            } else {
                try skipValue()
            }
        }
        guard let idiom, let screen, let os, let orientation, let widthClass else { throw NotDirect() }
        return DeviceProfile(idiom: idiom, screen: screen, os: os, orientation: orientation, widthClass: widthClass)
    }

    // MARK: input.tap

    mutating func inputTap() throws(NotDirect) -> InputTap {
        var element: String?, point: Point?, keyboard: KeyboardMetrics?, interactionDisabled: [String]?
        var seenElement = false, seenPoint = false, seenDisabled = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "element"), !seenElement {
                seenElement = true; element = null() ? nil : try string()
            } else if key(name, is: "point"), !seenPoint {
                seenPoint = true; point = null() ? nil : try self.point()
            } else if key(name, is: "keyboard"), keyboard == nil {
                keyboard = try self.keyboard()
            } else if key(name, is: "interactionDisabled"), !seenDisabled {
                seenDisabled = true; interactionDisabled = null() ? nil : try strings()
            } else {
                try skipValue()
            }
        }
        guard let keyboard else { throw NotDirect() }
        var tap = InputTap(element: "", keyboard: keyboard, interactionDisabled: interactionDisabled)
        tap.element = element; tap.point = point
        return tap
    }

    mutating func keyboard() throws(NotDirect) -> KeyboardMetrics {
        var width: Double?, systemHeight: Double?, windowHeight: Double?, left: Double?, seenLeft = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "width"), width == nil {
                width = try double()
            } else if key(name, is: "systemHeight"), systemHeight == nil {
                systemHeight = try double()
            } else if key(name, is: "windowHeight"), windowHeight == nil {
                windowHeight = try double()
            } else if key(name, is: "left"), !seenLeft {
                seenLeft = true; left = null() ? nil : try double()
            } else {
                try skipValue()
            }
        }
        guard let width, let systemHeight, let windowHeight else { throw NotDirect() }
        return KeyboardMetrics(width: width, systemHeight: systemHeight, windowHeight: windowHeight, left: left ?? 0)
    }

    // MARK: ack

    mutating func ack() throws(NotDirect) -> Ack {
        var handled: String?, handledId: String?, emitted: [String]?, forwarded: [Forward]?, duplicate: Bool?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "handled"), handled == nil {
                handled = try string()
            } else if key(name, is: "handledId"), handledId == nil {
                handledId = try string()
            } else if key(name, is: "emitted"), emitted == nil {
                emitted = try strings()
            } else if key(name, is: "forwarded"), forwarded == nil {
                var list: [Forward] = []
                try enterArray()
                var firstElement = true
                while try nextElement(&firstElement) { list.append(try forward()) }
                forwarded = list
            } else if key(name, is: "duplicate"), duplicate == nil {
                duplicate = try bool()
            } else {
                try skipValue()
            }
        }
        guard let handled, let handledId, let emitted, let forwarded, let duplicate else { throw NotDirect() }
        return Ack(handled: handled, handledId: handledId, emitted: emitted, forwarded: forwarded, duplicate: duplicate)
    }

    mutating func forward() throws(NotDirect) -> Forward {
        var id: String?, service: String?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "id"), id == nil {
                id = try string()
            } else if key(name, is: "service"), service == nil {
                service = try string()
            } else {
                try skipValue()
            }
        }
        guard let id, let service else { throw NotDirect() }
        return Forward(id: id, service: service)
    }

    // MARK: Presentations

    mutating func presented() throws(NotDirect) -> Presented {
        var presentation: Presentation?, reason: String?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "presentation"), presentation == nil {
                presentation = try self.presentation()
            } else if key(name, is: "reason"), reason == nil {
                reason = try string()
            } else {
                try skipValue()
            }
        }
        guard let presentation, let reason else { throw NotDirect() }
        return Presented(presentation: presentation, reason: reason)
    }

    mutating func dismissed() throws(NotDirect) -> Dismissed {
        var presentation: Presentation?, reason: String?, button: String?, buttonIndex: Int?
        var seenButton = false, seenIndex = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "presentation"), presentation == nil {
                presentation = try self.presentation()
            } else if key(name, is: "reason"), reason == nil {
                reason = try string()
            } else if key(name, is: "button"), !seenButton {
                seenButton = true; button = null() ? nil : try string()
            } else if key(name, is: "buttonIndex"), !seenIndex {
                seenIndex = true; buttonIndex = null() ? nil : try integer()
            } else {
                try skipValue()
            }
        }
        guard let presentation, let reason else { throw NotDirect() }
        return Dismissed(presentation: presentation, reason: reason, button: button, buttonIndex: buttonIndex)
    }

    mutating func presentation() throws(NotDirect) -> Presentation {
        var style: PresentationStyle?, content: PresentationContent?, message: String?, buttons: [String]?
        var buttonFrames: [Rect]?, cancelButtonIndex: Int?, anchor: Anchor?, permitted: ArrowDirections?
        var arrowDirection: ArrowDirections?, arrowTip: Point?, frame: Rect?, contentSize: Size?, passthrough: [String]?
        var seenMessage = false, seenCancel = false, seenAnchor = false, seenPermitted = false, seenTip = false
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "style"), style == nil {
                style = try enumeration(PresentationStyle.self)
            } else if key(name, is: "content"), content == nil {
                content = try enumeration(PresentationContent.self)
            } else if key(name, is: "message"), !seenMessage {
                seenMessage = true; message = null() ? nil : try string()
            } else if key(name, is: "buttons"), buttons == nil {
                buttons = try strings()
            } else if key(name, is: "buttonFrames"), buttonFrames == nil {
                var list: [Rect] = []
                try enterArray()
                var firstElement = true
                while try nextElement(&firstElement) { list.append(try rect()) }
                buttonFrames = list
            } else if key(name, is: "cancelButtonIndex"), !seenCancel {
                seenCancel = true; cancelButtonIndex = null() ? nil : try integer()
            } else if key(name, is: "anchor"), !seenAnchor {
                seenAnchor = true; anchor = null() ? nil : try self.anchor()
            } else if key(name, is: "permittedArrowDirections"), !seenPermitted {
                seenPermitted = true; permitted = null() ? nil : ArrowDirections(rawValue: try unsigned())
            } else if key(name, is: "arrowDirection"), arrowDirection == nil {
                arrowDirection = ArrowDirections(rawValue: try unsigned())
            } else if key(name, is: "arrowTip"), !seenTip {
                seenTip = true; arrowTip = null() ? nil : try point()
            } else if key(name, is: "frame"), frame == nil {
                frame = try rect()
            } else if key(name, is: "contentSize"), contentSize == nil {
                contentSize = try size()
            } else if key(name, is: "passthrough"), passthrough == nil {
                passthrough = try strings()
            } else {
                try skipValue()
            }
        }
        guard let style, let content, let buttons, let buttonFrames, let arrowDirection, let frame, let contentSize,
              let passthrough else { throw NotDirect() }
        return Presentation(
            style: style, content: content, message: message, buttons: buttons, buttonFrames: buttonFrames,
            cancelButtonIndex: cancelButtonIndex, anchor: anchor, permittedArrowDirections: permitted,
            arrowDirection: arrowDirection, arrowTip: arrowTip, frame: frame, contentSize: contentSize, passthrough: passthrough)
    }

    mutating func anchor() throws(NotDirect) -> Anchor {
        var kind: Anchor.Kind?, element: String?, rect: Rect?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "kind"), kind == nil {
                kind = try enumeration(Anchor.Kind.self)
            } else if key(name, is: "element"), element == nil {
                element = try string()
            } else if key(name, is: "rect"), rect == nil {
                rect = try self.rect()
            } else {
                try skipValue()
            }
        }
        guard let kind, let element, let rect else { throw NotDirect() }
        return Anchor(kind: kind, element: element, rect: rect)
    }

    // MARK: Geometry

    mutating func point() throws(NotDirect) -> Point {
        var x: Double?, y: Double?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "x"), x == nil {
                x = try double()
            } else if key(name, is: "y"), y == nil {
                y = try double()
            } else {
                try skipValue()
            }
        }
        guard let x, let y else { throw NotDirect() }
        return Point(x: x, y: y)
    }

    mutating func size() throws(NotDirect) -> Size {
        var width: Double?, height: Double?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "width"), width == nil {
                width = try double()
            } else if key(name, is: "height"), height == nil {
                height = try double()
            } else {
                try skipValue()
            }
        }
        guard let width, let height else { throw NotDirect() }
        return Size(width: width, height: height)
    }

    mutating func rect() throws(NotDirect) -> Rect {
        var x: Double?, y: Double?, width: Double?, height: Double?
        try enterObject()
        var first = true
        while let name = try nextKey(&first) {
            if key(name, is: "x"), x == nil {
                x = try double()
            } else if key(name, is: "y"), y == nil {
                y = try double()
            } else if key(name, is: "width"), width == nil {
                width = try double()
            } else if key(name, is: "height"), height == nil {
                height = try double()
            } else {
                try skipValue()
            }
        }
        guard let x, let y, let width, let height else { throw NotDirect() }
        return Rect(x: x, y: y, width: width, height: height)
    }
}
