import TactileHanoi

/// Independent truth for small puzzles: distances from a goal to every position, by
/// breadth-first search over positions held as peg arrays (no shared code with the solver).
struct BreadthFirstDistances {
    let disks: Int
    let pegs: Int
    private var distance: [[Int]: Int] = [:]

    init(disks: Int, pegs: Int, goal: [Int]) {
        self.disks = disks
        self.pegs = pegs
        distance[goal] = 0
        var frontier = [goal]
        while !frontier.isEmpty {
            var next: [[Int]] = []
            for state in frontier {
                let d = distance[state]!
                for neighbour in Self.neighbours(of: state, pegs: pegs)
                where distance[neighbour] == nil {
                    distance[neighbour] = d + 1
                    next.append(neighbour)
                }
            }
            frontier = next
        }
    }

    /// The fewest moves between `state` and the goal.
    func distance(from state: [Int]) -> Int? { distance[state] }

    /// Every position, as peg arrays (disk 1 first).
    static func allStates(disks: Int, pegs: Int) -> [[Int]] {
        var states: [[Int]] = [[]]
        for _ in 0..<disks {
            states = states.flatMap { s in (0..<pegs).map { s + [$0] } }
        }
        return states
    }

    static func neighbours(of state: [Int], pegs: Int) -> [[Int]] {
        var result: [[Int]] = []
        for from in 0..<pegs {
            guard let disk = state.firstIndex(of: from) else { continue }
            for to in 0..<pegs where to != from {
                let top = state.firstIndex(of: to)
                if top == nil || top! > disk {
                    var next = state
                    next[disk] = to
                    result.append(next)
                }
            }
        }
        return result
    }
}
