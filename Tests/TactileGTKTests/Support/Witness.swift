/// An object whose release a weak reference sees: a closure under test captures it.
final class Witness {}
