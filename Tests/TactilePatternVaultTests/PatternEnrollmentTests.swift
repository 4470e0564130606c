import PatternTestSupport
import TactilePatternLock
import TactilePatternVault
import Testing

/// Setting a pattern: draw, confirm, and what happens on a mismatch or a short pattern.
@Suite struct PatternEnrollmentTests {

    @Test func drawThenConfirm() throws {
        var enrollment = PatternEnrollment()
        #expect(enrollment.submit(try pattern("1-2-3")) == .tooShort(minimum: 4))
        #expect(enrollment.step == .drawing)
        #expect(enrollment.submit(try pattern("1-2-3-6")) == .confirmNext)
        #expect(enrollment.step == .confirming)
        #expect(enrollment.submit(try pattern("1-2-3-6-9")) == .mismatch)
        #expect(enrollment.step == .confirming, "the first drawing is kept")
        #expect(enrollment.submit(try pattern("1-2-3-6")) == .confirmed(try pattern("1-2-3-6")))
        #expect(enrollment.step == .drawing)
    }

    @Test func restartForgetsTheFirstDrawing() throws {
        var enrollment = PatternEnrollment(minimumLength: 5)
        #expect(enrollment.submit(try pattern("1-2-3-6")) == .tooShort(minimum: 5))
        #expect(enrollment.submit(try pattern("1-2-3-6-9")) == .confirmNext)
        enrollment.restart()
        #expect(enrollment.submit(try pattern("7-8-9-6-3")) == .confirmNext)
        #expect(
            enrollment.submit(try pattern("7-8-9-6-3")) == .confirmed(try pattern("7-8-9-6-3")))
    }
}
