// Collection generators (layer 2): arrays with length bounds, elements of a collection.

extension Gen {
    /// Arrays of `element` values with a length in `length`. After the minimum, each element
    /// is preceded by a coin (0 = stop, the simpler), and the coin and the element form one
    /// span, so deleting the span deletes exactly one element; the closing coin is no span.
    public static func array<Element>(of element: Gen<Element>, length: ClosedRange<Int> = 0...100)
        -> Gen<[Element]>
    where Value == [Element] {
        precondition(length.lowerBound >= 0, "a length is not negative")
        let elementLabel = spanLabel("element", parts: [element.label])
        return Gen<[Element]>(
            "array", parts: [element.label, UInt64(length.lowerBound), UInt64(length.upperBound)]
        ) { testCase in
            var elements: [Element] = []
            elements.reserveCapacity(length.lowerBound)
            for _ in 0..<length.lowerBound { elements.append(element.generate(testCase)) }
            // Stop with probability 1/8 when generating: a mean of about 7 elements.
            while elements.count < length.upperBound,
                testCase.beginRepetition(elementLabel, stopOneIn: 8)
            {
                elements.append(element.generate(testCase))
                testCase.endSpan()
            }
            return elements
        }
    }

    /// Arrays of exactly `count` `element` values.
    public static func array<Element>(of element: Gen<Element>, count: Int) -> Gen<[Element]>
    where Value == [Element] {
        array(of: element, length: count...count)
    }

    /// One element of `elements` (not empty); the first is the simplest.
    public static func element(of elements: [Value]) -> Gen<Value> {
        precondition(!elements.isEmpty, "there is an element to choose")
        return Gen("element-of", parts: [UInt64(elements.count)]) { testCase in
            let index = testCase.draw(atMost: UInt64(elements.count - 1), kind: .index) {
                $0.nextBounded(below: UInt64(elements.count))
            }
            return elements[Int(index)]
        }
    }
}
