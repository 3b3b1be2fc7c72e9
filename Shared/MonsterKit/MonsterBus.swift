/// Facts about this build of Monster Bus.
public enum MonsterBus {
    /// The version every service reports in heartbeats and pongs.
    public static let version = "0.1.0"

    /// The service names, as they appear in envelopes and acknowledgements.
    public enum Service {
        public static let bus = "bus"
        public static let presentationPolicy = "presentation-policy"
        public static let roster = "roster"
        public static let inputHandling = "input-handling"
        public static let gateway = "gateway"
        /// The three services behind every device action.
        public static let all = [presentationPolicy, roster, inputHandling]
    }
}
