// XML escaping for the SVG pictures and the sweep chart: the five special characters, and
// nothing else touched.
import Pictures
import Testing

@Suite("XML text")
struct XMLTextTests {
    @Test("the five special characters are escaped, other text is kept as it is")
    func escaped() {
        #expect(
            XMLText.escaped(#"a & b < c > d "e" 'f'"#)
                == "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;")
        #expect(XMLText.escaped("plain – text, 20 m/s") == "plain – text, 20 m/s")
        #expect(XMLText.escaped("&amp;") == "&amp;amp;")
    }
}
