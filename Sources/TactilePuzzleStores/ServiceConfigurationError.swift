/// A service option that cannot be used: a store's URL, or a site's settings.
public struct ServiceConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public var description: String
    package init(_ description: String) { self.description = description }
}
