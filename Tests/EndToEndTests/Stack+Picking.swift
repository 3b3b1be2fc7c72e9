import Testing

extension Stack {
    /// On the iPad, through the whole stack: selects `monster`, opens `picker` (`weapon` or
    /// `color`) and taps `choice` in it, expecting the first two steps to succeed; returns what
    /// the last tap printed.
    func pick(_ choice: String, from picker: String, for monster: String) throws -> CommandResult {
        #expect(try json("ipad", "select", monster).status == 0)
        #expect(try json("ipad", "tap", picker).status == 0)
        return try json("ipad", "tap", choice)
    }
}
