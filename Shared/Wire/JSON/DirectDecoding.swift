import Domain
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
        var (replyTo, sent) = (RecentText(), 0.0)
        return decode(json, replyTo: &replyTo, sent: &sent)
    }

    /// `decode(_:)`, its `replyTo` taken from `replyTo` when it is the same, and its `time` as
    /// seconds since 1970 in `sent` (parsed once, when checked) when it gives an envelope.
    static func decode(_ json: [UInt8], replyTo: inout RecentText, sent: inout Double) -> Envelope? {
        json.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return try? reader.envelope(replyTo: &replyTo, sent: &sent)
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
    /// Reads the object at the reader: `field` gets each key with the reader at its value, and
    /// consumes that value (`once`, `onceOrNull`, or `skipValue()` for a key it does not take).
    @inline(__always)
    mutating func fields(_ field: (inout JSONReader, Range<Int>) throws(NotDirect) -> Void) throws(NotDirect) {
        try enterObject()
        var first = true
        while let name = try nextKey(&first) { try field(&self, name) }
    }

    /// Reads a required member into `slot` with `read` when it is the first of its key; a repeated
    /// key's value is skipped (the first wins, as with `Decodable`).
    @inline(__always)
    mutating func once<T>(_ slot: inout T?, _ read: (inout JSONReader) throws(NotDirect) -> T) throws(NotDirect) {
        if slot == nil { slot = try read(&self) } else { try skipValue() }
    }

    /// Reads an optional member (`null` is absent) into `slot` when it is the first of its key,
    /// `seen` recording it; a repeated key's value is skipped.
    @inline(__always)
    mutating func onceOrNull<T>(
        _ seen: inout Bool, _ slot: inout T?, _ read: (inout JSONReader) throws(NotDirect) -> T
    ) throws(NotDirect) {
        if !seen { seen = true; slot = null() ? nil : try read(&self) } else { try skipValue() }
    }

    /// The array at the reader, each element read with `read`.
    @inline(__always)
    mutating func array<T>(_ read: (inout JSONReader) throws(NotDirect) -> T) throws(NotDirect) -> [T] {
        var list: [T] = []
        try enterArray()
        var first = true
        while try nextElement(&first) { list.append(try read(&self)) }
        return list
    }

    /// The envelope, checked as `Envelope.init(from:)` checks it; its `replyTo` taken from
    /// `recentReplyTo` when it is the same; its `time` as seconds since 1970 in `sent`.
    mutating func envelope(replyTo recentReplyTo: inout RecentText, sent: inout Double) throws(NotDirect) -> Envelope {
        var version: Int?, type: MessageType?
        var id: Range<Int>?, correlationId: Range<Int>?, service: Range<Int>?, seq: UInt64?, time: Range<Int>?
        var device: Range<Int>?, traceparent: Range<Int>?, parentSpan: Range<Int>?, replyTo: Range<Int>?
        var body: Body?, bodyStart: Int?
        // The optional members seen (null or not): the first of a repeated key wins.
        var seenDevice = false, seenTraceparent = false, seenParentSpan = false, seenReplyTo = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "v") {
                try r.once(&version) { r throws(NotDirect) in try r.integer() }
            } else if r.key(name, is: "type") {
                try r.once(&type) { r throws(NotDirect) in
                    guard let direct = DirectDecoding.directType(r, try r.plainString()) else { throw NotDirect() }
                    return direct
                }
            } else if r.key(name, is: "id") {
                try r.once(&id) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "correlationId") {
                try r.once(&correlationId) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "service") {
                try r.once(&service) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "device") {
                try r.onceOrNull(&seenDevice, &device) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "seq") {
                try r.once(&seq) { r throws(NotDirect) in try r.unsigned() }
            } else if r.key(name, is: "time") {
                try r.once(&time) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "traceparent") {
                try r.onceOrNull(&seenTraceparent, &traceparent) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "parentSpan") {
                try r.onceOrNull(&seenParentSpan, &parentSpan) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "replyTo") {
                try r.onceOrNull(&seenReplyTo, &replyTo) { r throws(NotDirect) in try r.plainString() }
            } else if r.key(name, is: "body") {
                if body != nil || bodyStart != nil {
                    try r.skipValue()
                } else if let type {
                    body = try r.body(type)
                } else {
                    bodyStart = r.position
                    try r.skipValue()
                }
            } else {
                try r.skipValue()
            }
        }
        guard atEnd(), version == Envelope.currentVersion, let type, let id, let correlationId, let service, let seq, let time
        else { throw NotDirect() }
        if body == nil, let bodyStart {
            var reader = JSONReader(bytes, at: bodyStart)
            body = try reader.body(type)
        }
        guard let body else { throw NotDirect() }
        // An action is its own correlation: its id's bytes are checked once, and one string holds both.
        let correlatedWithItself = same(correlationId, id)
        guard !id.isEmpty, isIdentifier(id), correlatedWithItself || !correlationId.isEmpty && isIdentifier(correlationId),
              !service.isEmpty, isIdentifier(service) else { throw NotDirect() }
        if let device, device.isEmpty || device.count > 64 || !isIdentifier(device) { throw NotDirect() }
        if let replyTo, replyTo.isEmpty || replyTo.count > 64 || !isIdentifier(replyTo)
            || bytes[replyTo].contains(Topic.separator) { throw NotDirect() }
        let timeText = text(time)
        guard let parsed = Timestamp.parse(timeText) else { throw NotDirect() }
        let traceparentText = traceparent.map(text)
        if let traceparentText, TraceContext(traceparent: traceparentText) == nil { throw NotDirect() }
        let parentSpanText = parentSpan.map(text)
        if let parentSpanText, !TraceContext.isSpanId(parentSpanText) { throw NotDirect() }
        let idText = text(id)
        let correlationIdText = correlatedWithItself ? idText : text(correlationId)
        sent = parsed
        return Envelope(
            id: idText, correlationId: correlationIdText, service: text(service), device: device.map(text), seq: seq,
            time: timeText, traceparent: traceparentText, parentSpan: parentSpanText,
            replyTo: replyTo.map { recentReplyTo.text(of: UnsafeBufferPointer(rebasing: bytes[$0])) }, body: body)
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
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "element") {
                try r.onceOrNull(&seenElement, &element) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "point") {
                try r.onceOrNull(&seenPoint, &point) { r throws(NotDirect) in try r.point() }
            } else if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        // Made whole by the initializer that fits (set member by member, it was copied twice).
        switch (element, point) {
        case (let element?, nil): return Tap(element: element, profile: profile)
        case (nil, let point?): return Tap(point: point, profile: profile)
        default:
            var tap = Tap(element: "", profile: profile)
            tap.element = element; tap.point = point
            return tap
        }
    }

    mutating func rotate() throws(NotDirect) -> Rotate {
        var orientation: Orientation?, profile: DeviceProfile?, seenProfile = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "orientation") {
                try r.once(&orientation) { r throws(NotDirect) in try r.enumeration(Orientation.self) }
            } else if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        guard let orientation else { throw NotDirect() }
        return Rotate(orientation: orientation, profile: profile)
    }

    mutating func resize() throws(NotDirect) -> Resize {
        var width: SizeClass?, mode: WindowMode?, profile: DeviceProfile?
        var seenMode = false, seenProfile = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "width") {
                try r.once(&width) { r throws(NotDirect) in try r.enumeration(SizeClass.self) }
            } else if r.key(name, is: "mode") {
                try r.onceOrNull(&seenMode, &mode) { r throws(NotDirect) in try r.enumeration(WindowMode.self) }
            } else if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        guard let width else { throw NotDirect() }
        var resize = Resize(width: width, profile: profile)
        resize.mode = mode
        return resize
    }

    mutating func select() throws(NotDirect) -> Select {
        var monster: String?, profile: DeviceProfile?, seenProfile = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "monster") {
                try r.once(&monster) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        guard let monster else { throw NotDirect() }
        return Select(monster: monster, profile: profile)
    }

    mutating func interaction() throws(NotDirect) -> Interaction {
        var element: String?, enabled: Bool?, profile: DeviceProfile?, seenProfile = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "element") {
                try r.once(&element) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "enabled") {
                try r.once(&enabled) { r throws(NotDirect) in try r.bool() }
            } else if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        guard let element, let enabled else { throw NotDirect() }
        return Interaction(element: element, enabled: enabled, profile: profile)
    }

    mutating func describe() throws(NotDirect) -> Describe {
        var profile: DeviceProfile?, seenProfile = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "profile") {
                try r.onceOrNull(&seenProfile, &profile) { r throws(NotDirect) in try r.profile() }
            } else {
                try r.skipValue()
            }
        }
        return Describe(profile: profile)
    }

    mutating func profile() throws(NotDirect) -> DeviceProfile {
        var idiom: Idiom?, screen: Size?, os: OSVersion?, orientation: Orientation?, widthClass: SizeClass?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "idiom") {
                try r.once(&idiom) { r throws(NotDirect) in try r.enumeration(Idiom.self) }
            } else if r.key(name, is: "screen") {
                try r.once(&screen) { r throws(NotDirect) in try r.size() }
            } else if r.key(name, is: "os") {
                try r.once(&os) { r throws(NotDirect) in
                    guard let version = OSVersion(try r.string()) else { throw NotDirect() }
                    return version
                }
            } else if r.key(name, is: "orientation") {
                try r.once(&orientation) { r throws(NotDirect) in try r.enumeration(Orientation.self) }
            } else if r.key(name, is: "widthClass") {
                try r.once(&widthClass) { r throws(NotDirect) in try r.enumeration(SizeClass.self) }
            } else {
                try r.skipValue()
            }
        }
        guard let idiom, let screen, let os, let orientation, let widthClass else { throw NotDirect() }
        return DeviceProfile(idiom: idiom, screen: screen, os: os, orientation: orientation, widthClass: widthClass)
    }

    // MARK: input.tap

    mutating func inputTap() throws(NotDirect) -> InputTap {
        var element: String?, keyboard: KeyboardMetrics?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "element") {
                try r.once(&element) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "keyboard") {
                try r.once(&keyboard) { r throws(NotDirect) in try r.keyboard() }
            } else {
                try r.skipValue()
            }
        }
        guard let element, let keyboard else { throw NotDirect() }
        return InputTap(element: element, keyboard: keyboard)
    }

    mutating func keyboard() throws(NotDirect) -> KeyboardMetrics {
        var width: Double?, systemHeight: Double?, windowHeight: Double?, left: Double?, seenLeft = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "width") {
                try r.once(&width) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "systemHeight") {
                try r.once(&systemHeight) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "windowHeight") {
                try r.once(&windowHeight) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "left") {
                try r.onceOrNull(&seenLeft, &left) { r throws(NotDirect) in try r.double() }
            } else {
                try r.skipValue()
            }
        }
        guard let width, let systemHeight, let windowHeight else { throw NotDirect() }
        return KeyboardMetrics(width: width, systemHeight: systemHeight, windowHeight: windowHeight, left: left ?? 0)
    }

    // MARK: ack

    mutating func ack() throws(NotDirect) -> Ack {
        var handled: String?, handledId: String?, emitted: [String]?, forwarded: [Forward]?, duplicate: Bool?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "handled") {
                try r.once(&handled) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "handledId") {
                try r.once(&handledId) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "emitted") {
                try r.once(&emitted) { r throws(NotDirect) in try r.strings() }
            } else if r.key(name, is: "forwarded") {
                try r.once(&forwarded) { r throws(NotDirect) in try r.array { r throws(NotDirect) in try r.forward() } }
            } else if r.key(name, is: "duplicate") {
                try r.once(&duplicate) { r throws(NotDirect) in try r.bool() }
            } else {
                try r.skipValue()
            }
        }
        guard let handled, let handledId, let emitted, let forwarded, let duplicate else { throw NotDirect() }
        return Ack(handled: handled, handledId: handledId, emitted: emitted, forwarded: forwarded, duplicate: duplicate)
    }

    mutating func forward() throws(NotDirect) -> Forward {
        var id: String?, service: String?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "id") {
                try r.once(&id) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "service") {
                try r.once(&service) { r throws(NotDirect) in try r.string() }
            } else {
                try r.skipValue()
            }
        }
        guard let id, let service else { throw NotDirect() }
        return Forward(id: id, service: service)
    }

    // MARK: Presentations

    mutating func presented() throws(NotDirect) -> Presented {
        var presentation: Presentation?, reason: String?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "presentation") {
                try r.once(&presentation) { r throws(NotDirect) in try r.presentation() }
            } else if r.key(name, is: "reason") {
                try r.once(&reason) { r throws(NotDirect) in try r.string() }
            } else {
                try r.skipValue()
            }
        }
        guard let presentation, let reason else { throw NotDirect() }
        return Presented(presentation: presentation, reason: reason)
    }

    mutating func dismissed() throws(NotDirect) -> Dismissed {
        var presentation: Presentation?, reason: String?, button: String?, buttonIndex: Int?
        var seenButton = false, seenIndex = false
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "presentation") {
                try r.once(&presentation) { r throws(NotDirect) in try r.presentation() }
            } else if r.key(name, is: "reason") {
                try r.once(&reason) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "button") {
                try r.onceOrNull(&seenButton, &button) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "buttonIndex") {
                try r.onceOrNull(&seenIndex, &buttonIndex) { r throws(NotDirect) in try r.integer() }
            } else {
                try r.skipValue()
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
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "style") {
                try r.once(&style) { r throws(NotDirect) in try r.enumeration(PresentationStyle.self) }
            } else if r.key(name, is: "content") {
                try r.once(&content) { r throws(NotDirect) in try r.enumeration(PresentationContent.self) }
            } else if r.key(name, is: "message") {
                try r.onceOrNull(&seenMessage, &message) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "buttons") {
                try r.once(&buttons) { r throws(NotDirect) in try r.strings() }
            } else if r.key(name, is: "buttonFrames") {
                try r.once(&buttonFrames) { r throws(NotDirect) in try r.array { r throws(NotDirect) in try r.rect() } }
            } else if r.key(name, is: "cancelButtonIndex") {
                try r.onceOrNull(&seenCancel, &cancelButtonIndex) { r throws(NotDirect) in try r.integer() }
            } else if r.key(name, is: "anchor") {
                try r.onceOrNull(&seenAnchor, &anchor) { r throws(NotDirect) in try r.anchor() }
            } else if r.key(name, is: "permittedArrowDirections") {
                try r.onceOrNull(&seenPermitted, &permitted) { r throws(NotDirect) in
                    ArrowDirections(rawValue: try r.unsigned())
                }
            } else if r.key(name, is: "arrowDirection") {
                try r.once(&arrowDirection) { r throws(NotDirect) in ArrowDirections(rawValue: try r.unsigned()) }
            } else if r.key(name, is: "arrowTip") {
                try r.onceOrNull(&seenTip, &arrowTip) { r throws(NotDirect) in try r.point() }
            } else if r.key(name, is: "frame") {
                try r.once(&frame) { r throws(NotDirect) in try r.rect() }
            } else if r.key(name, is: "contentSize") {
                try r.once(&contentSize) { r throws(NotDirect) in try r.size() }
            } else if r.key(name, is: "passthrough") {
                try r.once(&passthrough) { r throws(NotDirect) in try r.strings() }
            } else {
                try r.skipValue()
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
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "kind") {
                try r.once(&kind) { r throws(NotDirect) in try r.enumeration(Anchor.Kind.self) }
            } else if r.key(name, is: "element") {
                try r.once(&element) { r throws(NotDirect) in try r.string() }
            } else if r.key(name, is: "rect") {
                try r.once(&rect) { r throws(NotDirect) in try r.rect() }
            } else {
                try r.skipValue()
            }
        }
        guard let kind, let element, let rect else { throw NotDirect() }
        return Anchor(kind: kind, element: element, rect: rect)
    }

    // MARK: Geometry

    mutating func point() throws(NotDirect) -> Point {
        var x: Double?, y: Double?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "x") {
                try r.once(&x) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "y") {
                try r.once(&y) { r throws(NotDirect) in try r.double() }
            } else {
                try r.skipValue()
            }
        }
        guard let x, let y else { throw NotDirect() }
        return Point(x: x, y: y)
    }

    mutating func size() throws(NotDirect) -> Size {
        var width: Double?, height: Double?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "width") {
                try r.once(&width) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "height") {
                try r.once(&height) { r throws(NotDirect) in try r.double() }
            } else {
                try r.skipValue()
            }
        }
        guard let width, let height else { throw NotDirect() }
        return Size(width: width, height: height)
    }

    mutating func rect() throws(NotDirect) -> Rect {
        var x: Double?, y: Double?, width: Double?, height: Double?
        try fields { r, name throws(NotDirect) in
            if r.key(name, is: "x") {
                try r.once(&x) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "y") {
                try r.once(&y) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "width") {
                try r.once(&width) { r throws(NotDirect) in try r.double() }
            } else if r.key(name, is: "height") {
                try r.once(&height) { r throws(NotDirect) in try r.double() }
            } else {
                try r.skipValue()
            }
        }
        guard let x, let y, let width, let height else { throw NotDirect() }
        return Rect(x: x, y: y, width: width, height: height)
    }
}
