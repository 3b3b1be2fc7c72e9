
/// A coding path kept as a linked list, so building it costs one small allocation per nested
/// container, and the array `codingPath` is only made when someone asks (errors, mostly).
final class CodingPath {
    let parent: CodingPath?
    let key: (any CodingKey)?

    /// The empty path, at the top of a document.
    static var root: CodingPath { CodingPath(parent: nil, key: nil) }

    private init(parent: CodingPath?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    /// This path extended by `key`.
    func appending(_ key: any CodingKey) -> CodingPath {
        CodingPath(parent: self, key: key)
    }

    /// The path as an array, outermost key first.
    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link: CodingPath? = self
        while let current = link, let key = current.key {
            keys.append(key)
            link = current.parent
        }
        return keys.reversed()
    }
}
