import Foundation
import TactileCore

extension DynamicAnimator {
    /// Compiles what changed since the last step: the whole world when items or behaviours
    /// came or went, only the parameters when a behaviour's settings changed.
    func rebuildIfNeeded() {
        let jointsOnly = refreshesJointsOnly
        refreshesJointsOnly = true
        if needsRebuild {
            needsRebuild = false
            needsRefresh = false
            rebuild()
        } else if needsRefresh {
            needsRefresh = false
            var world = takeWorld()
            if jointsOnly {
                // An anchor moved (every frame of a drag, say): nothing else to compile.
                compileJoints(into: &world)
            } else if compileParameters(into: &world) {
                // Contacts take masses, friction and elasticity from the bodies when they are
                // found: when those changed, find them again now (their impulses carry over).
                world.stepsUntilDetection = 0
            }
            putBack(world)
        }
    }

    /// Moves the world out of the animator (a world cannot be copied), leaving an empty one
    /// in its place; give it back with ``putBack(_:)``. Nothing reads `self.world` meanwhile.
    func takeWorld() -> World {
        var taken: World
        if let spare = spareWorld.take() {
            taken = spare
        } else {
            taken = World(timeStep: world.h, positionIterations: world.positionIterations)
        }
        swap(&taken, &world)
        return taken
    }

    /// Gives back the world ``takeWorld()`` moved out, keeping the empty one for next time.
    func putBack(_ taken: consuming World) {
        var taken = taken
        swap(&taken, &world)
        spareWorld = consume taken
    }

