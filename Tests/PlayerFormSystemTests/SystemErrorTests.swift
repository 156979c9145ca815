import Glibc
import PlayerFormSystem
import Testing

@Suite("The operating system's words for errno")
struct SystemErrorTests {
    @Test("errno values read as strerror writes them")
    func text() {
        #expect(SystemError.text(ENOENT) == "No such file or directory")
        #expect(SystemError.text(ENOSPC) == "No space left on device")
        #expect(SystemError.text(EACCES) == "Permission denied")
    }
}
