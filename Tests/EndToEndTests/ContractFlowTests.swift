import Domain
import Foundation
import Processes
import Testing
import Wire
import TestTiers

/// Python with what the contract checks need (`Scripts/test` installs them).
enum ContractPython {
    static let available: Bool = {
        let result = try? runToCompletion(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import zmq, yaml, jsonschema, asyncapi3, cloudevents"],
            environment: ProcessInfo.processInfo.environment)
        return result?.status == 0
    }()

    static let root = GatewayToolTests.root
    static let document = root.appendingPathComponent("docs/asyncapi.yaml").path
    static let checker = root.appendingPathComponent("Scripts/contract-check.py").path

    /// `contract-check.py ARGUMENTS…`, to completion.
    static func check(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CommandResult {
        try runToCompletion(URL(fileURLWithPath: "/usr/bin/env"), ["python3", checker] + arguments, environment: environment)
    }
}

/// The checked-in AsyncAPI document, read by tools that know nothing of the Swift code.
@Suite(.enabled(if: ContractPython.available, "needs python3 with pyzmq, pyyaml, jsonschema, asyncapi3, cloudevents (Scripts/test installs them)"), .tags(.processes))
struct ContractDocumentTests {
    @Test func theDocumentIsValidAsyncAPI3WithValidJSONSchemas() throws {
        let result = try ContractPython.check(["document", ContractPython.document])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("AsyncAPI 3.0.0 valid"))
    }

    @Test func aDocumentThatBreaksAsyncAPI3IsRefused() throws {
        // The validator really checks: an operation with a 2.x action is refused.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString.prefix(6)).yaml")
        defer { try? FileManager.default.removeItem(at: broken) }
        let text = try String(contentsOfFile: ContractPython.document, encoding: .utf8)
        try text.replacingOccurrences(of: "action: \"send\"", with: "action: \"publish\"").write(to: broken, atomically: true, encoding: .utf8)
        let result = try ContractPython.check(["document", broken.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("validation error"))
    }
}

/// Every message on the bus against the contract, trace context end to end, JSON logs and the
/// CloudEvents view, through the real processes.
@Suite(.serialized, .enabled(if: ContractPython.available, "needs python3 with pyzmq, pyyaml, jsonschema, asyncapi3, cloudevents (Scripts/test installs them)"), .tags(.processes))
final class ContractFlowTests {
    let stack: Stack

    init() throws { stack = try Stack(environment: ["LOG_FORMAT": "json"]) }

    /// Runs `contract-check.py collect` on the bus while `body` runs, then returns the envelopes
    /// it saw (each line one JSON frame as it was on the wire).
    func collecting(_ body: () throws -> Void) throws -> URL {
        let out = stack.folder.appendingPathComponent("bus-\(UUID().uuidString.prefix(6)).jsonl")
        let collector = try ChildProcess(
            name: "collector", executable: "/usr/bin/env",
            arguments: ["python3", ContractPython.checker, "collect", stack.backend, out.path, "contract-end", "120"],
            environment: ProcessInfo.processInfo.environment, logPath: stack.folder.appendingPathComponent("collector.log").path)
        // Heartbeats flow every 200 ms: the first one proves the collector's subscription is live.
        guard collector.waitForLine(timeout: 30, { $0 == "ready" ? true : nil }) == true else {
            throw StackError("the collector never received a message: \(collector.stderr)")
        }
        try body()
        // A last action: when its ack reaches the collector, everything before it has (one proxy, in order).
        let marker = try stack.gateway(["--device", "contract-end", "--profile", "ipad", "describe"])
        #expect(marker.status == 0, "\(marker.stderr)")
        #expect(collector.waitForExit(timeout: 30) == 0, "\(collector.stderr)")
        return out
    }

