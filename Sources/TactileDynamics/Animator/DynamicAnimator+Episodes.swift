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

/// Contact episodes: which participants touch, and the collision delegates' calls.
extension DynamicAnimator {
    // MARK: - Contact episodes

    /// Compares this step's touching pairs with the last step's and queues began and ended
    /// events. A contact begins when the surfaces meet (or an impact is resolved) and ends
    /// when they are more than half a point apart, so resting contacts do not flicker.
    func recordContacts() {
        currentEpisodes.removeAll(keepingCapacity: true)
        for cIndex in world.contacts.indices {
            let c = world.contacts[cIndex]
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
