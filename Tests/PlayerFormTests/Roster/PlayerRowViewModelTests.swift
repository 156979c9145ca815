import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import Testing

func makePlayer(_ name: String, _ points: Double) -> Player {
    Player(name: name, points: points, uploadedAt: Date(timeIntervalSince1970: 0), recordIDs: [UUID()])
}

@Suite("PlayerRowViewModel")
struct PlayerRowViewModelTests {
    @Test("the title is the name while no upload runs")
    func titleIsTheName() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        #expect(row.title.value == "Colin")
        #expect(row.isUploading.value == false)
        #expect(row.percentComplete.value == 0)
    }

    @Test(
        "an update that respells the name and changes the points is one change of the line, never half of it")
    func lineChangesOnce() {
        let row = PlayerRowViewModel(makePlayer("  Ann  ", 1))
        let lines = Recorder(row.line)
        row.playerUpdated(makePlayer("Ann", 2))
        row.selectionChanged(true)
        #expect(
            lines.values == [
                .init(title: "  Ann  ", points: "1", isSelected: false),
                .init(title: "Ann", points: "2", isSelected: false),
                .init(title: "Ann", points: "2", isSelected: true),
            ])
    }

    @Test("while an upload runs with a percentage above zero the title shows it, then returns to the name")
    func titleShowsProgress() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        let titles = Recorder(row.title)
        row.uploadStarted()
        #expect(row.title.value == "Colin")
        row.uploadProgressed(percent: 40)
        #expect(row.title.value == "Colin 40%")
        row.uploadProgressed(percent: 75)
        row.uploadEnded()
        #expect(titles.values == ["Colin", "Colin 40%", "Colin 75%", "Colin"])
    }

    @Test("a percentage without a running upload does not show in the title")
    func percentWithoutUpload() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        row.uploadProgressed(percent: 40)
        #expect(row.title.value == "Colin")
        #expect(row.percentComplete.value == 40)
    }

    @Test("a percentage outside 0...100 is clamped")
    func percentClamped() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        row.uploadStarted()
        row.uploadProgressed(percent: 250)
        #expect(row.title.value == "Colin 100%")
        row.uploadProgressed(percent: -5)
        #expect(row.percentComplete.value == 0)
        #expect(row.title.value == "Colin")
    }

    @Test("a later upload updates the points and their text; equal points are not announced again")
    func pointsUpdate() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        let texts = Recorder(row.pointsText)
        row.playerUpdated(makePlayer("Colin", 105.5))
        row.playerUpdated(makePlayer("Colin", 105.5))
        #expect(texts.values == ["100", "105.5"])
        #expect(row.player.points == 105.5)
        #expect(row.id == "Colin")
        #expect(row.name.value == "Colin")
    }

    @Test("selection is continuous state of the row")
    func selection() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100), isSelected: true)
        let selected = Recorder(row.isSelected)
        row.selectionChanged(false)
        row.selectionChanged(false)
        #expect(selected.values == [true, false])
    }

    @Test("a reused row shows its new player with no upload running, and old bindings and work end")
    func reuse() {
        let row = PlayerRowViewModel(makePlayer("Colin", 100))
        let oldTitle = Recorder(row.title)
        let oldPoints = Recorder(row.pointsText)
        let work = Disposable {}
        row.bindWork(work)
        row.uploadStarted()
        row.uploadProgressed(percent: 40)

        row.reuse(for: makePlayer("Bob", 120), isSelected: true)

        #expect(work.isDisposed)
        #expect(row.id == "Bob")
        #expect(row.title.value == "Bob")
        #expect(row.pointsText.value == "120")
        #expect(row.isUploading.value == false)
        #expect(row.isSelected.value == true)
        row.uploadStarted()
        row.uploadProgressed(percent: 60)
        row.playerUpdated(makePlayer("bob", 130))
        #expect(row.title.value == "bob 60%")
        #expect(oldTitle.values == ["Colin", "Colin 40%"])
        #expect(oldPoints.values == ["100"])
        // Work bound after the reuse belongs to the new player.
        let later = Disposable {}
        row.bindWork(later)
        #expect(!later.isDisposed)
    }
}