    @Test func everyEnvelopeOfEveryScenarioConformsToTheContract() throws {
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: ContractPython.root.appendingPathComponent("Scenarios").path)
            .filter { $0.hasSuffix(".scenario") }.sorted()
        #expect(scenarios.count >= 5)
        let collected = try collecting {
            for scenario in scenarios {
                let result = try stack.gateway(["run", ContractPython.root.appendingPathComponent("Scenarios/\(scenario)").path])
                #expect(result.status == 0, "\(scenario): \(result.stdout)\n\(result.stderr)")
            }
        }
        let result = try ContractPython.check(["validate", ContractPython.document, collected.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for type in ["device.tap", "device.rotate", "device.select", "presentation.presented", "presentation.dismissed", "input.shown", "input.weapon.selected", "roster.monster.updated", "ack", "sys.heartbeat", "sys.pong"] {
            #expect(result.stdout.contains(" \(type) "), "no \(type) was collected: \(result.stdout)")
        }

        // Every message an action caused carries the action's trace id, and a parent span within it.
        let envelopes = try String(contentsOf: collected, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        // An action causes itself (device.forgotten, an answer, is caused by device.forget).
        let actions = envelopes.filter { ($0["type"] as? String)?.hasPrefix("device.") == true && $0["correlationId"] as? String == $0["id"] as? String }
        #expect(actions.count > 10)
        for action in actions {
            let id = action["id"] as? String
            let traceparent = try #require(action["traceparent"] as? String, "an action without traceparent")
            let traceId = traceparent.split(separator: "-")[1]
            let caused = envelopes.filter { $0["correlationId"] as? String == id && $0["id"] as? String != id }
            #expect(!caused.isEmpty)
            let spans = Set(([action] + caused).compactMap { ($0["traceparent"] as? String)?.split(separator: "-")[2] })
            for message in caused {
                let text = message["traceparent"] as? String ?? ""
                #expect(text.split(separator: "-").count == 4 && text.split(separator: "-")[1] == traceId, "\(message["type"] ?? "") of \(id ?? "") has traceparent '\(text)'")
                #expect(spans.contains(Substring(message["parentSpan"] as? String ?? "")), "\(message["type"] ?? "")'s parent span is not in the action's trace")
            }
        }
    }

    @Test func traceOnAnActionPrintsTheTreeOfWhatItCausedWithPerHopLatencies() throws {
        let result = try stack.gateway(["--trace", "--device", "iphone", "tap", "add"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("trace ") })
        let traceId = String(header.split(separator: " ")[1])
        #expect(traceId.count == 32 && traceId.allSatisfy(\.isHexDigit))
        #expect(lines.contains { $0.hasPrefix("gateway device.tap ") && $0.contains(" sent ") })
        #expect(lines.contains { $0.hasPrefix("├─ presentation-policy presentation.presented ") && $0.contains(" ms ") })
        #expect(lines.contains { $0.hasPrefix("└─ presentation-policy ack ") && $0.contains(" ms ") })

        // A forwarded message's consequences hang under it, and the JSON messages carry the trace id.
        let weapon = try stack.gateway(["--json", "--trace", "--device", "ipad", "tap", "weapon"])
        #expect(weapon.status == 0, "\(weapon.stderr)")
        let weaponTrace = try #require(weapon.stdout.split(separator: "\n").first { $0.hasPrefix("trace ") }?.split(separator: " ")[1])
        #expect(weapon.envelopes.count == 5) // input.tap, input.shown, two acks, and the gateway's verdict
        for envelope in weapon.envelopes {
            #expect((envelope["traceparent"] as? String)?.split(separator: "-")[1] == weaponTrace)
        }
        let inputTap = try #require(weapon.messages("input.tap").first)
        let inputTapSpan = (inputTap["traceparent"] as? String)?.split(separator: "-")[2]
        #expect(weapon.messages("input.shown").first?["parentSpan"] as? String == inputTapSpan.map(String.init))
        #expect(weapon.stdout.contains("│  ├─ input-handling input.shown "))
    }

    @Test func jsonLogsAreOneOpenTelemetryRecordPerLineWithTheTraceOfEachMessage() throws {
        let result = try stack.gateway(["--json", "--device", "iphone", "tap", "add"])
        #expect(result.status == 0)
        let traceId = try #require((result.messages("presentation.presented").first?["traceparent"] as? String)?.split(separator: "-")[1])
        stack.stopAll()
        var spanLines: [String: Int] = [:]
        for (name, process) in stack.processes {
            let lines = process.stderr.split(separator: "\n")
            #expect(!lines.isEmpty, "\(name) logged nothing")
            for line in lines {
                let record = try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(name): not a JSON object: \(line)")
                #expect(Set(record.keys).isSuperset(of: ["Timestamp", "SeverityText", "SeverityNumber", "Body", "Resource", "Attributes"]), "\(line)")
                #expect((record["Resource"] as? [String: Any])?["service.name"] as? String == name)
                #expect(UInt64(record["Timestamp"] as? String ?? "") != nil)
                if let spanId = record["SpanId"] as? String, (record["Attributes"] as? [String: Any])?["device.id"] as? String == "iphone",
                   record["TraceId"] as? String == String(traceId) {
                    spanLines[name, default: 0] += 1
                    #expect(spanId.count == 16)
                    // presentation-policy's for the tap, input-handling's for the alert it read.
                    #expect(["span: handled device.tap", "span: handled presentation.presented"].contains { (record["Body"] as? String)?.hasPrefix($0) == true })
                    #expect((record["Attributes"] as? [String: Any])?["messaging.message.conversation_id"] as? String != nil)
                }
            }
        }
        // presentation-policy logs one span for the tap; input-handling one for the presentation it
        // read, unless it was stopped first (nobody waits for that read: `Routing.quietReaders`).
        #expect(spanLines[MonsterBus.Service.presentationPolicy] == 1, "\(spanLines)")
        #expect(spanLines[MonsterBus.Service.inputHandling] ?? 0 <= 1, "\(spanLines)")
        #expect(Set(spanLines.keys).isSubset(of: [MonsterBus.Service.presentationPolicy, MonsterBus.Service.inputHandling]), "\(spanLines)")
    }

    @Test func watchPrintsCloudEventsThatTheCloudEventsPackageReads() throws {
        let output = stack.folder.appendingPathComponent("cloudevents.out")
        let watch = try stack.startGateway(["--device", "ipad", "watch", "--format", "cloudevents", "--type", "presentation.", "--count", "2"], outputFile: output)
        #expect(watch.waitForLine(timeout: 10) { $0.hasPrefix("watching the bus") ? true : nil } == true)
        _ = try stack.json("ipad", "tap", "add")
        _ = try stack.json("ipad", "tap", "outside")
        #expect(watch.waitForExit(timeout: 10) == 0)
        let result = try ContractPython.check(["cloudevents", output.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 CloudEvents read and valid"))
        let events = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["type"] as? String } == ["presentation.presented", "presentation.dismissed"])
        #expect(events.allSatisfy { $0["subject"] as? String == "ipad" && $0["source"] as? String == "/monster-bus/presentation-policy" })
        #expect((events.first?["data"] as? [String: Any])?["reason"] as? String == "tap")
    }

    @Test func watchValidateFlagsAMessageThatBreaksTheContract() throws {
        let output = stack.folder.appendingPathComponent("validate.out")
        let watch = try stack.startGateway(["--json", "watch", "--validate", "--type", "device.", "--count", "2"], outputFile: output)
        #expect(watch.waitForLine(timeout: 10) { $0.hasPrefix("watching the bus") ? true : nil } == true)
        let client = try TestClient(stack, subscriptions: [])
        #expect(client.waitForPath(to: ["bus"]))
        let header = "\"v\":1,\"type\":\"device.tap\",\"correlationId\":\"t-1\",\"service\":\"test-client\",\"device\":\"ipad\",\"seq\":1,\"time\":\"2026-11-30T03:31:37.994Z\""
        try client.bus.sendRaw([Array("device.tap".utf8), Array("{\(header),\"id\":\"t-1\",\"body\":{\"element\":\"add\"}}".utf8)])
        // Read by the services (they ignore unknown keys) but not in the contract.
        try client.bus.sendRaw([Array("device.tap".utf8), Array("{\(header),\"id\":\"t-2\",\"body\":{\"element\":\"add\",\"force\":3}}".utf8)])
        #expect(watch.waitForExit(timeout: 10) == 1)
        let violations = watch.stderr.split(separator: "\n").filter { $0.hasPrefix("contract violation:") }
        #expect(violations.count == 1, "\(watch.stderr)")
        #expect(violations.first?.contains("device.tap t-2 from test-client: body.force: not in the contract") == true)
        #expect(watch.stderr.contains("1 message(s) broke the contract"))
    }

    @Test func aMalformedTraceparentIsRefusedWithAReasonAndChangesNothing() throws {
        let client = try TestClient(stack, subscriptions: ["error", "ack"])
        #expect(client.waitForPath(to: [MonsterBus.Service.presentationPolicy]))
        let json = "{\"v\":1,\"type\":\"device.tap\",\"id\":\"bad-trace-1\",\"correlationId\":\"bad-trace-1\",\"service\":\"test-client\",\"device\":\"ipad\",\"seq\":1,\"time\":\"2026-11-30T03:31:37.994Z\",\"traceparent\":\"00-not-a-trace-01\",\"body\":{\"element\":\"add\"}}"
        try client.bus.sendRaw([Array("device.tap".utf8), Array(json.utf8)])
        let refusal = client.waitFor { envelope in
            if case .error(let error) = envelope.body { return error.offendingId == "bad-trace-1" }
            return false
        }
        guard case .error(let error)? = refusal?.body else { Issue.record("no error for the malformed traceparent"); return }
        #expect(error.code == "bad-shape")
        #expect(error.message.contains("traceparent"))
        // Nothing was presented: the iPad still has no popover.
        let state = try stack.json("ipad", "describe")
        #expect(value(state.body("layout.state"), "presentation") == nil)
    }

    /// The example script on the Python test client (clients/python, here from its folder rather
    /// than installed: Scripts/python-client installs it in a fresh virtual environment): what it
    /// sends, and everything it causes, conforms to the contract.
    @Test func thePythonExampleDoesTheIPhonePlusFlowOnThePythonClientWithinTheContract() throws {
        var environment = stack.environment
        environment["EXAMPLE_DEVICE"] = "python-iphone"
        environment["PYTHONPATH"] = ContractPython.root.appendingPathComponent("clients/python").path
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        var result: CommandResult?
        let collected = try collecting {
            result = try runToCompletion(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", ContractPython.root.appendingPathComponent("examples/python/plus_flow.py").path],
                environment: environment)
        }
        let run = try #require(result)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("python-iphone: alert “Add…” with buttons Cancel, Photo, Audio"))
        #expect(run.stdout.contains("python-iphone: alert dismissed by Cancel (index 0)"))
        let sent = try String(contentsOf: collected, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"service\":\"python-client\"") }
        #expect(sent.count >= 2, "the collector saw no message from the Python client")
        let validation = try ContractPython.check(["validate", ContractPython.document, collected.path])
        #expect(validation.status == 0, "\(validation.stdout)\n\(validation.stderr)")
    }
}