    /// Compiles the behaviour tree into the world's arrays, keeping every body's state.
    ///
    /// Only adding or removing items or behaviours (or changing what collides) comes here;
    /// a behaviour's parameters change in place (``compileParameters(into:)``), keeping
    /// contacts and their impulses.
    func rebuild() {
        rebuildCount += 1
        // Blows fired but not yet applied name bodies by index: keep them by their item.
        let unapplied = world.impulses.compactMap { impulse in
            bodyOwner.indices.contains(impulse.body)
                ? bodyOwner[impulse.body].map { (ObjectIdentifier($0), impulse) } : nil
        }
        world.impulses.removeAll(keepingCapacity: true)
        flatBehaviors.removeAll(keepingCapacity: true)
        for behavior in behaviors { behavior.flattened(into: &flatBehaviors) }

        // Items: groups first claim their members.
        itemTable.removeAll(keepingCapacity: true)
        bodyIndex.removeAll(keepingCapacity: true)
        bodyOwner = [nil]  // Body 0: the static frame boundaries and anchors hang on.
        var groups: [DynamicItemGroup] = []
        for behavior in flatBehaviors {
            for item in behavior.items {
                if let group = item as? DynamicItemGroup, !groups.contains(where: { $0 === group })
                {
                    groups.append(group)
                }
            }
        }
        memberOf.removeAll(keepingCapacity: true)
        for group in groups {
            for member in group.items { memberOf[ObjectIdentifier(member)] = group }
        }
        for behavior in flatBehaviors {
            for item in behavior.items {
                let body = owner(of: item)
                if bodyIndex[ObjectIdentifier(body)] == nil {
                    bodyIndex[ObjectIdentifier(body)] = bodyOwner.count
                    bodyOwner.append(body)
                }
            }
        }
        for case let owner? in bodyOwner {
            if let group = owner as? DynamicItemGroup {
                for member in group.items {
                    bodyIndex[ObjectIdentifier(member)] = bodyIndex[ObjectIdentifier(group)]
                    itemTable.append(member)
                }
            } else {
                itemTable.append(owner)
            }
            if owner is DynamicItemGroup { itemTable.append(owner) }
        }

        // Collision membership.
        collisionBehaviors = flatBehaviors.compactMap { $0 as? CollisionBehavior }
        var itemBits = [UInt64](repeating: 0, count: bodyOwner.count)
        var boundaryBits = [UInt64](repeating: 0, count: bodyOwner.count)
        var tracks = false
        for (index, collision) in collisionBehaviors.enumerated() {
            let bit: UInt64 = 1 << UInt64(index)
            if collision.collisionDelegate != nil { tracks = true }
            for item in collision.items {
                let b = bodyIndex[ObjectIdentifier(owner(of: item))]!
                if collision.collisionMode.includesItems { itemBits[b] |= bit }
                if collision.collisionMode.includesBoundaries { boundaryBits[b] |= bit }
            }
        }

        // Bodies and shapes.
        var world = takeWorld()
        world.bodies.removeAll(keepingCapacity: true)
        world.shapes.removeAll(keepingCapacity: true)
        // Shape indices change: no contact carries its impulses over a rebuild.
        world.contacts.removeAll(keepingCapacity: true)
        world.previousContacts.removeAll(keepingCapacity: true)
        world.stepsUntilDetection = 0
        // Nor does any stray or shape bound again around one.
        world.forgetStrays()
        world.localVertices.removeAll(keepingCapacity: true)
        world.localNormals.removeAll(keepingCapacity: true)
        world.bodies.append(Body())
        itemBody = itemTable.map { bodyIndex[ObjectIdentifier($0)]! }
        var tableIndex: [ObjectIdentifier: Int] = [:]
        for (index, item) in itemTable.enumerated() where tableIndex[ObjectIdentifier(item)] == nil
        {
            tableIndex[ObjectIdentifier(item)] = index
        }
        bodyAreas = [(0, 0)]
        for b in 1..<bodyOwner.count {
            let item = bodyOwner[b]!
            let members: [(item: DynamicItem, offset: Vec2, rotation: Double)]
            if let group = item as? DynamicItemGroup {
                members = zip(group.items, group.offsets).map { ($0, $1.offset, $1.rotation) }
            } else {
                members = [(item, .zero, 0)]
            }
            var area = 0.0
            var centroid = Vec2.zero
            for member in members {
                let mass = member.item.geometry.massProperties
                area += mass.area
                centroid +=
                    (member.offset + Rotation(member.rotation).apply(mass.centroid)) * mass.area
            }
            centroid = area > 0 ? centroid * (1 / area) : .zero
            var moment = 0.0
            for member in members {
                let mass = member.item.geometry.massProperties
                let c = member.offset + Rotation(member.rotation).apply(mass.centroid) - centroid
                moment += mass.moment + mass.area * c.lengthSquared
            }
            bodyAreas.append((area, moment))
            var body = Body()
            body.localCenter = -centroid
            if let state = item.committed, state.center == item.center,
                state.rotation == item.rotation
            {
                body.position = state.position
                body.angle = state.angle
                body.velocity = state.velocity
                body.angularVelocity = state.angularVelocity
            } else {
                body.angle = item.rotation
                let rotation = Rotation(item.rotation)
                body.position =
                    Vec2(item.center.x, item.center.y) - rotation.apply(body.localCenter)
                body.angularVelocity = item.angularVelocity
                body.velocity =
                    Vec2(item.velocity.dx, item.velocity.dy)
                    - cross(item.angularVelocity, rotation.apply(body.localCenter))
            }
            body.rotation = Rotation(body.angle)
            world.bodies.append(body)
            guard itemBits[b] | boundaryBits[b] != 0 else { continue }
            for member in members {
                let index = tableIndex[ObjectIdentifier(member.item)] ?? -1
                addShape(
                    &world, body: b, item: index, geometry: member.item.geometry,
                    offset: member.offset - centroid, rotation: member.rotation,
                    itemBits: itemBits[b], boundaryBits: boundaryBits[b],
                    participant: participant(member.item))
            }
        }

        // Boundaries.
        boundaryTable.removeAll(keepingCapacity: true)
        for (index, collision) in collisionBehaviors.enumerated()
        where collision.collisionMode.includesBoundaries {
            let bit: UInt64 = 1 << UInt64(index)
            if collision.translatesReferenceBoundsIntoBoundary {
                let insets = collision.referenceBoundsInsets
                let r = referenceBounds
                let corners = [
                    Vec2(r.minX + insets.left, r.minY + insets.top),
                    Vec2(r.maxX - insets.right, r.minY + insets.top),
                    Vec2(r.maxX - insets.right, r.maxY - insets.bottom),
                    Vec2(r.minX + insets.left, r.maxY - insets.bottom),
                ]
                let id = boundaryParticipant(index, nil)
                boundaryTable.append((index, nil))
                // Four thick walls rather than lines, so an item pushed deep into one is still
                // pushed back inside.
                let t = max(1000, r.width, r.height)
                let inner = Rect(
                    corner: Point(x: corners[0].x, y: corners[0].y),
                    corner: Point(x: corners[2].x, y: corners[2].y))
                let walls = [
                    Rect(
                        x: inner.minX - t, y: inner.minY - t, width: inner.width + 2 * t, height: t),
                    Rect(x: inner.minX - t, y: inner.maxY, width: inner.width + 2 * t, height: t),
                    Rect(x: inner.minX - t, y: inner.minY, width: t, height: inner.height),
                    Rect(x: inner.maxX, y: inner.minY, width: t, height: inner.height),
                ]
                for wall in walls {
                    addWall(
                        &world, wall, boundary: boundaryTable.count - 1, bit: bit, participant: id)
                }
            }
            for boundary in collision.boundaries {
                let id = boundaryParticipant(index, boundary.identifier)
                boundaryTable.append((index, boundary.identifier))
                for line in boundary.path.flattened(tolerance: 0.25) where line.count >= 2 {
                    for k in 1..<line.count where line[k - 1] != line[k] {
                        addSegment(
                            &world, Vec2(line[k - 1].x, line[k - 1].y), Vec2(line[k].x, line[k].y),
                            boundary: boundaryTable.count - 1, bit: bit, participant: id)
                    }
                }
            }
        }
        world.worldVertices = Pool(copying: world.localVertices)
        world.worldNormals = Pool(copying: world.localNormals)
        world.sortOrder.removeAll(keepingCapacity: true)

        world.measureBodyExtents()
        for (owner, impulse) in unapplied {
            guard let body = bodyIndex[owner] else { continue }
            var moved = impulse
            moved.body = body
            world.impulses.append(moved)
        }
        compileParameters(into: &world)
        world.tracksContacts = tracks
        putBack(world)
        if !tracks { episodes.removeAll() }
    }

