/// Bounds, broad phase (sort and sweep) and narrow phase (circles and convex polygons).
extension World {
    /// Extra distance within which contacts are found before they touch, points.
    static let contactMargin = 0.25

    /// Each body's reach and thinnest shape, from its shapes (which do not change until the
    /// world is built again).
    mutating func measureBodyExtents() {
        for i in bodies.indices {
            bodies[i].reach = 0
            bodies[i].inner = .infinity
        }
        for s in shapes.indices {
            let i = shapes[s].body
            bodies[i].reach = max(bodies[i].reach, shapes[s].reach)
            bodies[i].inner = min(bodies[i].inner, shapes[s].inner)
        }
    }

    /// Moves shapes to their bodies and recomputes their bounds, swept along the motion until
    /// the next detection; notes each body's velocities and drift limit for the drift check.
    mutating func updateShapes() {
        for i in bodies.indices { startDrift(i) }
        let sweep = self.h * Double(sweepSteps)
        let slack = reuseSlack
        for s in shapes.indices { bound(s, sweep: sweep, slack: slack) }
    }

    /// Notes body `i`'s velocities for the drift check, from now.
    @inline(__always)
    mutating func startDrift(_ i: Int) {
        let b = bodies[i]
        bodies[i].drift = 0
        bodies[i].detectedVelocity = b.velocity
        bodies[i].detectedAngularVelocity = b.angularVelocity
        // A body may also stray a quarter of its thickness (half its smallest inner radius),
        // at most a point: what that leaves unseen till the next detection is a shallow
        // overlap, pushed out from the right side.
        bodies[i].driftLimit = reuseSlack + min(0.5 * b.inner, 1)
    }

    /// Moves shape `s` to its body and sets its bounds: swept along the body's motion for
    /// `sweep` seconds (the start and end bounds and everything between), padded by the
    /// margin, the slack and the turn.
    @inline(__always)
    mutating func bound(_ s: Int, sweep: Double, slack: Double) {
        let i = shapes[s].body
        var motion = Vec2.zero
        var pad = World.contactMargin
        if bodies[i].isDynamic {
            motion = bodies[i].velocity * sweep
            pad += abs(bodies[i].angularVelocity) * shapes[s].reach * sweep + slack
        }
        let (lo, hi) = place(s)
        shapes[s].minX = lo.x + min(0, motion.x) - pad
        shapes[s].maxX = hi.x + max(0, motion.x) + pad
        shapes[s].minY = lo.y + min(0, motion.y) - pad
        shapes[s].maxY = hi.y + max(0, motion.y) + pad
    }

    /// Moves shape `s` to where its body is now (its centre, or its vertices and normals, in
    /// the world), leaving its bounds; the box around it there.
    @inline(__always)
    @discardableResult
    mutating func place(_ s: Int) -> (lo: Vec2, hi: Vec2) {
        let i = shapes[s].body
        let position = bodies[i].position
        let rotation = bodies[i].rotation
        if shapes[s].isCircle {
            let c = position + rotation.apply(shapes[s].center)
            shapes[s].worldCenter = c
            let r = Vec2(shapes[s].radius, shapes[s].radius)
            return (c - r, c + r)
        }
        var lo = Vec2(Double.infinity, Double.infinity)
        var hi = Vec2(-Double.infinity, -Double.infinity)
        let first = shapes[s].first
        for k in first..<(first + shapes[s].count) {
            let v = position + rotation.apply(localVertices[k])
            worldVertices[k] = v
            worldNormals[k] = rotation.apply(localNormals[k])
            lo = Vec2(min(lo.x, v.x), min(lo.y, v.y))
            hi = Vec2(max(hi.x, v.x), max(hi.y, v.y))
        }
        return (lo, hi)
    }

    /// Whether shapes `a` and `b` may collide at all.
    @inline(__always)
    func shouldCollide(_ a: Int, _ b: Int) -> Bool {
        let bodyA = shapes[a].body
        let bodyB = shapes[b].body
        if bodyA == bodyB { return false }
        if !bodies[bodyA].isDynamic && !bodies[bodyB].isDynamic { return false }
        if shapes[a].boundary >= 0 {
            return shapes[b].boundary < 0 && (shapes[b].boundaryBits & shapes[a].boundaryBits) != 0
        }
        if shapes[b].boundary >= 0 { return (shapes[a].boundaryBits & shapes[b].boundaryBits) != 0 }
        return (shapes[a].itemBits & shapes[b].itemBits) != 0
    }

