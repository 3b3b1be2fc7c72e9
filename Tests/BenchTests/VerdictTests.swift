@testable import Bench
import Testing
import TestTiers

/// The bench's verdict: one JSON line with every figure in its order, callgrind's read from its
/// own JSON under the same keys; and the smoke profile `Scripts/test` runs.
@Suite(.tags(.unit)) struct VerdictTests {
    @Test func theJSONLineCarriesEveryFigureInOrderWithNullWhereCallgrindDidNotRun() {
        var m = Measurements(options: Options())
        m.rawLatency = [0.000_2, 0.000_2]
        m.productLatency = [0.000_3, 0.000_4]
        m.policyRSS = [10: 30, 100_000: 30.5]
        m.lost = 2
        #expect(Verdict(m).json == "{\"rtt_p50_ratio\":1.500, \"rtt_p99_ratio\":2.000, \"throughput_ratio_vs_two_answer_echo\":0.000, "
            + "\"instructions_ratio_vs_raw\":null, \"policy_instructions_per_action\":null, \"peer_instructions_per_action\":null, "
            + "\"p50_ratio_8_clients\":0.000, \"two_answer_echo_p50_ratio\":0.000, \"two_answer_echo_p50_ratio_8_clients\":0.000, "
            + "\"raw_p50_ratio_8_clients_vs_1\":0.000, \"peer_rtt_p50_ratio\":0.000, \"throughput_ratio\":0.000, \"scale_ratio_largest_vs_10\":0.000, "
            + "\"max_rss_mb\":0.0, \"bytes_per_idle_device\":5, \"sharded_1_ratio\":null, \"sharded_3_ratio\":null, "
            + "\"sharded_3_raw_ratio\":null, \"sharded_instructions_ratio\":null, \"sharded_actions_per_second\":[], \"weapon_tap_p50_us\":0.0, "
            + "\"weapon_tap_p99_us\":0.0, \"weapon_tap_p50_ratio\":0.000, \"weapon_tap_p99_ratio\":0.000, \"weapon_tap_hops\":0, \"lost\":2}")
    }

    @Test func theShardedRatiosAreTheRowsMediansAndCallgrindsOwn() {
        func run(_ rate: Double) -> Throughput {
            var run = Throughput()
            run.completed = Int(rate)
            run.seconds = 1
            return run
        }
        var m = Measurements(options: Options())
        m.sharded = ShardedRuns(
            unsharded: run(50_000), byInstances: [1: run(45_000), 2: run(30_000), 3: run(25_000)], ratios: [1: 0.9, 2: 0.6, 3: 0.5],
            rawRatios: [2: 0.55, 3: 0.45])
        m.callgrind = ("{\"policy_instructions_per_action\": 47000, \"sharded_instructions_ratio\": 2.181}", [])
        let verdict = Verdict(m)
        #expect(abs(verdict[.sharded1Ratio] - 0.9) < 1e-9)
        #expect(abs(verdict[.sharded3Ratio] - 0.5) < 1e-9)
        #expect(abs(verdict[.sharded3RawRatio] - 0.45) < 1e-9)
        #expect(abs(verdict[.shardedInstructionsRatio] - 2.181) < 1e-9)
        #expect(verdict.json.contains(
            "\"sharded_1_ratio\":0.900, \"sharded_3_ratio\":0.500, \"sharded_3_raw_ratio\":0.450, \"sharded_instructions_ratio\":2.181"))
        m.sharded.ratios = [:]
        #expect(Verdict(m).measured(.sharded1Ratio) == nil)
    }

    @Test func eightClientsAreComparedWithAsManyRawClientsAndTheBoundsWithLibzmqAloneInTheSameRun() {
        func run(_ seconds: Double) -> ConcurrentClients.Run { .init(latencies: [seconds]) }
        var m = Measurements(options: Options())
        m.rawLatency = [0.000_2]
        m.rawShapedLatency = [0.000_22]
        m.clients = [1: run(0.000_3), 8: run(0.000_5)]
        m.rawClients = [1: run(0.000_2), 8: run(0.000_4)]
        m.rawShapedClients = [1: run(0.000_22), 8: run(0.000_44)]
        let verdict = Verdict(m)
        #expect(abs(verdict[.p50Ratio8Clients] - 1.25) < 1e-9)
        #expect(abs(verdict[.twoAnswerEchoP50Ratio] - 1.1) < 1e-9)
        #expect(abs(verdict[.twoAnswerEchoP50Ratio8Clients] - 1.1) < 1e-9)
        #expect(abs(verdict[.raw8ClientsP50VersusOne] - 2.0) < 1e-9)
    }

    @Test func roundsOfOneKindOfConcurrentRunAddUp() {
        var total = ConcurrentClients.Run()
        total.add(.init(latencies: [1, 2], lost: 1, seconds: 0.5, cpu: ["bus": 0.25]))
        total.add(.init(latencies: [3], lost: 0, seconds: 1, cpu: ["bus": 0.5, "bench": 1]))
        #expect(total.latencies == [1, 2, 3] && total.lost == 1 && total.seconds == 1.5)
        #expect(total.cpu == ["bus": 0.75, "bench": 1])
    }

    @Test func callgrindsFiguresAreReadByTheirKeys() {
        var m = Measurements(options: Options())
        m.callgrind = ("{\"instructions_ratio_vs_raw\":2.41, \"policy_instructions_per_action\":48123, \"peer_instructions_per_action\":250000}", [])
        let verdict = Verdict(m)
        #expect(verdict.measured(.instructionsRatio) == 2.41)
        #expect(verdict.measured(.policyInstructions) == 48_123)
        #expect(verdict.measured(.peerInstructions) == 250_000)
        #expect(Verdict(Measurements(options: Options())).measured(.instructionsRatio) == nil)
    }

    @Test func theSmokeProfileTakesAFewSamplesOfEverythingWithoutCallgrind() throws {
        let options = try Options.parse(["--smoke"]).get()
        #expect(options.profile == "smoke")
        #expect(options.rounds == 1 && options.roundTrips == 50 && options.scales == [10, 100] && !options.callgrind)
        #expect(try Options.parse(["--smoke", "--weapon-tap-only"]).get().weaponTapOnly)
    }
}
