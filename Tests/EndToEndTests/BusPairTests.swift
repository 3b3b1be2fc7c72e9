import Domain
import Foundation
import Processes
import Testing
import Wire
import TestTiers

/// The bus as a pair (docs/scaling.md), through the real processes: two buses, every process
/// on both. Each message is handled once while both run; losing either (`kill -9`) loses no
/// acknowledged change and holds nothing up; a service or a gateway is ready with one bus down.
@Suite(.tags(.processes)) final class BusPairTests {
    /// Each service's last heartbeat counters, as `gateway --json status` reports them, once
    /// every one of `services` has sent one after `since`.
    func counters(_ stack: Stack, since: Date, services: [String] = Stack.services) throws -> [String: [String: Int]] {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            // The report is made after this: a heartbeat `age` old then arrived after `asked - age`.
            let asked = Date()
            let status = try stack.gateway(["--json", "status"])
            var fresh: [String: [String: Int]] = [:]
            for entry in value(status.body("sys.status"), "services") as? [[String: Any]] ?? [] {
                guard let name = value(entry, "heartbeat.service") as? String, let age = entry["lastHeartbeatAgeMilliseconds"] as? Int,
                      asked.addingTimeInterval(-Double(age + 1) / 1000) > since else { continue }
                fresh[name] = value(entry, "heartbeat.counters") as? [String: Int] ?? [:]
            }
            if services.allSatisfy({ fresh[$0] != nil }) { return fresh }
        }
        throw StackError("no heartbeat from \(services) after \(since)")
    }

    /// Waits until `client` (on both buses) and `services` are live through each bus on its own,
    /// with a probe on that bus alone: it sees the client's ping, hears `services` answer its own
    /// pings, and reaches the client. A process that has joined one bus may not have joined the
    /// other yet (the first pong to come proves one path), and what is sent meanwhile goes
    /// through the one only.
    func waitUntilLiveThroughEachBus(_ client: TestClient, _ stack: Stack, services: [String]) throws {
        for endpoints in stack.busEndpoints {
            let probe = try TestClient(stack, subscriptions: [MessageType.ping.rawValue], endpoints: endpoints)
            let deadline = Date().addingTimeInterval(15)
            var seen = false
            while !seen, Date() < deadline {
                let ping = try client.bus.publish(.ping(Ping()))
                seen = probe.waitFor(timeout: 0.05) { $0.id == ping.id } != nil
            }
            try #require(seen, "the client's messages never reached the bus at \(endpoints.frontend)")
            try #require(probe.waitForPath(to: services, timeout: 15), "\(services) never answered through \(endpoints.frontend)")
            var reached = false
            while !reached, Date() < deadline {
                let marker = try probe.bus.publish(.ack(Ack(handled: "sys.ping", handledId: "probe", emitted: [], forwarded: [])))
                reached = client.waitFor(timeout: 0.05) { $0.id == marker.id } != nil
            }
            try #require(reached, "the bus at \(endpoints.backend) never reached the client")
        }
    }

    /// The acknowledgements a gateway printed that answer a repeat, and the ids it printed more than once.
    func repeats(_ result: CommandResult) -> (duplicateAcks: Int, idsTwice: [String]) {
        let duplicates = result.messages("ack").filter { value($0, "body.duplicate") as? Bool == true }.count
        let ids = result.envelopes.compactMap { $0["id"] as? String }
        return (duplicates, Dictionary(grouping: ids) { $0 }.filter { $0.value.count > 1 }.map(\.key))
    }

    @Test func eachMessageIsHandledOnceWhileBothBusesRun() throws {
        let stack = try Stack(buses: .pair)
        #expect(stack.frontend.split(separator: ",").count == 2)
        for steps in [["ipad", "tap", "add"], ["ipad", "tap", "photo"], ["iphone", "tap", "add"], ["ipad", "select", "Dog-Bot"],
                      ["ipad", "tap", "weapon"], ["ipad", "tap", "fire"], ["ipad", "roster"]] {
            let result = try stack.gateway(["--json", "--device", steps[0]] + steps.dropFirst())
            #expect(result.status == 0, "\(steps): \(result.stderr)")
            let (duplicateAcks, idsTwice) = repeats(result)
            #expect(duplicateAcks == 0, "\(steps) printed an acknowledgement of a repeat")
            #expect(idsTwice.isEmpty, "\(steps) printed \(idsTwice) twice")
        }
        let done = Date()
        for (service, counted) in try counters(stack, since: done) {
            #expect(counted["duplicates"] == nil, "\(service) counted duplicates: \(counted)")
            // Each bus brought every message: one copy of each was dropped on receipt.
            #expect((counted["pairCopies"] ?? 0) > 0, "\(service) dropped no pair copy: \(counted)")
        }
    }

    /// A flow of acknowledged changes to the roster; `bus` is killed with -9 right after one is
    /// sent. Every change is acknowledged once, at its first sending; the roster holds each once.
    @Test(arguments: ProcessStack.pairNames)
    func killingEitherBusLosesNoAcknowledgedChangeAndHoldsNothingUp(bus: String) throws {
        let stack = try Stack(buses: .pair)
        let client = try TestClient(stack, subscriptions: ["ack"])
        try waitUntilLiveThroughEachBus(client, stack, services: Stack.services)
        let device = "pair-kill"
        let initial = try #require(value(try stack.json(device, "roster").body("roster.snapshot"), "revision") as? Int)
        let changes = 60
        var resent = 0, duplicates = 0
        var last = Weapon.sword
        for index in 0..<changes {
            let weapon = Weapon.allCases[index % Weapon.allCases.count]
            let change = client.bus.envelope(.weaponSelected(WeaponSelected(weapon: weapon)), device: device)
            var acknowledged = false
            while !acknowledged {
                try #require(resent < 5, "change \(index) never acknowledged")
                try client.bus.send(change)
                if index == 20 && resent == 0 { #expect(stack.stop(bus, signal: SIGKILL) != nil) }
                let ack = client.waitFor(timeout: 10) {
                    if case .ack(let ack) = $0.body { return ack.handledId == change.id && $0.service == MonsterBus.Service.roster }
                    return false
                }
                if case .ack(let body)? = ack?.body {
                    acknowledged = true
                    if body.duplicate { duplicates += 1 }
                } else {
                    resent += 1
                }
            }
            last = weapon
        }
        #expect(resent == 0, "changes sent again for want of an answer")
        #expect(duplicates == 0)
        #expect(stack.processes[bus]?.isRunning == false)
        // The gateway, its handshake and its actions, on the bus left.
        let snapshot = try #require(try stack.json(device, "roster").body("roster.snapshot"))
        #expect(snapshot["revision"] as? Int == initial + changes, "each change once: none lost, none doubled")
        let monsters = try #require(snapshot["monsters"] as? [[String: Any]])
        #expect(monsters.first { $0["name"] as? String == "Cat-Bot" }?["weapon"] as? String == last.name)
        let tap = try stack.json("ipad", "tap", "add")
        #expect(tap.status == 0, "\(tap.stderr)")
        #expect(tap.types == ["presentation.presented"])
        for (service, counted) in try counters(stack, since: Date()) {
            #expect(counted["duplicates"] == nil, "\(service) counted duplicates: \(counted)")
        }
    }

    /// A bus that hangs (SIGSTOP: its connections stay open, nothing answers) is left behind: with
    /// small queues (`BUS_HWM=100`) the services' copies for it would fill theirs at once and
    /// then hold every send; the connections' heartbeats close it instead, and every action of a
    /// steady flow is answered through the other bus, nothing given up.
    @Test func aBusThatHangsIsLeftBehindAndHoldsNothingUp() throws {
        let stack = try Stack(buses: .pair, environment: ["BUS_HWM": "100"])
        let client = try TestClient(stack, subscriptions: ["ack"])
        try waitUntilLiveThroughEachBus(client, stack, services: [MonsterBus.Service.presentationPolicy])
        let hung = try #require(stack.processes["bus"])
        hung.signal(SIGSTOP)
        defer { hung.signal(SIGKILL) }
        let total = 3000, window = 50
        var sent: Set<String> = [], answered: Set<String> = []
        let deadline = Date().addingTimeInterval(60)
        while answered.count < total, Date() < deadline {
            // At most `window` actions unanswered: no queue but the hung bus's fills up.
            if sent.count < total && sent.count - answered.count < window {
                let action = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "hung-\(sent.count % 30)")
                try client.bus.send(action)
                sent.insert(action.id)
                continue
            }
            if let envelope = client.next(until: Date().addingTimeInterval(1)), case .ack(let ack) = envelope.body,
               envelope.service == MonsterBus.Service.presentationPolicy, sent.contains(ack.handledId) {
                answered.insert(ack.handledId)
            }
        }
        #expect(answered.count == total, "answered \(answered.count) of \(total), sent \(sent.count); client copies \(client.bus.pairCopies) skips \(client.bus.pairSkips); \(stack.processes["presentation-policy"]?.stderr ?? "")\n\(stack.processes["bus-b"]?.stderr ?? "")")
        let counted = try counters(stack, since: Date())
        for (service, counters) in counted {
            #expect(counters["sendsDropped"] == 0, "\(service) gave up sends: \(counters)")
        }
        // The hung bus's queue did fill: presentation-policy's copies for it were skipped.
        #expect((counted[MonsterBus.Service.presentationPolicy]?["pairSkips"] ?? 0) > 0, "\(counted)")
    }

    /// The monitor on both buses counts each action once: two taps answered are two, not four,
    /// also once a later action's messages (after the taps' pair copies on each bus) have come.
    @Test func theMonitorCountsEachActionOnce() throws {
        let stack = try Stack(buses: .pair, environment: ["MONITOR_ADDRESS": "http://127.0.0.1:0"])
        let url = try MonitorCheck.start(in: stack)
        let ready = stack.processes["monitor"]?.waitForStderr(timeout: 15) { $0.contains("ready: heard its own ping") } ?? false
        #expect(ready, "the monitor never said it was ready")
        #expect(httpGet(url, "/healthz")?.status == 200, "the monitor never heard its own ping")
        #expect(try stack.gateway(["--device", "ipad", "tap", "add"]).status == 0)
        #expect(try stack.gateway(["--device", "ipad", "tap", "outside"]).status == 0)
        #expect(try stack.gateway(["--device", "ipad", "describe"]).status == 0)
        let tap = #"monsterbus_actions_total{action="device.tap",outcome="ok"}"#
        let tapTimes = #"monsterbus_action_round_trip_seconds_count{action="device.tap"}"#
        let describe = #"monsterbus_actions_total{action="device.describe",outcome="ok"}"#
        var samples: [String: String] = [:]
        // Each tap is complete at input-handling's acknowledgement too, and another publisher's
        // copy may reach the monitor after the describe's through the other bus: wait for all.
        func waitFor(describes: String) {
            let deadline = Date(timeIntervalSinceNow: 15)
            repeat {
                samples = MonitorTests.samples(httpGet(url, "/metrics")?.body ?? "")
            } while Date() < deadline && (samples[describe] != describes || samples[tap] != "2" || samples[tapTimes] != "2")
        }
        waitFor(describes: "1")
        #expect(samples[describe] == "1")
        #expect(samples[tap] == "2", "\(samples.filter { $0.key.hasPrefix("monsterbus_actions_total") })")
        #expect(samples[tapTimes] == "2")
        // One more action, after every copy of the taps' messages on each bus: still two taps.
        #expect(try stack.gateway(["--device", "ipad", "describe"]).status == 0)
        waitFor(describes: "2")
        #expect(samples[describe] == "2")
        #expect(samples[tap] == "2", "\(samples.filter { $0.key.hasPrefix("monsterbus_actions_total") })")
        #expect(samples[tapTimes] == "2")
    }

    /// On CURVE over TCP, both buses serve with the one bus certificate: every component checks
    /// both against the one `bus.key`, and goes on through either alone.
    @Test(arguments: ProcessStack.pairNames)
    func onCurveBothBusesShareTheBusCertificate(killing bus: String) throws {
        let keys = try KeysFolder()
        let stack = try Stack(curve: keys, buses: .pair)
        #expect(stack.frontend.split(separator: ",").allSatisfy { $0.hasPrefix("tcp://") })
        #expect(try stack.json("ipad", "tap", "add").types == ["presentation.presented"])
        #expect(stack.stop(bus, signal: SIGKILL) != nil)
        let after = try stack.json("ipad", "tap", "photo")
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.types == ["presentation.dismissed", "media.add.requested"])
    }

    /// Readiness needs one bus: with bus B down at the start, the services' own ping and the
    /// gateway's handshake go through bus A; bus B started later is joined, and bus A can then go.
    @Test func theServicesAndTheGatewayAreReadyWithOneBusDown() throws {
        let stack = try Stack(buses: .pairWithBusBDown)   // returns once every service answers
        let first = try stack.json("ipad", "tap", "add")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.types == ["presentation.presented"])
        try stack.startBus("bus-b")
        // With bus A gone, the services answer once they have joined bus B.
        #expect(stack.stop("bus", signal: SIGKILL) != nil)
        try stack.waitUntilAnswering(Stack.services)
        let second = try stack.json("ipad", "tap", "photo")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.types == ["presentation.dismissed", "media.add.requested"])
    }
}