    /// Whether the bounds of shapes `a` and `b` overlap.
    @inline(__always)
    func boundsOverlap(_ a: Int, _ b: Int) -> Bool {
        !(shapes[b].minX > shapes[a].maxX || shapes[b].maxX < shapes[a].minX
            || shapes[b].minY > shapes[a].maxY || shapes[b].maxY < shapes[a].minY)
    }

    /// Finds every contact for this step: sort and sweep on x for a few shapes, a uniform grid
    /// for many; then exact tests.
    mutating func findContacts() {
        contacts.removeAll(keepingCapacity: true)
        contactsMayImpact = false
        impactsMarked = false
        if shapes.count > 64 {
            findContactsOnGrid()
            return
        }
        if sortOrder.count != shapes.count {
            sortOrder.removeAll(keepingCapacity: true)
            sortOrder.append(contentsOf: shapes.indices)
        }
        // Insertion sort: the order barely changes between steps, so this is near linear.
        for i in 1..<max(1, sortOrder.count) {
            let key = sortOrder[i]
            let x = shapes[key].minX
            var j = i - 1
            while j >= 0 && shapes[sortOrder[j]].minX > x {
                sortOrder[j + 1] = sortOrder[j]
                j -= 1
            }
            sortOrder[j + 1] = key
        }
        for i in sortOrder.indices {
            let a = sortOrder[i]
            var j = i + 1
            while j < sortOrder.count {
                let b = sortOrder[j]
                if shapes[b].minX > shapes[a].maxX { break }
                j += 1
                if shapes[b].minY > shapes[a].maxY || shapes[b].maxY < shapes[a].minY { continue }
                guard shouldCollide(a, b) else { continue }
                // A fixed order inside the pair keeps results independent of the sort.
                if a < b { collide(a, b) } else { collide(b, a) }
            }
        }
    }

    /// The grid cell that holds the top-left corner of the overlap of shapes `a` and `b`'s
    /// bounds: both bounds cover it, so both shapes are listed there, and a pair is tested in
    /// that one cell only.
    @inline(__always)
    func overlapCorner(_ a: Int, _ b: Int) -> Int {
        grid.cell(max(shapes[a].minX, shapes[b].minX), max(shapes[a].minY, shapes[b].minY))
    }

