@testable import Bench
import Testing

/// The bench's verdict: one JSON line with every figure in its order, callgrind's read from its
/// own JSON under the same keys; and the smoke profile `Scripts/test` runs.
@Suite struct VerdictTests {
    @Test func theJSONLineCarriesEveryFigureInOrderWithNullWhereCallgrindDidNotRun() {
        var m = Measurements(options: Options())
        m.rawLatency = [0.000_2, 0.000_2]
        m.productLatency = [0.000_3, 0.000_4]
        m.policyRSS = [10: 30, 100_000: 30.5]
        m.lost = 2
        #expect(Verdict(m).json == "{\"rtt_p50_ratio\":1.500, \"rtt_p99_ratio\":2.000, \"throughput_ratio_vs_two_answer_echo\":0.000, "
            + "\"instructions_ratio_vs_raw\":null, \"policy_instructions_per_action\":null, \"peer_instructions_per_action\":null, "
            + "\"p50_ratio_8_clients\":0.000, \"peer_rtt_p50_ratio\":0.000, \"throughput_ratio\":0.000, \"scale_ratio_largest_vs_10\":0.000, "
            + "\"max_rss_mb\":0.0, \"bytes_per_idle_device\":5, \"sharded_actions_per_second\":[], \"weapon_tap_p50_us\":0.0, "
            + "\"weapon_tap_p99_us\":0.0, \"weapon_tap_p50_ratio\":0.000, \"weapon_tap_p99_ratio\":0.000, \"weapon_tap_hops\":0, \"lost\":2}")
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
