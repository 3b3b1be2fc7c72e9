/// Facts about this build of Monster Bus.
public enum MonsterBus {
    /// The version every service reports in heartbeats and pongs.
    public static let version = "0.1.0"

    /// The service names, as they appear in envelopes and acknowledgements.
    public enum Service {
        /// The bus process: the XSUB/XPUB proxy, which also answers pings and `sys.status.request`.
        public static let bus = "bus"
        /// The service that owns each device's layout, hit-testing, popovers and alerts.
        public static let presentationPolicy = "presentation-policy"
        /// The service that owns the monsters and each device's selection, stored in SQLite.
        public static let roster = "roster"
        /// The service that owns each device's first responder and input view.
        public static let inputHandling = "input-handling"
        /// The CLI that acts as a device: it sends actions and waits for their acks.
        public static let gateway = "gateway"
        /// The three services behind every device action.
        public static let all = [presentationPolicy, roster, inputHandling]
    }
}