    /// Grid broad phase: shapes no larger than four cells go into every cell their bounds
    /// touch (a counting sort, so no allocation once the arrays have grown); each pair is
    /// tested in the one cell holding the top-left corner of their bounds' overlap. Larger
    /// shapes (walls, long boundaries) are tested against every small shape's bounds.
    mutating func findContactsOnGrid() {
        grid.small.removeAll(keepingCapacity: true)
        grid.large.removeAll(keepingCapacity: true)
        var largest = 0.0
        var totalSize = 0.0
        var largestReach = 0.0
        var totalReach = 0.0
        var lo = Vec2(Double.infinity, Double.infinity)
        var hi = Vec2(-Double.infinity, -Double.infinity)
        for s in shapes.indices {
            let shape = shapes[s]
            let size = max(shape.maxX - shape.minX, shape.maxY - shape.minY)
            if shape.boundary >= 0 || !bodies[shape.body].isDynamic && size > 200 {
                grid.large.append(s)
                continue
            }
            grid.small.append(s)
            largest = max(largest, size)
            totalSize += size
            largestReach = max(largestReach, shape.reach)
            totalReach += shape.reach
            lo = Vec2(min(lo.x, shape.minX), min(lo.y, shape.minY))
            hi = Vec2(max(hi.x, shape.maxX), max(hi.y, shape.maxY))
        }
        if !grid.small.isEmpty {
            // Cells about the size of the largest small shape, at most a million of them. One
            // shape over three times the size of the average (a box dragged through a pit of
            // balls) would make every cell hold dozens of the small ones, each pair of which
            // is tested: then cells are twice the average bounds, or a quarter of the largest,
            // and the large shape spans a few. (Sizes as the shapes are, not as their motion
            // sweeps them, so that a scene of like shapes keeps its cells, and its order of
            // contacts, however they move.)
            let count = Double(grid.small.count)
            var cell = max(largest, 1e-3)
            if largestReach > 3 * totalReach / count {
                cell = max(2 * totalSize / count, largest / 4, 1e-3)
            }
            while ((hi.x - lo.x) / cell + 1) * ((hi.y - lo.y) / cell + 1) > 1_000_000 { cell *= 2 }
            grid.fill(
                shapes: shapes, origin: lo, cell: cell, columns: Int((hi.x - lo.x) / cell) + 1,
                rows: Int((hi.y - lo.y) / cell) + 1)
            for c in 0..<(grid.columns * grid.rows) {
                let start = grid.starts[c]
                let end = grid.starts[c + 1]
                guard end - start > 1 else { continue }
                for i in start..<(end - 1) {
                    let a = grid.entries[i]
                    for j in (i + 1)..<end {
                        let b = grid.entries[j]
                        guard boundsOverlap(a, b) else { continue }
                        // Only in the cell that holds the overlap's top-left corner.
                        guard overlapCorner(a, b) == c, shouldCollide(a, b) else { continue }
                        if a < b { collide(a, b) } else { collide(b, a) }
                    }
                }
            }
        }
        for largeIndex in grid.large.indices {
            let large = grid.large[largeIndex]
            for index in shapes.indices where index != large {
                guard boundsOverlap(large, index) else { continue }
                // Two large shapes meet once, from the lower index.
                if shapes[index].boundary >= 0
                    || (!bodies[shapes[index].body].isDynamic
                        && max(
                            shapes[index].maxX - shapes[index].minX,
                            shapes[index].maxY - shapes[index].minY) > 200)
                {
                    if index < large { continue }
                }
                guard shouldCollide(large, index) else { continue }
                if large < index { collide(large, index) } else { collide(index, large) }
            }
        }
    }

    /// The margin within which a pair's contact is kept: the most their relative motion can
    /// close until the next detection, plus slack.
    @inline(__always)
    func margin(_ a: Int, _ b: Int) -> Double {
        let i = shapes[a].body
        let j = shapes[b].body
        let movesA = bodies[i].isDynamic
        let movesB = bodies[j].isDynamic
        let vA = movesA ? bodies[i].velocity : .zero
        let vB = movesB ? bodies[j].velocity : .zero
        let wA = movesA ? abs(bodies[i].angularVelocity) : 0
        let wB = movesB ? abs(bodies[j].angularVelocity) : 0
        let reach =
            ((vB - vA).length + wA * shapes[a].reach + wB * shapes[b].reach) * h
            * Double(sweepSteps)
        return reach + World.contactMargin + (movesA ? reuseSlack : 0) + (movesB ? reuseSlack : 0)
    }

    mutating func collide(_ a: Int, _ b: Int) {
        let margin = self.margin(a, b)
        let isCircleA = shapes[a].isCircle
        let isCircleB = shapes[b].isCircle
        if isCircleA && isCircleB {
            // The test below on the gap, made before building the contact: the same
            // arithmetic on the same centres, so it rejects exactly the pairs it would.
            let gap =
                (shapes[b].worldCenter - shapes[a].worldCenter).length - shapes[a].radius
                - shapes[b].radius
            guard gap <= margin else { return }
        }
        // Built in place at the end of the list, and dropped again if nothing is found: a
        // fresh contact is set where it lies (a contact is plain values), not built elsewhere
        // and copied in.
        let k = contacts.appendUninitialized()
        contacts[k] = Contact()
        var found: Bool
        if isCircleA && !isCircleB {
            contacts[k].setShapes(b, shapes[b].body, a, shapes[a].body)
            found = collidePolygonCircle(b, a, &contacts[k])
            if found { contacts[k].flip() }
        } else {
            contacts[k].setShapes(a, shapes[a].body, b, shapes[b].body)
            if isCircleA {
                found = collideCircles(a, b, &contacts[k])
            } else if isCircleB {
                found = collidePolygonCircle(a, b, &contacts[k])
            } else {
                found = collidePolygons(a, b, margin, &contacts[k])
            }
        }
        guard found else {
            contacts.removeLast()
            return
        }
        let first = evaluate(contacts[k], 0)
        contacts[k].normal = first.normal
        var closest = first.separation
        if contacts[k].pointCount == 2 {
            closest = min(closest, evaluate(contacts[k], 1).separation)
        }
        guard closest <= margin else {
            contacts.removeLast()
            return
        }
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        let boundaryA = shapes[contacts[k].shapeA].boundary >= 0
        let boundaryB = shapes[contacts[k].shapeB].boundary >= 0
        // Boundaries take the item's elasticity and friction; two items take the larger
        // elasticity and the geometric mean of their frictions.
        contacts[k].elasticity =
            boundaryA
            ? bodies[j].elasticity
            : boundaryB ? bodies[i].elasticity : max(bodies[i].elasticity, bodies[j].elasticity)
        contacts[k].friction =
            boundaryA
            ? bodies[j].friction
            : boundaryB
                ? bodies[i].friction : (bodies[i].friction * bodies[j].friction).squareRoot()
        if contacts[k].elasticity > 0 { contactsMayImpact = true }
    }

