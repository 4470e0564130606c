/// Contacts found again around the bodies that strayed, between detections.
///
/// In a scene of many bodies, contacts found at a detection serve several steps (see
/// `contactReuse`), as long as no body strays further from the motion they were found for than
/// they allow for. In a pit that balls keep pouring into, some ball lands or is struck at
/// almost every step, and finding every contact again for one ball's sake is most of the
/// step's work. Instead, only the strays' contacts are found again, for the steps the others
/// still serve: every other body is still within what its contacts allow for, and the bounds
/// its shapes got at the last detection still hold everywhere it goes till the next.
extension World {
    /// Drops the strays' contacts and finds theirs again: each stray's shapes get bounds swept
    /// over the steps left, are tested against the shapes in the grid cells those bounds
    /// cover, against large shapes, against the shapes of earlier strays since the detection
    /// and against one another, and the contacts found inherit the impulses of the ones they
    /// replace. Contacts between other bodies are kept as they are, prepared where they were,
    /// in their lanes.
    mutating func findContactsAroundStrays() {
        if strayMarks.count != bodies.count {
            strayMarks = Pool(repeating: false, count: bodies.count)
            boundAgain = Pool(repeating: false, count: bodies.count)
        }
        strayDetections += 1
        for index in strays.indices { strayMarks[strays[index]] = true }
        sweepSteps = stepsUntilDetection
        let sweep = h * Double(sweepSteps)
        let slack = reuseSlack
        for index in strays.indices { startDrift(strays[index]) }
        // The strays' shapes, with bounds for the steps left. (A stray is a moving body: its
        // shapes are small ones.) Their places in the grid are where they were at the last
        // detection: from now until the next, they are listed among the shapes bound again.
        strayShapes.removeAll()
        for s in shapes.indices where strayMarks[shapes[s].body] {
            bound(s, sweep: sweep, slack: slack)
            strayShapes.append(s)
            if !boundAgain[shapes[s].body] { shapesBoundAgain.append(s) }
        }
        // The contacts on a stray leave for `previousContacts`, to hand their impulses on.
        // Those in lanes leave their places vacant (their lanes empty), so the others keep
        // their colours, groups and lanes; those after them close up.
        previousContacts.removeAll()
        let inLanes = contactsAreInLanes ? laneRemainder : 0
        // Contacts in lanes are in the order of their groups: a group is loaded again once,
        // after the last of its lanes is emptied.
        var emptied = -1
        for k in 0..<inLanes where contacts[k].pointCount > 0 {
            guard strayMarks[contacts[k].bodyA] || strayMarks[contacts[k].bodyB] else { continue }
            previousContacts.append(contacts[k])
            vacate(k)
            let g = contactLanes[k] / 4
            if g != emptied {
                if emptied >= 0 { reloadEmptiedGroup(emptied) }
                emptied = g
            }
        }
        if emptied >= 0 { reloadEmptiedGroup(emptied) }
        var kept = inLanes
        for k in inLanes..<contacts.count {
            if strayMarks[contacts[k].bodyA] || strayMarks[contacts[k].bodyB] {
                previousContacts.append(contacts[k])
            } else {
                if kept != k { contacts[kept] = contacts[k] }
                kept += 1
            }
        }
        contacts.resize(toUninitialized: kept)
        // The contacts found now come last, solved one at a time.
        let firstFound = contacts.count
        for index in strayShapes.indices { findContacts(ofStray: index) }
        for index in strays.indices { boundAgain[strays[index]] = true }
        matchContacts(from: firstFound)
        for index in strays.indices {
            let i = strays[index]
            bodies[i].origin = bodies[i].position
            bodies[i].originAngle = bodies[i].angle
        }
        for k in firstFound..<contacts.count { prepareStrayContact(k) }
        for index in strays.indices { strayMarks[strays[index]] = false }
        strays.removeAll()
    }

    /// Forgets which shapes were bound again since the last detection, as every shape is now.
    mutating func forgetShapesBoundAgain() {
        for index in shapesBoundAgain.indices {
            boundAgain[shapes[shapesBoundAgain[index]].body] = false
        }
        shapesBoundAgain.removeAll()
    }

    /// Forgets the strays and the shapes bound again around them, whose indices no longer
    /// mean anything once the bodies and shapes are compiled again.
    mutating func forgetStrays() {
        strays.removeAll()
        strayMarks = Pool()
        shapesBoundAgain.removeAll()
        boundAgain = Pool()
    }

