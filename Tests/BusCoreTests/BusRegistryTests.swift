import BusCore
import Domain
import Testing
import TestTiers

/// What the bus reports of the services it hears.
@Suite(.tags(.unit)) struct BusRegistryTests {
    func beat(_ service: String, interval: Int = 1000) -> Heartbeat {
        Heartbeat(service: service, version: "1", pid: 7, uptimeSeconds: 3, intervalMilliseconds: interval, counters: ["handled": 2])
    }

    @Test func aServiceIsStaleOnlyOnceThreeOfItsIntervalsHavePassed() {
        var registry = BusRegistry()
        registry.record(beat("roster", interval: 200), at: 100)
        #expect(registry.services(now: 100.6).first?.stale == false)
        #expect(registry.services(now: 100.6).first?.lastHeartbeatAgeMilliseconds == 600)
        #expect(registry.services(now: 100.601).first?.stale == true)
    }

    @Test func aNewHeartbeatMakesItFreshAgain() {
        var registry = BusRegistry()
        registry.record(beat("roster"), at: 0)
        #expect(registry.services(now: 10).first?.stale == true)
        registry.record(beat("roster"), at: 10)
        #expect(registry.services(now: 10.5).first?.stale == false)
        #expect(registry.services(now: 10.5).count == 1)
    }

    @Test func servicesAreListedByNameWithTheirLastHeartbeat() {
        var registry = BusRegistry()
        registry.record(beat("roster"), at: 1)
        registry.record(beat("input-handling"), at: 1)
        let services = registry.services(now: 1)
        #expect(services.map(\.heartbeat.service) == ["input-handling", "roster"])
        #expect(services.first?.heartbeat.counters == ["handled": 2])
    }
}
