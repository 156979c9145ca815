import Dispatch
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

@Suite("Property")
struct PropertyTests {
    @Test("values sends the current value first, then every change")
    func valuesView() {
        let points = MutableProperty(100)
        let seen = Recorder(points.readOnly)
        points.value = 101
        #expect(seen.values == [100, 101])
    }

    @Test("changes sends only later changes")
    func changesView() {
        let points = MutableProperty(100)
        let seen = Recorder(changesOf: points.readOnly)
        #expect(seen.values.isEmpty)
        points.value = 101
        #expect(seen.values == [101])
    }

    @Test("setting an equal value is still a change unless de-duplicated")
    func equalValueIsAChange() {
        let name = MutableProperty("Colin")
        let raw = Recorder(changesOf: name.readOnly)
        let deduplicated = Recorder(name.changes.skipRepeats())
        name.value = "Colin"
        name.value = "Colin"
        #expect(raw.values == ["Colin", "Colin"])
        #expect(deduplicated.values == ["Colin"])
    }

    @Test("modify reads and writes in one step and notifies once")
    func modify() {
        let counter = MutableProperty(0)
        let seen = Recorder(changesOf: counter.readOnly)
        let previous = counter.modify { value -> Int in
            defer { value += 5 }
            return value
        }
        #expect(previous == 0)
        #expect(counter.value == 5)
        #expect(seen.values == [5])
    }

    @Test("update is a compare-and-set that notifies only when it changed the value")
    func update() {
        let busy = MutableProperty(false)
        let seen = Recorder(changesOf: busy.readOnly)
        let claim: () -> Bool = {
            busy.update { value in
                guard !value else { return false }
                value = true
                return true
            }
        }
        #expect(claim())
        #expect(!claim())
        #expect(busy.value)
        #expect(seen.values == [true])
    }

    @Test("withValue reads the value most recently stored")
    func withValue() {
        let names = MutableProperty(["Colin"])
        #expect(names.withValue { $0.count } == 1)
        names.value.append("Dana")
        #expect(names.withValue { $0.last } == "Dana")
    }

    @Test("a constant property has its value and never changes")
    func constant() {
        let constant = Property(value: "fixed")
        let seen = Recorder(constant)
        #expect(constant.value == "fixed")
        #expect(seen.values == ["fixed"])
    }

    @Test("map derives a value that follows its source")
    func map() {
        let points = MutableProperty(100.0)
        let text = points.readOnly.map { "\(Int($0)) points" }
        let seen = Recorder(text)
        points.value = 5
        #expect(text.value == "5 points")
        #expect(seen.values == ["100 points", "5 points"])
    }

    @Test("skipRepeats announces only real changes")
    func skipRepeats() {
        let points = MutableProperty(1)
        let parity = points.readOnly.map { $0.isMultiple(of: 2) }.skipRepeats()
        let seen = Recorder(parity)
        for value in [3, 5, 6, 8, 9] { points.value = value }
        #expect(seen.values == [false, true, false])
    }

    @Test("map(skippingRepeats:) derives a value and announces only when it changes")
    func mapSkippingRepeats() {
        let points = MutableProperty(1)
        let parity = points.readOnly.map(skippingRepeats: { $0.isMultiple(of: 2) })
        let seen = Recorder(parity)
        for value in [3, 5, 6, 8, 9] { points.value = value }
        #expect(parity.value == false)
        #expect(seen.values == [false, true, false])
    }

    @Test("map(skippingRepeats:) keeps the value stored before a change was refused as a repeat")
    func mapSkippingRepeatsStoresFirstValue() {
        let name = MutableProperty("Colin")
        let length = name.readOnly.map(skippingRepeats: { $0.count })
        let seen = Recorder(changesOf: length)
        name.value = "Dana"
        name.value = "Dana!"
        name.value = "Eve!!"
        #expect(length.value == 5)
        #expect(seen.values == [4, 5])
    }

    @Test("combineLatest of two properties has one initial value, then one per change")
    func combineLatest() {
        let name = MutableProperty("Colin")
        let points = MutableProperty(100)
        let both = Property.combineLatest(name.readOnly, points.readOnly)
        let seen = Recorder(both.map { "\($0.0) \($0.1)" })
        #expect(seen.values == ["Colin 100"])
        name.value = "Dana"
        points.value = 7
        #expect(seen.values == ["Colin 100", "Dana 100", "Dana 7"])
        #expect(both.value == ("Dana", 7))
    }

    @Test("combineLatest of three and of an array keep source order")
    func combineLatestMany() {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let c = MutableProperty(3)
        let triple = Property.combineLatest(a.readOnly, b.readOnly, c.readOnly)
        let array = Property.combineLatest([a.readOnly, b.readOnly, c.readOnly])
        c.value = 30
        #expect(triple.value == (1, 2, 30))
        #expect(array.value == [1, 2, 30])
    }

    @Test("a derived property sees a source's re-entrant write after the value being delivered")
    func derivedSeesReentrantWriteInOrder() {
        let name = MutableProperty("Colin")
        name.changes.observeValues { [name] value in
            if value == "darn" { name.value = "" }
        }
        let length = name.readOnly.map(\.count)
        let seen = Recorder(length)
        name.value = "darn"
        #expect(seen.values == [5, 4, 0])
        #expect(length.value == 0)
    }

    @Test("a derived property stays consistent under concurrent writes to its sources")
    func derivedUnderConcurrency() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = Property.combineLatest(a.readOnly, b.readOnly).map { $0 + $1 }
        let last = Mutex(0)
        sum.changes.observeValues { value in last.withLock { $0 = value } }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 1...2000 {
                if index == 0 { a.value = value } else { b.value = value }
            }
        }
        #expect(sum.value == 4000)
        #expect(last.withLock { $0 } == 4000)
    }
}