    /// Finds the contacts of the stray shape at `strayShapes[index]` with every other shape.
    @inline(__always)
    mutating func findContacts(ofStray index: Int) {
        let a = strayShapes[index]
        // The shapes in the grid, each tested in the one cell that holds the top-left corner
        // of the overlap of the bounds (both bounds cover it, so both are listed there). A
        // shape bound again since the detection is listed where it was then: those are tested
        // below.
        let (x0, y0) = grid.cellXY(shapes[a].minX, shapes[a].minY)
        let (x1, y1) = grid.cellXY(shapes[a].maxX, shapes[a].maxY)
        for y in y0...y1 {
            for x in x0...x1 {
                let c = y * grid.columns + x
                for e in grid.starts[c]..<grid.starts[c + 1] {
                    let b = grid.entries[e]
                    guard !boundAgain[shapes[b].body], !strayMarks[shapes[b].body],
                        boundsOverlap(a, b)
                    else { continue }
                    guard overlapCorner(a, b) == c, shouldCollide(a, b) else { continue }
                    collideWithStray(a, b)
                }
            }
        }
        for large in grid.large.indices {
            let b = grid.large[large]
            guard boundsOverlap(a, b), shouldCollide(a, b) else { continue }
            collideWithStray(a, b)
        }
        // Shapes of earlier strays, bound again where they were then.
        for moved in shapesBoundAgain.indices {
            let b = shapesBoundAgain[moved]
            guard !strayMarks[shapes[b].body], boundsOverlap(a, b), shouldCollide(a, b) else {
                continue
            }
            collideWithStray(a, b)
        }
        // The strays' shapes after this one, each pair once.
        for later in (index + 1)..<strayShapes.count {
            let b = strayShapes[later]
            guard boundsOverlap(a, b), shouldCollide(a, b) else { continue }
            collide(min(a, b), max(a, b))
        }
    }

    /// Empties contact `k`, in a lane: no points, no impulses, nothing to collide or call back
    /// about, and its lane empty (its group's lanes to be loaded again with
    /// ``reloadEmptiedGroup(_:)``).
    @inline(__always)
    mutating func vacate(_ k: Int) {
        contacts[k].pointCount = 0
        contacts[k].elasticity = 0
        contacts[k].friction = 0
        contacts[k].first.normalImpulse = 0
        contacts[k].first.tangentImpulse = 0
        contacts[k].second.normalImpulse = 0
        contacts[k].second.tangentImpulse = 0
        contacts[k].isImpact = false
        contacts[k].finalSeparation = .infinity
        laneGroups[contactLanes[k] / 4].contact[contactLanes[k] % 4] = -1
        lanesHoldImpulses = false
    }

    /// Loads group `g`'s lanes again after some were emptied, unless every group is loaded
    /// before the next pass anyway.
    @inline(__always)
    mutating func reloadEmptiedGroup(_ g: Int) {
        if !lanesNeedConstants { loadGroupConstants(g) }
    }

    /// Prepares contact `k`, found around a stray, where its bodies are now. Contacts are
    /// measured later from how far their bodies moved and turned since the last detection
    /// (`measureContact`); a stray's partner has moved since then already, so that part of
    /// its move is taken off the prepared separations, which then measure from now.
    @inline(__always)
    mutating func prepareStrayContact(_ k: Int) {
        prepareContact(k)
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        let turnA = bodies[i].angle - bodies[i].originAngle
        let turnB = bodies[j].angle - bodies[j].originAngle
        let moveA = bodies[i].position - bodies[i].origin
        let moveB = bodies[j].position - bodies[j].origin
        let n = contacts[k].normal
        for point in 0..<contacts[k].pointCount {
            contacts[k].withPoint(point) {
                $0.preparedSeparation -= (moveB + cross(turnB, $0.rb) - moveA - cross(turnA, $0.ra))
                    .dot(n)
            }
        }
    }

    /// Tests stray shape `a` against shape `b`, moved to where its body is now first (its
    /// world vertices were placed at the last detection).
    @inline(__always)
    mutating func collideWithStray(_ a: Int, _ b: Int) {
        place(b)
        collide(min(a, b), max(a, b))
    }
}