    /// Measures contact point `k` at the bodies' current positions: the normal from A to B,
    /// the point midway between the surfaces, and the separation.
    @inline(__always)
    func evaluate(_ c: Contact, _ k: Int) -> (normal: Vec2, point: Vec2, separation: Double) {
        switch c.kind {
        case .points:
            let qa = worldPoint(c.bodyA, c.localPlane)
            let qb = worldPoint(c.bodyB, c.local0)
            let d = qb - qa
            let distance = d.length
            let n =
                distance > 1e-12 ? d * (1 / distance) : (c.normal == .zero ? Vec2(0, 1) : c.normal)
            let separation = distance - c.radiusA - c.radiusB
            let point = qa + n * (c.radiusA + 0.5 * separation)
            return (n, point, separation)
        case .planeA, .planeB:
            // The plane is on one body, the point (with its radius) on the other.
            let onA = c.kind == .planeA
            let reference = bodies[onA ? c.bodyA : c.bodyB]
            let n = reference.rotation.apply(c.localNormal)
            let plane = reference.position + reference.rotation.apply(c.localPlane)
            let q = worldPoint(onA ? c.bodyB : c.bodyA, k == 0 ? c.local0 : c.local1)
            let radius = onA ? c.radiusB : c.radiusA
            let separation = (q - plane).dot(n) - radius
            return (onA ? n : -n, q - n * (radius + 0.5 * separation), separation)
        }
    }

    func collideCircles(_ a: Int, _ b: Int, _ contact: inout Contact) -> Bool {
        contact.kind = .points
        contact.localPlane = shapes[a].center
        contact.local0 = shapes[b].center
        contact.radiusA = shapes[a].radius
        contact.radiusB = shapes[b].radius
        contact.pointCount = 1
        return true
    }

    /// Polygon `a` against circle `b`.
    func collidePolygonCircle(_ a: Int, _ b: Int, _ contact: inout Contact) -> Bool {
        let c = shapes[b].worldCenter
        let r = shapes[b].radius
        let first = shapes[a].first
        let count = shapes[a].count
        var best = -Double.infinity
        var face = 0
        for k in 0..<count {
            let i = first + k
            let s = worldNormals[i].dot(c - worldVertices[i])
            if s > best {
                best = s
                face = k
            }
        }
        let i1 = first + face
        let i2 = first + (face + 1) % count
        let v1 = worldVertices[i1]
        let v2 = worldVertices[i2]
        contact.pointCount = 1
        contact.radiusA = 0
        contact.radiusB = r
        contact.local0 = shapes[b].center
        if best > 1e-12 {
            let u1 = (c - v1).dot(v2 - v1)
            let u2 = (c - v2).dot(v1 - v2)
            if u1 <= 0 || u2 <= 0 {
                contact.kind = .points
                contact.localPlane = localVertices[u1 <= 0 ? i1 : i2]
                contact.id0 = UInt32(u1 <= 0 ? face : (face + 1) % count) << 1 | 1
                return true
            }
        }
        contact.id0 = UInt32(face) << 1
        contact.kind = .planeA
        contact.localNormal = localNormals[i1]
        contact.localPlane = localVertices[i1]
        return true
    }

