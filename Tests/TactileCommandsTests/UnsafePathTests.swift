import Foundation
import TestSupport
import Testing

@testable import TactileCommands

/// Paths an attacker or a slip of the keyboard might give: one-character names, symbolic
/// links, FIFOs, directories, missing folders. Nothing crashes, hangs, or writes through a
/// link; the exit code says bad input (2), not a damaged store (4).
@Suite struct UnsafePathTests {
    let scratch = ScratchDirectory("paths")

    func pattern(_ arguments: String..., input: String = "") -> CommandRun {
        patternCommand(arguments, input: input)
    }

    @Test func aOneCharacterStorePathWorksInItsFolder() throws {
        // `deletingLastPathComponent` on "s" used to trap after the store was written.
        let set = try runTactileProcess(
            ["pattern", "set", "--store", "s", "-"], in: scratch.path, standardInput: "1-5-9-6\n",
            timeout: 60)
        #expect(set.status == 0, "\(set.errors)")
        #expect(!set.wasSignalled)
        let check = try runTactileProcess(
            ["pattern", "check", "--store", "s", "-"], in: scratch.path,
            standardInput: "1-5-9-6\n", timeout: 60)
        #expect(check.status == 0, "\(check.errors)")
        #expect(scratch.contents("s")?.count == 120)
    }

    @Test func aDirectoryOrAMissingFolderIsBadInput() {
        for store in [scratch.path, scratch.file("no/such/dir/x")] {
            let set = pattern("set", "--store", store, "1-5-9-6")
            #expect(set.code == 2, "\(store): \(set.errors)")
            #expect(pattern("check", "--store", store, "1-5-9-6").code == 2)
        }
        #expect(
            pattern("set", "--store", scratch.file("no/such/dir/x"), "1-5-9-6").errors
                .contains("folder that does not exist"))
    }

    @Test func aFIFOAsTheStoreIsRefusedWithoutWaiting() throws {
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Waiting for a writer, the check would never end by itself: it would be stopped.
        let run = try runTactileProcess(
            ["pattern", "check", "--store", fifo, "1-5-9-6"], timeout: 60)
        #expect(!run.wasSignalled, "a FIFO store made the check wait for a writer")
        #expect(run.status == 2, "\(run.errors)")
        #expect(run.errors.contains("not a regular file"))
    }

    @Test func aSymlinkedStoreIsNeverFollowed() throws {
        let target = try scratch.write("precious", to: "target")
        let link = scratch.file("store")
        #expect(symlink(target, link) == 0)
        #expect(pattern("set", "--store", link, "1-5-9-6").code == 2)
        #expect(pattern("check", "--store", link, "1-5-9-6").code == 2)
        #expect(scratch.contents("target") == Array("precious".utf8))
    }

    @Test func aSymlinkedLockFileIsRefused() throws {
        let target = try scratch.write("precious", to: "target")
        #expect(symlink(target, scratch.file("store.lock")) == 0)
        let run = pattern("set", "--store", scratch.file("store"), "1-5-9-6")
        #expect(run.code == 2)
        #expect(run.errors.contains("symbolic link"))
        #expect(scratch.contents("target") == Array("precious".utf8))
    }

    @Test func symlinkedOutputsAreRefusedAndTheirTargetsKept() throws {
        let target = try scratch.write("precious", to: "target")
        for name in ["shot.png", "shot.gif"] {
            #expect(symlink(target, scratch.file(name)) == 0)
            let run = tactile([
                "render", "hanoi", "--out", scratch.file(name), "--size", "32x32", "--seconds",
                "0.1",
            ])
            #expect(run.code == 2, "\(name)")
            #expect(run.errors.contains("symbolic link"), "\(run.errors)")
        }
        let out = scratch.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(symlink(target, out + "/piece.png") == 0)
        let made = tactile(["puzzle", "new", "--state", scratch.file("state"), "--out", out])
        #expect(made.code == 2)
        #expect(made.errors.contains("symbolic link"), "\(made.errors)")
        #expect(scratch.contents("target") == Array("precious".utf8))
    }

    @Test func temporariesOfKilledWritersAreCleanedUp() throws {
        // A writer killed between creating and renaming leaves `<store>.tmp-<pid>-<random>`;
        // a pid that no longer runs marks it stale. (pid 2^22 + 1 is beyond Linux's pid_max
        // default, so no process has it.)
        let store = scratch.file("pattern.store")
        #expect(pattern("set", "--store", store, "1-5-9-6").code == 0)
        let stale = try scratch.write("half", to: "pattern.store.tmp-4194305-abc")
        let live = try scratch.write("half", to: "pattern.store.tmp-\(getpid())-def")
        #expect(pattern("check", "--store", store, "1-5-9-6").code == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live), "a running writer's file stays")
    }
}