    func participant(_ item: DynamicItem) -> UInt32 {
        let key = ObjectIdentifier(item)
        if let id = participantIDs[key] { return id }
        let id = nextParticipant
        nextParticipant += 1
        participantIDs[key] = id
        return id
    }

    func boundaryParticipant(_ behavior: Int, _ identifier: String?) -> UInt32 {
        let key = "\(ObjectIdentifier(collisionBehaviors[behavior]).hashValue):\(identifier ?? "")"
        if let id = boundaryIDs[key] { return id }
        let id = nextParticipant
        nextParticipant += 1
        boundaryIDs[key] = id
        return id
    }

    func addShape(
        _ world: inout World, body: Int, item: Int, geometry: ItemGeometry, offset: Vec2,
        rotation: Double, itemBits: UInt64, boundaryBits: UInt64, participant: UInt32
    ) {
        var shape = Shape()
        shape.body = body
        shape.item = item
        shape.itemBits = itemBits
        shape.boundaryBits = boundaryBits
        shape.participant = participant
        let turn = Rotation(rotation)
        switch geometry {
        case .circle(let radius):
            shape.isCircle = true
            shape.radius = radius
            shape.center = offset
            shape.reach = offset.length + radius
            shape.inner = max(0, radius - offset.length)
        case .polygon(let vertices):
            shape.first = world.localVertices.count
            shape.count = vertices.count
            let placed = vertices.map { offset + turn.apply($0) }
            shape.inner = .infinity
            for k in placed.indices {
                let e = placed[(k + 1) % placed.count] - placed[k]
                world.localVertices.append(placed[k])
                let normal = Vec2(e.y, -e.x) * (1 / e.length)
                world.localNormals.append(normal)
                shape.reach = max(shape.reach, placed[k].length)
                shape.inner = max(0, min(shape.inner, normal.dot(placed[k])))
            }
        }
        world.shapes.append(shape)
    }

    /// A boundary's shape on the static frame, its `count` vertices to be added next.
    func boundaryShape(
        _ world: borrowing World, count: Int, boundary: Int, bit: UInt64, participant: UInt32
    ) -> Shape {
        var shape = Shape()
        shape.body = 0
        shape.boundary = boundary
        shape.boundaryBits = bit
        shape.participant = participant
        shape.first = world.localVertices.count
        shape.count = count
        return shape
    }

    func addWall(
        _ world: inout World, _ rect: Rect, boundary: Int, bit: UInt64, participant: UInt32
    ) {
        let shape = boundaryShape(
            world, count: 4, boundary: boundary, bit: bit, participant: participant)
        let corners = [
            Vec2(rect.minX, rect.minY), Vec2(rect.maxX, rect.minY), Vec2(rect.maxX, rect.maxY),
            Vec2(rect.minX, rect.maxY),
        ]
        for k in 0..<4 {
            let e = corners[(k + 1) % 4] - corners[k]
            world.localVertices.append(corners[k])
            world.localNormals.append(Vec2(e.y, -e.x) * (1 / e.length))
        }
        world.shapes.append(shape)
    }

    func addSegment(
        _ world: inout World, _ a: Vec2, _ b: Vec2, boundary: Int, bit: UInt64, participant: UInt32
    ) {
        let shape = boundaryShape(
            world, count: 2, boundary: boundary, bit: bit, participant: participant)
        let e = b - a
        let n = Vec2(e.y, -e.x) * (1 / e.length)
        world.localVertices.append(a)
        world.localVertices.append(b)
        world.localNormals.append(n)
        world.localNormals.append(-n)
        world.shapes.append(shape)
    }

    // MARK: - Items

    func syncItems() {
        guard world.bodies.count == bodyOwner.count else { return }
        for b in 1..<max(1, world.bodies.count) { writeBack(body: b) }
    }

    /// Writes one body's state to its item (and a group's members).
    func writeBack(body b: Int) {
        guard let item = bodyOwner[b] else { return }
        let body = world.bodies[b]
        let r = body.rotation.apply(body.localCenter)
        let center = body.position + r
        let v = body.velocity + cross(body.angularVelocity, r)
        let point = Point(x: center.x, y: center.y)
        item.motion = ItemMotion(
            center: point, rotation: body.angle, velocity: Vector(dx: v.x, dy: v.y),
            angularVelocity: body.angularVelocity,
            committed: CommittedState(
                position: body.position, angle: body.angle, velocity: body.velocity,
                angularVelocity: body.angularVelocity, center: point, rotation: body.angle))
        if let group = item as? DynamicItemGroup {
            for (member, placement) in zip(group.items, group.offsets) {
                let offset = body.rotation.apply(placement.offset)
                let c = center + offset
                let mv = v + cross(body.angularVelocity, offset)
                member.motion = ItemMotion(
                    center: Point(x: c.x, y: c.y), rotation: body.angle + placement.rotation,
                    velocity: Vector(dx: mv.x, dy: mv.y), angularVelocity: body.angularVelocity,
                    committed: member.committed)
            }
        }
    }
}
