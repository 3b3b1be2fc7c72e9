import Domain
import Wire

/// One body of every message type, for round trips and the rules that hold for every message.
public enum Samples {
    public static let popover = Presentation(
        style: .popover, content: .add, message: nil, buttons: ["Photo", "Audio"],
        buttonFrames: [Rect(x: 578, y: 97, width: 160, height: 37), Rect(x: 578, y: 147, width: 160, height: 37)],
        cancelButtonIndex: nil, anchor: Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
        permittedArrowDirections: .any, arrowDirection: .up, arrowTip: Point(x: 738, y: 64),
        frame: Rect(x: 558, y: 77, width: 200, height: 125), contentSize: Size(width: 200, height: 125),
        passthrough: ["navigation-bar", "add"])
    public static let alert = Presentation(
        style: .alert, content: .add, message: "Add…", buttons: ["Cancel", "Photo", "Audio"],
        buttonFrames: [], cancelButtonIndex: 0, anchor: nil, permittedArrowDirections: nil,
        arrowDirection: .unknown, arrowTip: nil, frame: Rect(x: 52.5, y: 233.5, width: 270, height: 200),
        contentSize: Size(width: 270, height: 200), passthrough: [])
    public static let keyboard = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)
    public static let picker = InputView(
        view: "weapon-picker", responder: "weapon", width: 768, height: 110,
        frame: Rect(x: 0, y: 914, width: 768, height: 110), buttons: ["fire", "close"],
        buttonFrames: [Rect(x: 200, y: 934, width: 70, height: 70), Rect(x: 696, y: 920, width: 64, height: 28)])
    public static let layout = DeviceLayout(
        orientation: .portrait, widthClass: .regular, window: Size(width: 768, height: 1024),
        elements: [LayoutElement(name: "add", kind: .barButton, title: "+", frame: Rect(x: 716, y: 20, width: 44, height: 44))])
    public static let heartbeat = Heartbeat(
        service: "roster", version: "0.1.0", pid: 42, uptimeSeconds: 1.5, intervalMilliseconds: 1000,
        counters: ["received": 3])

    public static let bodies: [Body] = [
        .tap(Tap(element: "add", profile: .ipad)),
        .tap(Tap(point: Point(x: 1.5, y: 2))),
        .rotate(Rotate(orientation: .landscape)),
        .resize(Resize(width: .compact, profile: .ipadLegacy)),
        .select(Select(monster: "Dog-Bot")),
        .interaction(Interaction(element: "weapon", enabled: false)),
        .describe(Describe(profile: .iphone)),
        .presented(Presented(presentation: popover, reason: "tap")),
        .presented(Presented(presentation: alert, reason: "rotation")),
        .hidden(Hidden(presentation: popover, reason: "rotation")),
        .dismissed(Dismissed(presentation: alert, reason: "button", button: "Cancel", buttonIndex: 0)),
        .moved(Moved(presentation: alert, reason: "rotation")),
        .interactionChanged(InteractionChanged(element: "blowgun", enabled: false, interactionDisabled: ["blowgun", "weapon"])),
        .unchanged(Unchanged(reason: "same-orientation", message: "the device is already in portrait")),
        .outcome(Outcome(action: "device.tap", result: .unchanged, reason: "empty-space", messages: 3)),
        .inputPassed(InputPassed(point: Point(x: -5, y: 10))),
        .resize(Resize(mode: .splitView)),
        .deviceLayout(DeviceLayout(
            orientation: .landscape, widthClass: .compact, window: Size(width: 320, height: 768), elements: [],
            mode: .slideOver, windowOrigin: Point(x: 704, y: 0))),
        .inputTap(InputTap(element: "notes", keyboard: KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768, left: -704))),
        .mediaAddRequested(MediaAddRequested(kind: .audio)),
        .colorSelected(ColorSelected(color: .green)),
        .deviceLayout(layout),
        .deviceState(DeviceState(profile: .ipad, layout: layout, presentation: popover, popoverArrowDirection: .up, interactionDisabled: ["weapon"])),
        .forget(Forget()),
        .forgotten(Forgotten(service: "roster", held: true)),
        .inputTap(InputTap(element: "fire", keyboard: keyboard)),
        .deviceLayout(DeviceLayout(
            orientation: .landscape, widthClass: .regular, window: Size(width: 1024, height: 768), elements: [],
            keyboard: keyboard, reason: "rotation")),
        .inputShown(InputShown(input: picker, created: true, reason: "first-responder")),
        .inputHidden(InputHidden(input: picker, reason: "closed")),
        .weaponSelected(WeaponSelected(weapon: .ninjaStar)),
        .inputState(InputState(firstResponder: nil, input: nil, weaponPickerCreated: false)),
        .snapshotRequest(SnapshotRequest()),
        .snapshot(RosterSnapshot(revision: 7, monsters: Catalogue.monsters, selected: "Cat-Bot", databaseId: "5b1e0c52-93a4-4c0e-8f57-0d1f8c2a6b11")),
        .rosterSelect(RosterSelect(monster: "Ice-Bot")),
        .selection(RosterSelection(monster: Catalogue.monsters[1], databaseId: "5b1e0c52-93a4-4c0e-8f57-0d1f8c2a6b11")),
        .monsterUpdated(MonsterUpdated(revision: 8, monster: Catalogue.monsters[1].with(weapon: .fire), change: "weapon", databaseId: "5b1e0c52-93a4-4c0e-8f57-0d1f8c2a6b11")),
        .backupRequest(BackupRequest(path: "/var/backups/roster.db")),
        .backup(BackupDone(path: "/var/backups/roster.db", revision: 8, databaseId: "5b1e0c52-93a4-4c0e-8f57-0d1f8c2a6b11")),
        .ping(Ping()),
        .pong(Pong(service: "bus", version: "0.1.0", pid: 1)),
        .heartbeat(heartbeat),
        .statusRequest(StatusRequest()),
        .lossReport(LossReport(missed: ["roster": 12, "bus": 3])),
        .statusReport(StatusReport(bus: heartbeat, services: [ServiceStatus(heartbeat: heartbeat, lastHeartbeatAgeMilliseconds: 12, stale: false)])),
        .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: ["b-1"], forwarded: [Forward(id: "b-1", service: "roster")])),
        .error(ErrorBody(code: "bad-json", message: "message is not JSON", offendingId: nil, excerpt: "{nope")),
        .replica(Replica(standby: "pp-b", owner: "pp-a", epoch: 41, sequence: 7, state: NestedValue(bytes: Array("{\"orientation\":\"landscape\",\"sizes\":[1,2.5,null]}".utf8)), recent: ["a-1"])),
        .replica(Replica(standby: "pp-b", owner: "pp-a", epoch: 41, sequence: 8, state: nil, recent: [])),
        // More of the types `DirectDecoding` reads, in their other forms.
        .tap(Tap(element: "add")),
        .rotate(Rotate(orientation: .portrait, profile: .iphone)),
        .resize(Resize(mode: .slideOver, profile: .ipad)),
        .select(Select(monster: "Cat-Bot", profile: .ipadLegacy)),
        .interaction(Interaction(element: "add", enabled: true, profile: .ipad)),
        .describe(Describe()),
        .dismissed(Dismissed(presentation: popover, reason: "outside-tap")),
        .inputTap(InputTap(element: "weapon", keyboard: keyboard)),
        .ack(Ack(handled: "input.tap", handledId: "c-1", emitted: [], forwarded: [], duplicate: true)),
    ]

    public static func envelope(_ body: Body, device: String? = "ipad") -> Envelope {
        Envelope(
            id: "id-1", correlationId: "id-0", service: "test", device: device, seq: 3, time: "2026-11-30T03:14:39.123Z",
            traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", parentSpan: "b7ad6b7169203331", body: body)
    }
}
