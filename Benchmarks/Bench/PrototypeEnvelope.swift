// A measuring prototype (see PrototypeJSON.swift): the envelopes the benchmark exchanges —
// device.tap, presentation.presented/dismissed, ack — written and read by hand. The codec table
// checks that it writes exactly the bytes EnvelopeCodec writes and reads back equal envelopes,
// so the comparison is like for like. Other bodies are not covered (nil).

import MonsterKit

enum PrototypeEnvelope {
    // MARK: Writing, keys in sorted order (JSONEncoder's `.sortedKeys`)

    static func encode(_ envelope: Envelope) -> [UInt8]? {
        var w = PrototypeWriter(capacity: 1024)
        w.raw("{")
        w.key("body")
        switch envelope.body {
        case .tap(let tap): write(tap, &w)
        case .presented(let presented):
            w.raw("{"); w.key("presentation"); write(presented.presentation, &w)
            w.comma(); w.key("reason"); w.string(presented.reason); w.raw("}")
        case .dismissed(let dismissed):
            w.raw("{")
            if let button = dismissed.button { w.key("button"); w.string(button); w.comma() }
            if let index = dismissed.buttonIndex { w.key("buttonIndex"); w.integer(index); w.comma() }
            w.key("presentation"); write(dismissed.presentation, &w)
            w.comma(); w.key("reason"); w.string(dismissed.reason); w.raw("}")
        case .ack(let ack): write(ack, &w)
        default: return nil
        }
        w.comma(); w.key("correlationId"); w.string(envelope.correlationId)
        if let device = envelope.device { w.comma(); w.key("device"); w.string(device) }
        w.comma(); w.key("id"); w.string(envelope.id)
        w.comma(); w.key("seq"); w.integer(envelope.seq)
        w.comma(); w.key("service"); w.string(envelope.service)
        w.comma(); w.key("time"); w.string(envelope.time)
        w.comma(); w.key("type"); w.string(envelope.type.rawValue)
        w.comma(); w.key("v"); w.integer(envelope.version)
        w.raw("}")
        return w.bytes
    }

    private static func write(_ tap: Tap, _ w: inout PrototypeWriter) {
        w.raw("{")
        var first = true
        func separate(_ w: inout PrototypeWriter) { if !first { w.comma() }; first = false }
        if let element = tap.element { separate(&w); w.key("element"); w.string(element) }
        if let point = tap.point { separate(&w); w.key("point"); write(point, &w) }
        if let profile = tap.profile {
            separate(&w); w.key("profile")
            w.raw("{"); w.key("idiom"); w.string(profile.idiom.rawValue)
            w.comma(); w.key("orientation"); w.string(profile.orientation.rawValue)
            w.comma(); w.key("os"); w.string(profile.os.description)
            w.comma(); w.key("screen"); write(profile.screen, &w)
            w.comma(); w.key("widthClass"); w.string(profile.widthClass.rawValue); w.raw("}")
        }
        w.raw("}")
    }

    private static func write(_ p: Presentation, _ w: inout PrototypeWriter) {
        w.raw("{")
        if let anchor = p.anchor {
            w.key("anchor")
            w.raw("{"); w.key("element"); w.string(anchor.element)
            w.comma(); w.key("kind"); w.string(anchor.kind.rawValue)
            w.comma(); w.key("rect"); write(anchor.rect, &w); w.raw("}")
            w.comma()
        }
        w.key("arrowDirection"); w.integer(p.arrowDirection.rawValue)
        if let tip = p.arrowTip { w.comma(); w.key("arrowTip"); write(tip, &w) }
        w.comma(); w.key("buttonFrames"); w.array(p.buttonFrames) { write($1, &$0) }
        w.comma(); w.key("buttons"); w.array(p.buttons) { $0.string($1) }
        if let cancel = p.cancelButtonIndex { w.comma(); w.key("cancelButtonIndex"); w.integer(cancel) }
        w.comma(); w.key("content"); w.string(p.content.rawValue)
        w.comma(); w.key("contentSize"); write(p.contentSize, &w)
        w.comma(); w.key("frame"); write(p.frame, &w)
        if let message = p.message { w.comma(); w.key("message"); w.string(message) }
        w.comma(); w.key("passthrough"); w.array(p.passthrough) { $0.string($1) }
        if let permitted = p.permittedArrowDirections { w.comma(); w.key("permittedArrowDirections"); w.integer(permitted.rawValue) }
        w.comma(); w.key("style"); w.string(p.style.rawValue)
        w.raw("}")
    }

    private static func write(_ ack: Ack, _ w: inout PrototypeWriter) {
        w.raw("{"); w.key("duplicate"); w.bool(ack.duplicate)
        w.comma(); w.key("emitted"); w.array(ack.emitted) { $0.string($1) }
        w.comma(); w.key("forwarded")
        w.array(ack.forwarded) { w, forward in
            w.raw("{"); w.key("id"); w.string(forward.id); w.comma(); w.key("service"); w.string(forward.service); w.raw("}")
        }
        w.comma(); w.key("handled"); w.string(ack.handled)
        w.comma(); w.key("handledId"); w.string(ack.handledId)
        w.raw("}")
    }

    private static func write(_ rect: Rect, _ w: inout PrototypeWriter) {
        w.raw("{"); w.key("height"); w.number(rect.height)
        w.comma(); w.key("width"); w.number(rect.width)
        w.comma(); w.key("x"); w.number(rect.x)
        w.comma(); w.key("y"); w.number(rect.y); w.raw("}")
    }