    /// The face of `a` along which `b` lies furthest out, and that separation.
    func maximumSeparation(_ a: Int, _ b: Int) -> (face: Int, separation: Double) {
        var best = -Double.infinity
        var face = 0
        let firstA = shapes[a].first
        let firstB = shapes[b].first
        let countB = shapes[b].count
        for k in 0..<shapes[a].count {
            let n = worldNormals[firstA + k]
            let v = worldVertices[firstA + k]
            var least = Double.infinity
            for m in 0..<countB {
                least = min(least, n.dot(worldVertices[firstB + m] - v))
            }
            if least > best {
                best = least
                face = k
            }
        }
        return (face, best)
    }

    func collidePolygons(_ a: Int, _ b: Int, _ margin: Double, _ contact: inout Contact)
        -> Bool
    {
        let (faceA, separationA) = maximumSeparation(a, b)
        if separationA > margin { return false }
        let (faceB, separationB) = maximumSeparation(b, a)
        if separationB > margin { return false }
        // Prefer A's face unless B's is clearly better (by 0.05 points: two stacked items'
        // faces are nearly as good as each other, and switching every few steps changes the
        // points' feature ids, so warm starting would lose the stack's load); a static
        // shape's face (a boundary, an anchored item) is preferred more strongly, so resting
        // items get level normals.
        let movesA = bodies[shapes[a].body].isDynamic
        let movesB = bodies[shapes[b].body].isDynamic
        let preferB = !movesB && movesA
        let preferA = !movesA && movesB
        let flip =
            preferB
            ? separationB > separationA - 0.5
            : separationB > separationA + (preferA ? 0.5 : 0.05)
        let reference = flip ? b : a
        let incident = flip ? a : b
        let referenceFirst = shapes[reference].first
        let referenceCount = shapes[reference].count
        let incidentFirst = shapes[incident].first
        let incidentCount = shapes[incident].count
        let face = flip ? faceB : faceA
        let n = worldNormals[referenceFirst + face]
        // The incident face is the one most against the reference normal.
        var incidentFace = 0
        var least = Double.infinity
        for k in 0..<incidentCount {
            let d = n.dot(worldNormals[incidentFirst + k])
            if d < least {
                least = d
                incidentFace = k
            }
        }
        var p0 = worldVertices[incidentFirst + incidentFace]
        var p1 = worldVertices[incidentFirst + (incidentFace + 1) % incidentCount]
        let r0 = worldVertices[referenceFirst + face]
        let r1 = worldVertices[referenceFirst + (face + 1) % referenceCount]
        let edge = r1 - r0
        let edgeLength = edge.length
        guard edgeLength > 1e-12 else { return false }
        let t = edge * (1 / edgeLength)
        guard clip(&p0, &p1, -t, -t.dot(r0)), clip(&p0, &p1, t, t.dot(r1)) else { return false }
        contact.kind = flip ? .planeB : .planeA
        contact.localNormal = localNormals[referenceFirst + face]
        contact.localPlane = localVertices[referenceFirst + face]
        contact.radiusA = 0
        contact.radiusB = 0
        let incidentBody = shapes[incident].body
        var k = 0
        for index in 0..<2 {
            let p = index == 0 ? p0 : p1
            guard n.dot(p - r0) <= margin else { continue }
            let local = bodies[incidentBody].rotation.inverse(p - bodies[incidentBody].position)
            // The reference face, the incident vertex the point came from, and which side.
            let id =
                UInt32(face) << 16 | UInt32((incidentFace + index) % incidentCount) << 1
                | (flip ? 1 : 0)
            if k == 0 {
                contact.local0 = local
                contact.id0 = id
            } else {
                contact.local1 = local
                contact.id1 = id
            }
            k += 1
        }
        contact.pointCount = k
        return k > 0
    }

    /// Clips segment p0–p1 to the half plane plane·x ≤ offset; false when nothing is left.
    func clip(_ p0: inout Vec2, _ p1: inout Vec2, _ plane: Vec2, _ offset: Double) -> Bool {
        let d0 = plane.dot(p0) - offset
        let d1 = plane.dot(p1) - offset
        if d0 <= 0 && d1 <= 0 { return true }
        if d0 > 0 && d1 > 0 { return false }
        let cut = p0 + (p1 - p0) * (d0 / (d0 - d1))
        if d0 > 0 { p0 = cut } else { p1 = cut }
        return true
    }
}
