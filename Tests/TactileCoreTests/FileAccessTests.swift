import Foundation
import TactileCore
import TestSupport
import Testing

/// The one file mechanism: bounded reads of regular files only, atomic writes that never
/// follow links, and a clear kind for every refusal.
@Suite struct FileAccessTests {
    let scratch = ScratchDirectory("files")

    @Test(arguments: [
        ("s", "."), ("dir/s", "dir"), ("/s", "/"), ("/a/b/c", "/a/b"), ("a//b", "a"), ("", "."),
        ("./x", "."), ("//x", "/"),
    ])
    func parentDirectories(path: String, parent: String) {
        #expect(FileAccess.parentDirectory(of: path) == parent)
    }

    @Test func readsAreBoundedAndOnlyOfRegularFiles() throws {
        let file = try scratch.write("12345", to: "f")
        #expect(try FileAccess.read(path: file, limit: 5) == Array("12345".utf8))
        #expect(throws: FileAccessError(path: file, kind: .tooLarge(limit: 4), operation: "read")) {
            try FileAccess.read(path: file, limit: 4)
        }
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileAccessError(path: fifo, kind: .notRegularFile, operation: "read")) {
            try FileAccess.read(path: fifo, limit: 10)
        }
        #expect(
            throws: FileAccessError(path: scratch.path, kind: .notRegularFile, operation: "read")
        ) {
            try FileAccess.read(path: scratch.path, limit: 10)
        }
        let missing = scratch.file("none")
        #expect(throws: FileAccessError(path: missing, kind: .notFound, operation: "read")) {
            try FileAccess.read(path: missing, limit: 10)
        }
        let deep = scratch.file("no/such/file")
        #expect(throws: FileAccessError(path: deep, kind: .missingDirectory, operation: "read")) {
            try FileAccess.read(path: deep, limit: 10)
        }
        let link = scratch.file("link")
        #expect(symlink(file, link) == 0)
        #expect(try FileAccess.read(path: link, limit: 10) == Array("12345".utf8))
        #expect(throws: FileAccessError(path: link, kind: .symbolicLink, operation: "read")) {
            try FileAccess.read(path: link, limit: 10, followsSymbolicLinks: false)
        }
    }

    @Test func writesReplaceAtomicallyWithTheModeAsked() throws {
        let file = scratch.file("store")
        try FileAccess.write(Array("one".utf8), to: file, permissions: 0o600)
        try FileAccess.write(Array("two".utf8), to: file, permissions: 0o600)
        #expect(scratch.contents("store") == Array("two".utf8))
        var info = stat()
        #expect(stat(file, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(names == ["store"], "no temporary left behind")
    }

    @Test func writesNeverFollowLinksOrReplaceOtherKinds() throws {
        let target = try scratch.write("precious", to: "target")
        let link = scratch.file("link")
        #expect(symlink(target, link) == 0)
        #expect(throws: FileAccessError(path: link, kind: .symbolicLink, operation: "write")) {
            try FileAccess.write(Array("x".utf8), to: link)
        }
        #expect(scratch.contents("target") == Array("precious".utf8))
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileAccessError(path: fifo, kind: .notRegularFile, operation: "write")) {
            try FileAccess.write(Array("x".utf8), to: fifo)
        }
        let deep = scratch.file("no/such/file")
        #expect(throws: FileAccessError(path: deep, kind: .missingDirectory, operation: "write")) {
            try FileAccess.write(Array("x".utf8), to: deep)
        }
    }

    @Test func anUncommittedFileLeavesNothing() throws {
        let path = scratch.file("out")
        do {
            let file = try AtomicFile(path: path)
            try file.write(Array("partial".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func locksRefuseLinksAndOtherKinds() throws {
        let target = try scratch.write("precious", to: "target")
        let link = scratch.file("lock")
        #expect(symlink(target, link) == 0)
        struct Failure: Error, Equatable { var error: FileAccessError }
        let wrap = { (error: FileAccessError) in Failure(error: error) }
        #expect(
            throws: Failure(
                error: FileAccessError(path: link, kind: .symbolicLink, operation: "lock"))
        ) {
            try FileAccess.withExclusiveLock(link, failure: wrap) {
                () throws(Failure) in
                Issue.record("ran under a lock through a link")
            }
        }
        let taken = try FileAccess.withExclusiveLock(scratch.file("real.lock"), failure: wrap) {
            () throws(Failure) in 42
        }
        #expect(taken == 42)
    }
}
