import Foundation
import TactileCore

extension DynamicAnimator {
    /// The body an item moves with: its group, or itself.
    func owner(of item: DynamicItem) -> DynamicItem {
        memberOf[ObjectIdentifier(item)] ?? item
    }

    /// Compiles every behaviour's parameters into `world` without touching its bodies' state,
    /// shapes or contacts: item properties (mass, elasticity, friction, damping, charge),
    /// gravity, pushes, joints and fields. Runs after a rebuild, and alone when only
    /// parameters changed — on every frame of a drag, say, which moves an anchor.
    ///
    /// - Returns: Whether a body's mass, inertia, friction or elasticity changed, which the
    ///   contacts took when they were found (so they must be found again).
    @discardableResult
    func compileParameters(into world: inout World) -> Bool {
        var contactsChanged = false
        // Properties, later item behaviours winning.
        var properties = [DynamicItemProperties](repeating: .init(), count: bodyOwner.count)
        for case let behavior as DynamicItemBehavior in flatBehaviors {
            for item in behavior.items {
                properties[bodyIndex[ObjectIdentifier(owner(of: item))]!] = behavior.properties
            }
        }
        for b in 1..<max(1, world.bodies.count) {
            let p = properties[b]
            let (area, moment) = bodyAreas[b]
            let scale = DynamicItemProperties.mass(density: p.density, area: 1)
            var body = world.bodies[b]
            body.mass = area * scale
            body.inertia = moment * scale
            body.isDynamic = !p.isAnchored && body.mass > 0
            body.invMass = body.isDynamic ? 1 / body.mass : 0
            body.invInertia =
                body.isDynamic && p.allowsRotation && body.inertia > 0 ? 1 / body.inertia : 0
            body.elasticity = p.elasticity
            body.friction = p.friction
            body.charge = p.charge
            body.linearDamping = exp(-p.resistance * world.h)
            body.angularDamping = exp(-p.angularResistance * world.h)
            if !body.isDynamic {
                body.velocity = .zero
                body.angularVelocity = 0
            }
            if body.invInertia == 0 { body.angularVelocity = 0 }
            let before = world.bodies[b]
            if body.invMass != before.invMass || body.invInertia != before.invInertia
                || body.friction != before.friction || body.elasticity != before.elasticity
            {
                contactsChanged = true
            }
            world.bodies[b] = body
        }

        var largestAcceleration = 0.0
        for b in world.bodies.indices { world.bodies[b].gravity = .zero }
        for case let gravity as GravityBehavior in flatBehaviors {
            let a = gravity.acceleration
            largestAcceleration += a.length
            for item in gravity.items {
                world.bodies[bodyIndex[ObjectIdentifier(owner(of: item))]!].gravity += Vec2(
                    a.dx, a.dy)
            }
        }
        world.pushes.removeAll(keepingCapacity: true)
        for case let push as PushBehavior in flatBehaviors where push.isActive {
            let f = push.pushDirection * PushBehavior.forceUnit
            for item in push.items {
                let (b, local) = bodyPoint(
                    owner(of: item), item, push.targetOffsetFromCenter(for: item), in: world)
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
        compileJoints(into: &world)
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
                world.fieldBodies.append(bodyIndex[ObjectIdentifier(owner(of: item))]!)
            }
            compiled.count = world.fieldBodies.count - compiled.first
            if field.kind == .linearGravity || field.kind == .radialGravity {
                largestAcceleration += abs(field.strength) * World.fieldAcceleration
            }
            world.fields.append(compiled)
        }
        world.restitutionThreshold = 1 + 2 * largestAcceleration * world.h
        return contactsChanged
    }

    /// Compiles the attachments and snaps into `world`'s joints, and finds which bodies hang
    /// from a single string.
    func compileJoints(into world: inout World) {
        world.joints.removeAll(keepingCapacity: true)
        for behavior in flatBehaviors {
            if let attachment = behavior as? AttachmentBehavior {
                world.joints.append(compile(attachment, in: world))
            } else if let snap = behavior as? SnapBehavior,
                let b = bodyIndex[ObjectIdentifier(owner(of: snap.item))]
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
    }

    /// The body and body-frame point (relative to the centre of mass) of an offset on an item,
    /// in `world` (the world being compiled, whose bodies know their centres of mass).
    func bodyPoint(
        _ owner: DynamicItem, _ item: DynamicItem, _ offset: Vector, in world: borrowing World
    )
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

    func compile(_ attachment: AttachmentBehavior, in world: borrowing World) -> Joint {
        var joint = Joint()
        let first = attachment.firstItem
        (joint.bodyA, joint.localA) = bodyPoint(
            owner(of: first), first, attachment.offsetFromFirstItem, in: world)
        if let second = attachment.secondItem {
            (joint.bodyB, joint.localB) = bodyPoint(
                owner(of: second), second, attachment.offsetFromSecondItem, in: world)
        } else {
            joint.bodyB = -1
            joint.localB = Vec2(attachment.anchorPoint.x, attachment.anchorPoint.y)
        }
        joint.length = attachment.length
        joint.frequency = attachment.frequency
        joint.dampingRatio = attachment.damping
        joint.frictionTorque = attachment.frictionTorque
        joint.maximumForce = attachment.maximumForce
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
}
