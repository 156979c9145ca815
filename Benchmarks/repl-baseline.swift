// The baseline for the scripted-throughput benchmark: reads lines from standard input and writes
// one line for each, with no other work. playerform is compared against it.
var count = 0
while let line = readLine(strippingNewline: true) {
    count += 1
    print("line \(count): \(line.utf8.count) bytes")
}
