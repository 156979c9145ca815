import PlayerFormRecords
import Testing

@Suite("CSV records")
struct CSVRecordTests {
    @Test("the header names the columns in any order; other columns are ignored")
    func headerColumns() {
        #expect(
            readAll("id,points,name\n1,100,Colin\n2,-3,darn\n", format: .csv)
                == [record(2, "Colin", 100), record(3, "darn", -3), .end])
        #expect(readAll(" name , points \nColin,1\n", format: .csv) == [record(2, "Colin", 1), .end])
    }

    @Test("quoted fields hold commas, doubled quotes and line breaks; the record keeps its first line")
    func quoting() {
        let text = "name,points\n\"a,b\",1\n\"Jean \"\"JJ\"\"\",2\n\"two\nlines\",3\n\"\",4\nlast,5\n"
        #expect(
            readAll(text, format: .csv, chunkSize: 3)
                == [
                    record(2, "a,b", 1), record(3, "Jean \"JJ\"", 2), record(4, "two\nlines", 3),
                    record(6, "", 4),
                    record(7, "last", 5), .end,
                ])
    }

    @Test("CRLF line endings, a byte order mark, blank lines and a missing final line break are accepted")
    func lineEndings() {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("name,points\r\nColin,1\r\n\r\n  \nAlice,2".utf8)
        #expect(readAll(bytes, format: .csv) == [record(2, "Colin", 1), record(5, "Alice", 2), .end])
    }

    @Test("points take signs, fractions and exponents; NaN and infinities read as non-finite points")
    func points() {
        let text = "name,points\na,+1.5\nb,.5\nc,5.\nd,1E3\ne, 7 \nf,NaN\ng,-inf\nh,Infinity\n"
        let events = readAll(text, format: .csv)
        #expect(
            Array(events.prefix(5))
                == [
                    record(2, "a", 1.5), record(3, "b", 0.5), record(4, "c", 5), record(5, "d", 1000),
                    record(6, "e", 7),
                ])
        guard case .record(let nan) = events[5], case .record(_, let nanPoints) = nan.content else {
            Issue.record("NaN is not a record")
            return
        }
        #expect(nanPoints.isNaN)
        #expect(Array(events.suffix(3)) == [record(8, "g", -.infinity), record(9, "h", .infinity), .end])
    }

    @Test("a row that cannot be read is malformed and reading goes on with the next line")
    func malformedRows() {
        let text =
            "name,points\nonly\na,1,extra\na\"b,1\n\"a\"b,1\n,\nb,12abc\nc,0x10\nok,1\n\"open,1\nstill open\n"
        let events = readAll(text, format: .csv)
        let messages = events.compactMap(malformedMessage)
        #expect(messages.count == 8)
        #expect(messages[0] == "expected 2 fields as in the header row, found 1")
        #expect(messages[1] == "expected 2 fields as in the header row, found 3")
        #expect(messages[2].contains("a double quote inside an unquoted field"))
        #expect(messages[3].contains("text after the closing quote"))
        #expect(messages[4].contains("\"points\" is empty"))
        #expect(messages[5] == "\"points\" must be a number such as 12, -3.5 or 1e3, not \"12abc\"")
        #expect(messages[6].contains("not \"0x10\""))
        #expect(messages[7] == "a quoted field is not closed before the end of the input")
        #expect(events.contains(record(9, "ok", 1)))
        #expect(events.last == .end)
    }

    @Test("a mistake's column counts characters, and a record past its first line names the line")
    func mistakePlace() {
        let text = "name,points\n\"éé\"x,1\nab\"c,1\n\"abc\nb\"x,1\n"
        let messages = readAll(text, format: .csv).compactMap(malformedMessage)
        #expect(messages.count == 3)
        #expect(messages[0].hasPrefix("text after the closing quote of a field (column 5);"))
        #expect(messages[1].hasPrefix("a double quote inside an unquoted field (column 3);"))
        #expect(messages[2].hasPrefix("text after the closing quote of a field (line 5, column 3);"))
    }

    @Test("a name that is not valid UTF-8 is malformed, naming the byte and what Windows-1252 reads in it")
    func invalidUTF8Name() {
        let bytes = Array("name,points\n".utf8) + [0x61, 0xFF] + Array(",1\n".utf8)
        #expect(
            readAll(bytes, format: .csv).compactMap(malformedMessage) == [
                "the name is not valid UTF-8 (byte 0xFF, ÿ in Windows-1252); records must be UTF-8: convert the "
                    + "file, for example with iconv -f WINDOWS-1252 -t UTF-8"
            ])
    }

    @Test("a CSV without name and points in its header is unusable")
    func missingHeader() {
        #expect(
            readAll("Colin,100\nAlice,2\n", format: .csv)
                == [
                    .unusable(
                        "the CSV header row must name the columns name and points, separated by commas, "
                            + "semicolons or tabs; found: \"Colin\", \"100\"")
                ])
        #expect(
            readAll("name,name,points\n", format: .csv) == [
                .unusable("the CSV header names the column name twice")
            ])
        #expect(readAll("", format: .csv) == [.end])
    }
}
