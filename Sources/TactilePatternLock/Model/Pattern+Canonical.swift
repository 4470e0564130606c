extension Pattern {
    /// Parses the written form, such as `1-5-9-6`: dot numbers 1…N² joined by `-`.
    ///
    /// A written pattern that jumps over an unselected dot is normalised the way a drag would
    /// be: on a 3×3 grid `1-3-6-9` becomes `1-2-3-6-9`. Spaces around the whole text and
    /// around each number are ignored.
    ///
    /// - Throws: ``PatternError/empty``, ``PatternError/notADotNumber(_:position:)``,
    ///   ``PatternError/dotOutOfRange(_:dotCount:)`` or ``PatternError/repeatedDot(position:)``.
    public init(canonical text: String, grid: PatternGrid = .standard) throws(PatternError) {
        let items = text.split(separator: "-", omittingEmptySubsequences: false)
        if items.count == 1, items[0].allSatisfy(\.isWhitespace) { throw .empty }
        var numbers: [Int] = []
        for (position, item) in items.enumerated() {
            let trimmed = item.trimmingWhitespace()
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(trimmed)
            else {
                throw .notADotNumber(String(item), position: position + 1)
            }
            guard (1...grid.dotCount).contains(number) else {
                throw .dotOutOfRange(number, dotCount: grid.dotCount)
            }
            numbers.append(number - 1)
        }
        try self.init(dots: numbers, grid: grid)
    }

    /// The written form: dot numbers from 1, row by row, joined by `-`, such as `1-5-9-6`.
    ///
    /// This is the pattern itself; do not print or log it.
    public var canonical: String {
        dots.map { String($0 + 1) }.joined(separator: "-")
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var s = self
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
