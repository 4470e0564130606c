/// Bounds, broad phase (sort and sweep) and narrow phase (circles and convex polygons).
extension World {
    /// Extra distance within which contacts are found before they touch, points.
    static let contactMargin = 0.25

    /// Moves shapes to their bodies and recomputes their bounds, swept by one step of motion.
    mutating func updateShapes() {
        let h = self.h * Double(detectionInterval)
        for s in shapes.indices {
            let shape = shapes[s]
            let body = bodies[shape.body]
            let sweep =
                body.isDynamic
                ? (body.velocity.length + abs(body.angularVelocity) * shape.reach) * h
                    + World.contactMargin
                : World.contactMargin
            if shape.isCircle {
                let c = body.position + body.rotation.apply(shape.center)
                shapes[s].worldCenter = c
                let r = shape.radius + sweep
                shapes[s].minX = c.x - r
                shapes[s].maxX = c.x + r
                shapes[s].minY = c.y - r
                shapes[s].maxY = c.y + r
            } else {
                var lo = Vec2(Double.infinity, Double.infinity)
                var hi = Vec2(-Double.infinity, -Double.infinity)
                for k in shape.first..<(shape.first + shape.count) {
                    let v = body.position + body.rotation.apply(localVertices[k])
                    worldVertices[k] = v
                    worldNormals[k] = body.rotation.apply(localNormals[k])
                    lo = Vec2(min(lo.x, v.x), min(lo.y, v.y))
                    hi = Vec2(max(hi.x, v.x), max(hi.y, v.y))
                }
                shapes[s].minX = lo.x - sweep
                shapes[s].maxX = hi.x + sweep
                shapes[s].minY = lo.y - sweep
                shapes[s].maxY = hi.y + sweep
            }
        }
    }

    /// Whether two shapes may collide at all.
    @inline(__always)
    func shouldCollide(_ a: Shape, _ b: Shape) -> Bool {
        if a.body == b.body { return false }
        if !bodies[a.body].isDynamic && !bodies[b.body].isDynamic { return false }
        if a.boundary >= 0 { return b.boundary < 0 && (b.boundaryBits & a.boundaryBits) != 0 }
        if b.boundary >= 0 { return (a.boundaryBits & b.boundaryBits) != 0 }
        return (a.itemBits & b.itemBits) != 0
    }

