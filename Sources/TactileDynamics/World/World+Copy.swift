extension World {
    /// A world of its own holding everything `other` holds: its bodies, shapes, joints,
    /// contacts with their accumulated impulses, and every setting and counter. Stepped alike,
    /// the two go on alike, to the bit.
    ///
    /// A new stored property of ``World`` must be copied here too. `AnimatorCopyTests` check
    /// that this initialiser names every stored property, and run a copy of a scene of
    /// resting, pressed-together bodies beside a run never copied, which tells when state
    /// that steers the simulation is left behind (the contacts' impulses, for one).
    init(copying other: borrowing World) {
        self.init(timeStep: other.h, positionIterations: other.positionIterations)
        bodies = Pool(copying: other.bodies)
        shapes = Pool(copying: other.shapes)
        localVertices = Pool(copying: other.localVertices)
        localNormals = Pool(copying: other.localNormals)
        worldVertices = Pool(copying: other.worldVertices)
        worldNormals = Pool(copying: other.worldNormals)
        joints = Pool(copying: other.joints)
        pushes = other.pushes
        impulses = other.impulses
        fields = other.fields
        fieldBodies = other.fieldBodies
        contacts = Pool(copying: other.contacts)
        previousContacts = Pool(copying: other.previousContacts)
        previousHead = Pool(copying: other.previousHead)
        previousNext = Pool(copying: other.previousNext)
        sortOrder = Pool(copying: other.sortOrder)
        bodyColors = Pool(copying: other.bodyColors)
        contactColors = Pool(copying: other.contactColors)
        colorStarts = Pool(copying: other.colorStarts)
        orderedContacts = Pool(copying: other.orderedContacts)
        laneGroups = Pool(copying: other.laneGroups)
        contactLanes = Pool(copying: other.contactLanes)
        solvesInLanes = other.solvesInLanes
        laneRemainder = other.laneRemainder
        contactsAreInLanes = other.contactsAreInLanes
        lanesNeedConstants = other.lanesNeedConstants
        lanesHoldImpulses = other.lanesHoldImpulses
        grid = Grid(copying: other.grid)
        time = other.time
        restitutionThreshold = other.restitutionThreshold
        linearSlop = other.linearSlop
        contactSlop = other.contactSlop
        contactBaumgarte = other.contactBaumgarte
        maximumContactCorrection = other.maximumContactCorrection
        softContacts = other.softContacts
        contactHertz = other.contactHertz
        contactDampingRatio = other.contactDampingRatio
        contactPushSpeed = other.contactPushSpeed
        fastestPush = other.fastestPush
        pushing = Pool(copying: other.pushing)
        contactsJustPrepared = other.contactsJustPrepared
        contactsMayImpact = other.contactsMayImpact
        impactsMarked = other.impactsMarked
        previousFastestPush = other.previousFastestPush
        maximumTranslation = other.maximumTranslation
        impactTimes = Pool(copying: other.impactTimes)
        impactShifts = Pool(copying: other.impactShifts)
        impactTurns = Pool(copying: other.impactTurns)
        tethers = Pool(copying: other.tethers)
        tetherPoints = Pool(copying: other.tetherPoints)
        stepsUntilDetection = other.stepsUntilDetection
        sweepSteps = other.sweepSteps
        strays = Pool(copying: other.strays)
        strayMarks = Pool(copying: other.strayMarks)
        shapesBoundAgain = Pool(copying: other.shapesBoundAgain)
        boundAgain = Pool(copying: other.boundAgain)
        strayShapes = Pool(copying: other.strayShapes)
        detections = other.detections
        strayDetections = other.strayDetections
        detectionInterval = other.detectionInterval
        reuseDistance = other.reuseDistance
        tracksContacts = other.tracksContacts
    }
}

extension Grid {
    /// A grid of its own with `other`'s cells and entries.
    init(copying other: borrowing Grid) {
        self.init()
        small = Pool(copying: other.small)
        large = Pool(copying: other.large)
        origin = other.origin
        inverseCell = other.inverseCell
        columns = other.columns
        rows = other.rows
        starts = Pool(copying: other.starts)
        entries = Pool(copying: other.entries)
        cursor = Pool(copying: other.cursor)
    }
}
