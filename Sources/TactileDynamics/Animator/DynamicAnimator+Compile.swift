import Foundation
import TactileCore

/// An ongoing contact between two participants (items or boundaries).
struct Episode {
    var itemA: Int
    /// The second item, or −1 for a boundary.
    var itemB: Int
    var boundary: Int
    /// Collision behaviours to tell.
    var bits: UInt64
}

/// A contact beginning or ending, to be reported after the frame.
struct CollisionEvent {
    var began: Bool
    var episode: Episode
    var point: Point
}

extension DynamicAnimator {
    func rebuildIfNeeded() {
        guard needsRebuild else { return }
        needsRebuild = false
        rebuild()
    }

    /// Compiles the behaviour tree into the world's arrays, keeping every body's state.
    func rebuild() {
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
        var memberOf: [ObjectIdentifier: DynamicItemGroup] = [:]
        for group in groups {
            for member in group.items { memberOf[ObjectIdentifier(member)] = group }
        }
        func owner(_ item: DynamicItem) -> DynamicItem {
            memberOf[ObjectIdentifier(item)] ?? item
        }
        for behavior in flatBehaviors {
            for item in behavior.items {
                let body = owner(item)
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

        // Properties, later item behaviours winning.
        var properties = [DynamicItemProperties](repeating: .init(), count: bodyOwner.count)
        for case let behavior as DynamicItemBehavior in flatBehaviors {
            for item in behavior.items {
                properties[bodyIndex[ObjectIdentifier(owner(item))]!] = behavior.properties
            }
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
                let b = bodyIndex[ObjectIdentifier(owner(item))]!
                if collision.collisionMode.includesItems { itemBits[b] |= bit }
                if collision.collisionMode.includesBoundaries { boundaryBits[b] |= bit }
            }
        }

        // Bodies and shapes.
        var world = self.world
        world.bodies.removeAll(keepingCapacity: true)
        world.shapes.removeAll(keepingCapacity: true)
        // Shape indices change: no contact carries its impulses over a rebuild.
        world.contacts.removeAll(keepingCapacity: true)
        world.previousContacts.removeAll(keepingCapacity: true)
        world.stepsUntilDetection = 0
        world.localVertices.removeAll(keepingCapacity: true)
        world.localNormals.removeAll(keepingCapacity: true)
        world.bodies.append(Body())
        itemBody = itemTable.map { bodyIndex[ObjectIdentifier($0)]! }
        for b in 1..<bodyOwner.count {
            let item = bodyOwner[b]!
            let members: [(item: DynamicItem, offset: Vec2, rotation: Double)]
            if let group = item as? DynamicItemGroup {
                members = zip(group.items, group.offsets).map { ($0, $1.offset, $1.rotation) }
            } else {
                members = [(item, .zero, 0)]
            }
            let p = properties[b]
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
            var body = Body()
            let scale = p.density / 10_000
            body.mass = area * scale
            body.inertia = moment * scale
            body.isDynamic = !p.isAnchored && body.mass > 0
            body.invMass = body.isDynamic ? 1 / body.mass : 0
            body.invInertia =
                body.isDynamic && p.allowsRotation && body.inertia > 0 ? 1 / body.inertia : 0
            body.localCenter = -centroid
            body.elasticity = p.elasticity
            body.friction = p.friction
            body.charge = p.charge
            body.linearDamping = exp(-p.resistance * world.h)
            body.angularDamping = exp(-p.angularResistance * world.h)
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
            if !body.isDynamic {
                body.velocity = .zero
                body.angularVelocity = 0
            }
            if body.invInertia == 0 { body.angularVelocity = 0 }
            body.rotation = Rotation(body.angle)
            world.bodies.append(body)
            guard itemBits[b] | boundaryBits[b] != 0 else { continue }
            for member in members {
                let index = itemTable.firstIndex { $0 === member.item } ?? -1
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

        // Gravity, pushes, joints, fields.
        var largestAcceleration = 0.0
        for case let gravity as GravityBehavior in flatBehaviors {
            let a = gravity.acceleration
            largestAcceleration += a.length
            for item in gravity.items {
                world.bodies[bodyIndex[ObjectIdentifier(owner(item))]!].gravity += Vec2(a.dx, a.dy)
            }
        }
        world.pushes.removeAll(keepingCapacity: true)
        for case let push as PushBehavior in flatBehaviors where push.isActive {
            let f = push.pushDirection * PushBehavior.forceUnit
            for item in push.items {
                let (b, local) = bodyPoint(
                    owner(item), item, push.targetOffsetFromCenter(for: item), in: world)
                var force = PushForce()
                force.body = b
                force.force = Vec2(f.dx, f.dy)
                force.offset = local - world.bodies[b].localCenter
                if push.mode == .continuous {
                    world.pushes.append(force)
                } else {
                    world.impulses.append(force)
                }
            }
            if push.mode == .instantaneous {
                // Fired once; silently, so the push does not trigger another rebuild.
                push.deactivateAfterFiring()
            }
        }
        world.joints.removeAll(keepingCapacity: true)
        for behavior in flatBehaviors {
            if let attachment = behavior as? AttachmentBehavior {
                world.joints.append(compile(attachment, in: world))
            } else if let snap = behavior as? SnapBehavior,
                let b = bodyIndex[ObjectIdentifier(owner(snap.item))]
            {
                var joint = Joint()
                joint.kind = .snap
                joint.bodyA = b
                joint.localB = Vec2(snap.snapPoint.x, snap.snapPoint.y)
                joint.frequency = SnapBehavior.frequency
                joint.dampingRatio = snap.dampingRatio
                world.joints.append(joint)
            }
        }
        world.findTethers()
        world.measureBodyExtents()
        world.fields.removeAll(keepingCapacity: true)
        world.fieldBodies.removeAll(keepingCapacity: true)
        for case let field as FieldBehavior in flatBehaviors {
            var compiled = CompiledField()
            compiled.kind = field.compiledKind
            compiled.position = Vec2(field.position.x, field.position.y)
            compiled.direction = Vec2(field.direction.dx, field.direction.dy)
            compiled.strength = field.strength
            compiled.falloff = field.falloff
            compiled.minimumRadius = field.minimumRadius
            compiled.region = field.region
            compiled.smoothness = field.smoothness
            compiled.animationSpeed = field.animationSpeed
            compiled.custom = field.evaluation
            compiled.first = world.fieldBodies.count
            for item in field.items {
                world.fieldBodies.append(bodyIndex[ObjectIdentifier(owner(item))]!)
            }
            compiled.count = world.fieldBodies.count - compiled.first
            if field.kind == .linearGravity || field.kind == .radialGravity {
                largestAcceleration += abs(field.strength) * World.fieldAcceleration
            }
            world.fields.append(compiled)
        }
        world.restitutionThreshold = 1 + 2 * largestAcceleration * world.h
        world.tracksContacts = tracks
        self.world = world
        if !tracks { episodes.removeAll() }
    }

    /// The body and body-frame point (relative to the centre of mass) of an offset on an item,
    /// in `world` (the world being compiled, whose bodies know their centres of mass).
    func bodyPoint(_ owner: DynamicItem, _ item: DynamicItem, _ offset: Vector, in world: World)
        -> (Int, Vec2)
    {
        let b = bodyIndex[ObjectIdentifier(owner)]!
        let body = world.bodies[b]
        var local = Vec2(offset.dx, offset.dy)
        if let group = owner as? DynamicItemGroup,
            let index = group.items.firstIndex(where: { $0 === item })
        {
            let member = group.offsets[index]
            local = member.offset + Rotation(member.rotation).apply(local)
        }
        return (b, local + body.localCenter)
    }

    func compile(_ attachment: AttachmentBehavior, in world: World) -> Joint {
        var joint = Joint()
        func owner(_ item: DynamicItem) -> DynamicItem {
            for case let group? in bodyOwner {
                if let g = group as? DynamicItemGroup, g.items.contains(where: { $0 === item }) {
                    return g
                }
            }
            return item
        }
        let first = attachment.firstItem
        (joint.bodyA, joint.localA) = bodyPoint(
            owner(first), first, attachment.offsetFromFirstItem, in: world)
        if let second = attachment.secondItem {
            (joint.bodyB, joint.localB) = bodyPoint(
                owner(second), second, attachment.offsetFromSecondItem, in: world)
        } else {
            joint.bodyB = -1
            joint.localB = Vec2(attachment.anchorPoint.x, attachment.anchorPoint.y)
        }
        joint.length = attachment.length
        joint.frequency = attachment.frequency
        joint.dampingRatio = attachment.damping
        joint.frictionTorque = attachment.frictionTorque
        joint.referenceAngle = attachment.referenceAngle
        joint.axis = Vec2(attachment.axisOfTranslation.dx, attachment.axisOfTranslation.dy)
        joint.lower = attachment.attachmentRange.lowerBound
        joint.upper = attachment.attachmentRange.upperBound
        switch attachment.style {
        case .distance: joint.kind = .distance
        case .limit: joint.kind = .limit
        case .fixed: joint.kind = .fixed
        case .pin: joint.kind = .pin
        case .sliding: joint.kind = .sliding
        }
        return joint
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
        _ world: World, count: Int, boundary: Int, bit: UInt64, participant: UInt32
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
        item.center = Point(x: center.x, y: center.y)
        item.rotation = body.angle
        item.velocity = Vector(dx: v.x, dy: v.y)
        item.angularVelocity = body.angularVelocity
        item.committed = CommittedState(
            position: body.position, angle: body.angle, velocity: body.velocity,
            angularVelocity: body.angularVelocity, center: item.center, rotation: item.rotation)
        if let group = item as? DynamicItemGroup {
            for (member, placement) in zip(group.items, group.offsets) {
                let offset = body.rotation.apply(placement.offset)
                let c = center + offset
                let mv = v + cross(body.angularVelocity, offset)
                member.center = Point(x: c.x, y: c.y)
                member.rotation = body.angle + placement.rotation
                member.velocity = Vector(dx: mv.x, dy: mv.y)
                member.angularVelocity = body.angularVelocity
            }
        }
    }

    // MARK: - Contact episodes

    /// Compares this step's touching pairs with the last step's and queues began and ended
    /// events. A contact begins when the surfaces meet (or an impact is resolved) and ends
    /// when they are more than half a point apart, so resting contacts do not flicker.
    func recordContacts() {
        currentEpisodes.removeAll(keepingCapacity: true)
        for c in world.contacts {
            let a = world.shapes[c.shapeA]
            let b = world.shapes[c.shapeB]
            let key =
                a.participant < b.participant
                ? UInt64(a.participant) << 32 | UInt64(b.participant)
                : UInt64(b.participant) << 32 | UInt64(a.participant)
            let wasTouching = episodes[key] != nil
            let touching =
                c.isImpact || c.finalSeparation <= 0.05 || (wasTouching && c.finalSeparation <= 0.5)
            guard touching, currentEpisodes[key] == nil else { continue }
            var episode: Episode
            if a.boundary >= 0 || b.boundary >= 0 {
                let item = a.boundary >= 0 ? b : a
                let boundary = a.boundary >= 0 ? a : b
                episode = Episode(
                    itemA: item.item, itemB: -1, boundary: boundary.boundary,
                    bits: item.boundaryBits & boundary.boundaryBits)
            } else {
                episode = Episode(
                    itemA: a.item, itemB: b.item, boundary: -1, bits: a.itemBits & b.itemBits)
            }
            currentEpisodes[key] = episode
            if !wasTouching {
                let p = world.evaluate(c, 0).point
                events.append(
                    CollisionEvent(began: true, episode: episode, point: Point(x: p.x, y: p.y)))
            }
        }
        endedKeys.removeAll(keepingCapacity: true)
        for key in episodes.keys where currentEpisodes[key] == nil { endedKeys.append(key) }
        if !endedKeys.isEmpty {
            endedKeys.sort()
            for key in endedKeys {
                events.append(CollisionEvent(began: false, episode: episodes[key]!, point: .zero))
            }
        }
        swap(&episodes, &currentEpisodes)
    }

    /// Tells collision delegates about the contacts that began and ended this frame.
    func dispatchEvents() {
        guard !events.isEmpty else { return }
        let pending = events
        events.removeAll(keepingCapacity: true)
        let behaviors = collisionBehaviors
        let items = itemTable
        let boundaries = boundaryTable
        for event in pending {
            let e = event.episode
            for (index, behavior) in behaviors.enumerated()
            where e.bits & (1 << UInt64(index)) != 0 {
                guard let delegate = behavior.collisionDelegate, e.itemA >= 0 else { continue }
                let item = items[e.itemA]
                if e.itemB >= 0 {
                    if event.began {
                        delegate.collisionBehavior(
                            behavior, beganContactFor: item, with: items[e.itemB], at: event.point)
                    } else {
                        delegate.collisionBehavior(
                            behavior, endedContactFor: item, with: items[e.itemB])
                    }
                } else {
                    let identifier = boundaries[e.boundary].identifier
                    if event.began {
                        delegate.collisionBehavior(
                            behavior, beganContactFor: item, withBoundaryIdentifier: identifier,
                            at: event.point)
                    } else {
                        delegate.collisionBehavior(
                            behavior, endedContactFor: item, withBoundaryIdentifier: identifier)
                    }
                }
            }
        }
    }
}
