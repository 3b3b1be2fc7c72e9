import Domain
import Testing
import Wire
import TestTiers

/// The vocabulary's declarations against the documents' tables.
@Suite(.tags(.unit)) struct VocabularyTests {
    /// Who may publish each type, as docs/messages.md and docs/security.md list it, written out
    /// here on its own: a declaration that names another role fails here, not only in a flow.
    @Test func eachTypeIsPublishedByTheRolesTheDocumentsName() {
        let services: Set<Role> = [.presentationPolicy, .roster, .inputHandling]
        let tools: Set<Role> = [.gateway, .observer]
        let documented: [MessageType: Set<Role>] = [
            .tap: [.gateway], .rotate: [.gateway], .resize: [.gateway], .select: [.gateway], .interaction: [.gateway],
            .describe: tools, .forget: [.gateway], .forgotten: services,
            .presented: [.presentationPolicy], .hidden: [.presentationPolicy], .dismissed: [.presentationPolicy],
            .moved: [.presentationPolicy], .interactionChanged: [.presentationPolicy, .inputHandling], .unchanged: services,
            .outcome: [], .inputPassed: [.inputHandling], .mediaAddRequested: [.presentationPolicy],
            .colorSelected: [.presentationPolicy], .deviceLayout: [.presentationPolicy], .deviceState: [.presentationPolicy],
            .inputTap: [.presentationPolicy], .inputShown: [.inputHandling], .inputHidden: [.inputHandling],
            .weaponSelected: [.inputHandling], .inputState: [.inputHandling],
            .snapshotRequest: tools, .snapshot: [.roster], .rosterSelect: [.presentationPolicy], .selection: [.roster],
            .monsterUpdated: [.roster], .backupRequest: [.gateway], .backup: [.roster],
            .ping: Set(Role.allCases), .pong: services.union([.bus]), .heartbeat: services.union([.bus]),
            .statusRequest: tools, .statusReport: [.bus], .lossReport: tools, .ack: services, .error: services.union([.bus]),
            .replica: [.presentationPolicy, .inputHandling],
        ]
        #expect(Set(documented.keys) == Set(MessageType.allCases))
        for type in MessageType.allCases {
            #expect(type.spec.publishers == documented[type], "\(type.rawValue)")
        }
    }
}
