import ProcessSupport
import Runtime
import Testing
import TestTiers

/// `DEVICE_IDLE_EXPIRY_SECONDS`: a positive number of seconds, 30 days when unset.
@Suite(.tags(.inMemory)) struct DeviceIdleExpiryTests {
    @Test func unsetOrEmptyIsThirtyDaysAndAPositiveNumberIsTaken() throws {
        #expect(try DeviceIdleExpiry.parse(nil) == 30 * 24 * 3600)
        #expect(try DeviceIdleExpiry.parse("") == 30 * 24 * 3600)
        #expect(try DeviceIdleExpiry.parse("3") == 3)
        #expect(try DeviceIdleExpiry.parse("0.5") == 0.5)
    }

    @Test(arguments: ["soon", "0", "-5", "inf", "nan"])
    func anythingButAPositiveFiniteNumberIsAConfigurationError(_ text: String) {
        #expect(throws: ConfigError.self, "\(text)") { try DeviceIdleExpiry.parse(text) }
    }
}
