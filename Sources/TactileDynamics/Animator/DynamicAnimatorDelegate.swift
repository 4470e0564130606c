/// Told when an animator stops computing (everything rests) and starts again.
public protocol DynamicAnimatorDelegate: AnyObject {
    /// Every item has come to rest; the animator stops stepping until something changes.
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
    /// An item, behaviour or parameter changed while paused; stepping resumes.
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
}
