import Foundation
import TactileCore
import TestSupport
import Testing

/// `FileAccess.createDirectory`: folders created as `mkdir -p` creates them, with the mode
/// asked for, and a failure that names the folder that could not be made and the system's
/// reason.
@Suite struct DirectoryCreationTests {
    let scratch = ScratchDirectory("folders")

    func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0, "\(path)")
        return info.st_mode & 0o7777
    }

    @Test func missingFoldersAreCreatedWithTheModeAskedWhateverTheUmask() throws {
        let deep = scratch.file("a/b/c")
        // Group write would be cut by the usual umask (022): the mode is set exactly.
        try FileAccess.createDirectory(deep, permissions: 0o770)
        for path in [scratch.file("a"), scratch.file("a/b"), deep] { #expect(mode(path) == 0o770) }
        // Again: the folders are there, which is no error.
        try FileAccess.createDirectory(deep, permissions: 0o770)
        try FileAccess.createDirectory(scratch.file("a/b/c/"))
    }

    @Test func aLinkToAFolderIsAFolder() throws {
        try FileAccess.createDirectory(scratch.file("real"))
        #expect(symlink(scratch.file("real"), scratch.file("link")) == 0)
        try FileAccess.createDirectory(scratch.file("link"))
        try FileAccess.createDirectory(scratch.file("link/inside"))
        #expect(mode(scratch.file("real/inside")) & 0o700 == 0o700)
    }

    @Test func aFailureNamesTheFolderAndTheSystemsReason() throws {
        let file = try scratch.write("x", to: "file")
        let cases: [(path: String, failed: String, reason: String)] = [
            (file, file, "File exists"),
            (file + "/sub", file + "/sub", "Not a directory"),
            (file + "/sub/deeper", file + "/sub/deeper", "Not a directory"),
            // procfs makes no folders: the first missing one is named, not the one asked for.
            ("/proc/self/nope/a/b", "/proc/self/nope", "No such file or directory"),
        ]
        for (path, failed, reason) in cases {
            #expect {
                try FileAccess.createDirectory(path)
            } throws: { error in
                guard let error = error as? FileAccessError else { return false }
                return error.path == failed && error.reason == reason
                    && error.description == "cannot create \(failed): \(reason)"
            }
        }
    }
}