    private static func write(_ size: Size, _ w: inout PrototypeWriter) {
        w.raw("{"); w.key("height"); w.number(size.height); w.comma(); w.key("width"); w.number(size.width); w.raw("}")
    }

    private static func write(_ point: Point, _ w: inout PrototypeWriter) {
        w.raw("{"); w.key("x"); w.number(point.x); w.comma(); w.key("y"); w.number(point.y); w.raw("}")
    }

    // MARK: Reading (a tree, then the model: a conservative stand-in for a streaming decoder)

    static func decode(_ bytes: [UInt8]) -> Envelope? {
        guard let json = PrototypeReader.parse(bytes), json["v"]?.int == Envelope.currentVersion,
              let typeName = json["type"]?.string, let type = MessageType(rawValue: typeName),
              let id = json["id"]?.string, let correlationId = json["correlationId"]?.string,
              let service = json["service"]?.string, let seq = json["seq"]?.uint64, let time = json["time"]?.string,
              let bodyJSON = json["body"] else { return nil }
        let body: Body
        switch type {
        case .tap:
            guard let tap = tap(bodyJSON) else { return nil }
            body = .tap(tap)
        case .presented:
            guard let presentation = presentation(bodyJSON["presentation"]), let reason = bodyJSON["reason"]?.string else { return nil }
            body = .presented(Presented(presentation: presentation, reason: reason))
        case .dismissed:
            guard let presentation = presentation(bodyJSON["presentation"]), let reason = bodyJSON["reason"]?.string else { return nil }
            body = .dismissed(Dismissed(presentation: presentation, reason: reason, button: bodyJSON["button"]?.string, buttonIndex: bodyJSON["buttonIndex"]?.int))
        case .ack:
            guard let ack = ack(bodyJSON) else { return nil }
            body = .ack(ack)
        default:
            return nil
        }
        return Envelope(id: id, correlationId: correlationId, service: service, device: json["device"]?.string, seq: seq, time: time, body: body)
    }

    private static func tap(_ json: PrototypeJSON) -> Tap? {
        var profile: DeviceProfile?
        if let p = json["profile"] {
            guard let idiom = p["idiom"]?.string.flatMap(Idiom.init(rawValue:)), let screen = size(p["screen"]),
                  let os = p["os"]?.string.flatMap(OSVersion.init), let orientation = p["orientation"]?.string.flatMap(Orientation.init(rawValue:)),
                  let width = p["widthClass"]?.string.flatMap(SizeClass.init(rawValue:)) else { return nil }
            profile = DeviceProfile(idiom: idiom, screen: screen, os: os, orientation: orientation, widthClass: width)
        }
        if let element = json["element"]?.string { return Tap(element: element, profile: profile) }
        if let point = point(json["point"]) { return Tap(point: point, profile: profile) }
        return nil
    }

    private static func presentation(_ json: PrototypeJSON?) -> Presentation? {
        guard let json, let style = json["style"]?.string.flatMap(PresentationStyle.init(rawValue:)),
              let content = json["content"]?.string.flatMap(PresentationContent.init(rawValue:)),
              let buttons = json["buttons"]?.array?.compactMap(\.string), let frames = json["buttonFrames"]?.array?.compactMap(rect),
              let arrow = json["arrowDirection"]?.uint64, let frame = rect(json["frame"]), let contentSize = size(json["contentSize"]),
              let passthrough = json["passthrough"]?.array?.compactMap(\.string) else { return nil }
        var anchor: Anchor?
        if let a = json["anchor"] {
            guard let kind = a["kind"]?.string.flatMap(Anchor.Kind.init(rawValue:)), let element = a["element"]?.string, let r = rect(a["rect"]) else { return nil }
            anchor = Anchor(kind: kind, element: element, rect: r)
        }
        return Presentation(
            style: style, content: content, message: json["message"]?.string, buttons: buttons, buttonFrames: frames,
            cancelButtonIndex: json["cancelButtonIndex"]?.int, anchor: anchor,
            permittedArrowDirections: json["permittedArrowDirections"]?.uint64.map(ArrowDirections.init(rawValue:)),
            arrowDirection: ArrowDirections(rawValue: arrow), arrowTip: point(json["arrowTip"]), frame: frame,
            contentSize: contentSize, passthrough: passthrough)
    }

    private static func ack(_ json: PrototypeJSON) -> Ack? {
        guard let handled = json["handled"]?.string, let handledId = json["handledId"]?.string,
              let emitted = json["emitted"]?.array?.compactMap(\.string), let forwarded = json["forwarded"]?.array,
              let duplicate = json["duplicate"]?.bool else { return nil }
        let forwards = forwarded.compactMap { f -> Forward? in
            guard let id = f["id"]?.string, let service = f["service"]?.string else { return nil }
            return Forward(id: id, service: service)
        }
        return Ack(handled: handled, handledId: handledId, emitted: emitted, forwarded: forwards, duplicate: duplicate)
    }

    private static func rect(_ json: PrototypeJSON?) -> Rect? {
        guard let json, let x = json["x"]?.double, let y = json["y"]?.double, let width = json["width"]?.double,
              let height = json["height"]?.double else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    private static func rect(_ json: PrototypeJSON) -> Rect? { rect(Optional(json)) }

    private static func size(_ json: PrototypeJSON?) -> Size? {
        guard let json, let width = json["width"]?.double, let height = json["height"]?.double else { return nil }
        return Size(width: width, height: height)
    }

    private static func point(_ json: PrototypeJSON?) -> Point? {
        guard let json, let x = json["x"]?.double, let y = json["y"]?.double else { return nil }
        return Point(x: x, y: y)
    }
}