    /// Finds every contact for this step: sort and sweep on x for a few shapes, a uniform grid
    /// for many; then exact tests.
    mutating func findContacts() {
        contacts.removeAll(keepingCapacity: true)
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
            let shapeA = shapes[a]
            var j = i + 1
            while j < sortOrder.count {
                let b = sortOrder[j]
                let shapeB = shapes[b]
                if shapeB.minX > shapeA.maxX { break }
                j += 1
                if shapeB.minY > shapeA.maxY || shapeB.maxY < shapeA.minY { continue }
                guard shouldCollide(shapeA, shapeB) else { continue }
                // A fixed order inside the pair keeps results independent of the sort.
                if a < b { collide(a, b) } else { collide(b, a) }
            }
        }
    }

    /// Grid broad phase: shapes no larger than four cells go into every cell their bounds
    /// touch (a counting sort, so no allocation once the arrays have grown); each pair is
    /// tested in the one cell holding the top-left corner of their bounds' overlap. Larger
    /// shapes (walls, long boundaries) are tested against every small shape's bounds.
    mutating func findContactsOnGrid() {
        grid.small.removeAll(keepingCapacity: true)
        grid.large.removeAll(keepingCapacity: true)
        var largest = 0.0
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
            lo = Vec2(min(lo.x, shape.minX), min(lo.y, shape.minY))
            hi = Vec2(max(hi.x, shape.maxX), max(hi.y, shape.maxY))
        }
        if !grid.small.isEmpty {
            // Cells about the size of the largest small shape, at most a million of them.
            var cell = max(largest, 1e-3)
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
                    let shapeA = shapes[a]
                    for j in (i + 1)..<end {
                        let b = grid.entries[j]
                        let shapeB = shapes[b]
                        if shapeB.minX > shapeA.maxX || shapeB.maxX < shapeA.minX
                            || shapeB.minY > shapeA.maxY || shapeB.maxY < shapeA.minY
                        {
                            continue
                        }
                        // Only in the cell that holds the overlap's top-left corner.
                        let corner = grid.cell(
                            max(shapeA.minX, shapeB.minX), max(shapeA.minY, shapeB.minY))
                        guard corner == c, shouldCollide(shapeA, shapeB) else { continue }
                        if a < b { collide(a, b) } else { collide(b, a) }
                    }
                }
            }
        }
        for large in grid.large {
            let shapeL = shapes[large]
            for index in shapes.indices where index != large {
                let other = shapes[index]
                if other.minX > shapeL.maxX || other.maxX < shapeL.minX || other.minY > shapeL.maxY
                    || other.maxY < shapeL.minY
                {
                    continue
                }
                // Two large shapes meet once, from the lower index.
                if other.boundary >= 0
                    || (!bodies[other.body].isDynamic
                        && max(other.maxX - other.minX, other.maxY - other.minY) > 200)
                {
                    if index < large { continue }
                }
                guard shouldCollide(shapeL, other) else { continue }
                if large < index { collide(large, index) } else { collide(index, large) }
            }
        }
    }

    /// The margin within which a pair's contact is kept: closing motion until the next
    /// detection, plus slack.
    @inline(__always)
    func margin(_ a: Shape, _ b: Shape) -> Double {
        let ba = bodies[a.body]
        let bb = bodies[b.body]
        let reach =
            (ba.velocity.length + abs(ba.angularVelocity) * a.reach + bb.velocity.length
                + abs(bb.angularVelocity) * b.reach) * h * Double(detectionInterval)
        return reach + World.contactMargin
    }

    mutating func collide(_ a: Int, _ b: Int) {
        let shapeA = shapes[a]
        let shapeB = shapes[b]
        let margin = self.margin(shapeA, shapeB)
        if shapeA.isCircle && shapeB.isCircle {
            // The test below on the gap, made before building the contact: the same
            // arithmetic on the same centres, so it rejects exactly the pairs it would.
            let gap =
                (shapeB.worldCenter - shapeA.worldCenter).length - shapeA.radius - shapeB.radius
            guard gap <= margin else { return }
        }
        var contact = Contact()
        var found: Bool
        if shapeA.isCircle && !shapeB.isCircle {
            contact.setShapes(b, shapeB, a, shapeA)
            found = collidePolygonCircle(shapeB, shapeA, &contact)
            if found { contact.flip() }
        } else {
            contact.setShapes(a, shapeA, b, shapeB)
            if shapeA.isCircle {
                found = collideCircles(shapeA, shapeB, &contact)
            } else if shapeB.isCircle {
                found = collidePolygonCircle(shapeA, shapeB, &contact)
            } else {
                found = collidePolygons(shapeA, shapeB, margin, &contact)
            }
        }
        guard found else { return }
        let first = evaluate(contact, 0)
        contact.normal = first.normal
        contact.separation0 = first.separation
        var closest = first.separation
        if contact.pointCount == 2 {
            let second = evaluate(contact, 1)
            contact.separation1 = second.separation
            closest = min(closest, second.separation)
        }
        guard closest <= margin else { return }
        let bodyA = bodies[contact.bodyA]
        let bodyB = bodies[contact.bodyB]
        contact.elasticity = combinedElasticity(shapeA, bodyA, shapeB, bodyB)
        contact.friction =
            shapeA.boundary >= 0
            ? bodyB.friction
            : shapeB.boundary >= 0 ? bodyA.friction : (bodyA.friction * bodyB.friction).squareRoot()
        contacts.append(contact)
    }

    /// Boundaries take the item's elasticity; two items take the larger of theirs.
    @inline(__always)
    func combinedElasticity(_ sa: Shape, _ a: Body, _ sb: Shape, _ b: Body) -> Double {
        if sa.boundary >= 0 { return b.elasticity }
        if sb.boundary >= 0 { return a.elasticity }
        return max(a.elasticity, b.elasticity)
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
        case .planeA:
            let a = bodies[c.bodyA]
            let n = a.rotation.apply(c.localNormal)
            let plane = a.position + a.rotation.apply(c.localPlane)
            let q = worldPoint(c.bodyB, k == 0 ? c.local0 : c.local1)
            let separation = (q - plane).dot(n) - c.radiusB
            return (n, q - n * (c.radiusB + 0.5 * separation), separation)
        case .planeB:
            let b = bodies[c.bodyB]
            let n = b.rotation.apply(c.localNormal)
            let plane = b.position + b.rotation.apply(c.localPlane)
            let q = worldPoint(c.bodyA, k == 0 ? c.local0 : c.local1)
            let separation = (q - plane).dot(n) - c.radiusA
            return (-n, q - n * (c.radiusA + 0.5 * separation), separation)
        }
    }

    func collideCircles(_ a: Shape, _ b: Shape, _ contact: inout Contact) -> Bool {
        contact.kind = .points
        contact.localPlane = a.center
        contact.local0 = b.center
        contact.radiusA = a.radius
        contact.radiusB = b.radius
        contact.pointCount = 1
        return true
    }

    /// Polygon A against circle B.
    func collidePolygonCircle(_ a: Shape, _ b: Shape, _ contact: inout Contact) -> Bool {
        let c = b.worldCenter
        let r = b.radius
        var best = -Double.infinity
        var face = 0
        for k in 0..<a.count {
            let i = a.first + k
            let s = worldNormals[i].dot(c - worldVertices[i])
            if s > best {
                best = s
                face = k
            }
        }
        let i1 = a.first + face
        let i2 = a.first + (face + 1) % a.count
        let v1 = worldVertices[i1]
        let v2 = worldVertices[i2]
        contact.pointCount = 1
        contact.radiusA = 0
        contact.radiusB = r
        contact.local0 = b.center
        if best > 1e-12 {
            let u1 = (c - v1).dot(v2 - v1)
            let u2 = (c - v2).dot(v1 - v2)
            if u1 <= 0 || u2 <= 0 {
                contact.kind = .points
                contact.localPlane = localVertices[u1 <= 0 ? i1 : i2]
                contact.id0 = UInt32(u1 <= 0 ? face : (face + 1) % a.count) << 1 | 1
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
    func maximumSeparation(_ a: Shape, _ b: Shape) -> (face: Int, separation: Double) {
        var best = -Double.infinity
        var face = 0
        for k in 0..<a.count {
            let n = worldNormals[a.first + k]
            let v = worldVertices[a.first + k]
            var least = Double.infinity
            for m in 0..<b.count {
                least = min(least, n.dot(worldVertices[b.first + m] - v))
            }
            if least > best {
                best = least
                face = k
            }
        }
        return (face, best)
    }

    func collidePolygons(_ a: Shape, _ b: Shape, _ margin: Double, _ contact: inout Contact)
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
        let preferB = !bodies[b.body].isDynamic && bodies[a.body].isDynamic
        let preferA = !bodies[a.body].isDynamic && bodies[b.body].isDynamic
        let flip =
            preferB
            ? separationB > separationA - 0.5
            : separationB > separationA + (preferA ? 0.5 : 0.05)
        let reference = flip ? b : a
        let incident = flip ? a : b
        let face = flip ? faceB : faceA
        let n = worldNormals[reference.first + face]
        // The incident face is the one most against the reference normal.
        var incidentFace = 0
        var least = Double.infinity
        for k in 0..<incident.count {
            let d = n.dot(worldNormals[incident.first + k])
            if d < least {
                least = d
                incidentFace = k
            }
        }
        var p0 = worldVertices[incident.first + incidentFace]
        var p1 = worldVertices[incident.first + (incidentFace + 1) % incident.count]
        let r0 = worldVertices[reference.first + face]
        let r1 = worldVertices[reference.first + (face + 1) % reference.count]
        let edge = r1 - r0
        let edgeLength = edge.length
        guard edgeLength > 1e-12 else { return false }
        let t = edge * (1 / edgeLength)
        guard clip(&p0, &p1, -t, -t.dot(r0)), clip(&p0, &p1, t, t.dot(r1)) else { return false }
        contact.kind = flip ? .planeB : .planeA
        contact.localNormal = localNormals[reference.first + face]
        contact.localPlane = localVertices[reference.first + face]
        contact.radiusA = 0
        contact.radiusB = 0
        let incidentBody = bodies[incident.body]
        var k = 0
        for index in 0..<2 {
            let p = index == 0 ? p0 : p1
            guard n.dot(p - r0) <= margin else { continue }
            let local = incidentBody.rotation.inverse(p - incidentBody.position)
            // The reference face, the incident vertex the point came from, and which side.
            let id =
                UInt32(face) << 16 | UInt32((incidentFace + index) % incident.count) << 1
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

extension Contact {
    mutating func setShapes(_ a: Int, _ shapeA: Shape, _ b: Int, _ shapeB: Shape) {
        self.shapeA = a
        self.shapeB = b
        bodyA = shapeA.body
        bodyB = shapeB.body
    }

    /// Swaps the roles of A and B.
    mutating func flip() {
        swap(&shapeA, &shapeB)
        swap(&bodyA, &bodyB)
        swap(&radiusA, &radiusB)
        switch kind {
        case .points: swap(&localPlane, &local0)
        case .planeA: kind = .planeB
        case .planeB: kind = .planeA
        }
    }
}

/// A uniform grid of shape indices, rebuilt every step with a counting sort.
struct Grid {
    var small = Pool<Int>()
    var large = Pool<Int>()
    var origin = Vec2.zero
    var inverseCell = 1.0
    var columns = 0
    var rows = 0
    /// `entries[starts[c]..<starts[c + 1]]` are the shapes in cell c.
    var starts = Pool<Int>()
    var entries = Pool<Int>()
    var cursor = Pool<Int>()

    @inline(__always)
    func cell(_ x: Double, _ y: Double) -> Int {
        let (cx, cy) = cellXY(x, y)
        return cy * columns + cx
    }

    /// The column and row of the cell holding a point.
    @inline(__always)
    func cellXY(_ x: Double, _ y: Double) -> (Int, Int) {
        let cx = min(columns - 1, max(0, Int((x - origin.x) * inverseCell)))
        let cy = min(rows - 1, max(0, Int((y - origin.y) * inverseCell)))
        return (cx, cy)
    }

    mutating func fill(shapes: Pool<Shape>, origin: Vec2, cell: Double, columns: Int, rows: Int) {
        self.origin = origin
        inverseCell = 1 / cell
        self.columns = columns
        self.rows = rows
        let count = columns * rows
        if starts.count < count + 1 {
            starts = Pool(repeating: 0, count: count + 1)
            cursor = Pool(repeating: 0, count: count + 1)
        }
        for c in 0...count { starts[c] = 0 }
        var total = 0
        for s in small {
            let shape = shapes[s]
            let (x0, y0) = cellXY(shape.minX, shape.minY)
            let (x1, y1) = cellXY(shape.maxX, shape.maxY)
            for y in y0...y1 {
                for x in x0...x1 { starts[y * columns + x + 1] += 1 }
            }
            total += (x1 - x0 + 1) * (y1 - y0 + 1)
        }
        for c in 0..<count { starts[c + 1] += starts[c] }
        if entries.count < total { entries = Pool(repeating: 0, count: total) }
        for c in 0..<count { cursor[c] = starts[c] }
        for s in small {
            let shape = shapes[s]
            let (x0, y0) = cellXY(shape.minX, shape.minY)
            let (x1, y1) = cellXY(shape.maxX, shape.maxY)
            for y in y0...y1 {
                for x in x0...x1 {
                    let c = y * columns + x
                    entries[cursor[c]] = s
                    cursor[c] += 1
                }
            }
        }
    }
}
