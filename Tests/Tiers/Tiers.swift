import Testing

/// The three tiers every suite is tagged with, cheapest first: `Scripts/test --fast` runs the
/// first two (the edit loop), `Scripts/test` runs all three.
extension Tag {
    /// Values in, values out: no file, socket or other process.
    @Tag public static var unit: Tag
    /// Within the test process: a whole stack on the in-memory bus, real ZeroMQ sockets, files in
    /// a temporary folder, or a shell the test asks one thing of.
    @Tag public static var inMemory: Tag
    /// Starts the project's executables, or etcd, Python or Chromium, as processes of their own.
    @Tag public static var processes: Tag
}
