//! Writing SVG drawings of a position (a referee's optional `svg(seat)` export): text from players
//! (their names) escaped so it cannot break the document, and the document's frame.

/// `text` safe inside an SVG element or attribute, cut to `chars` characters; control characters
/// become spaces.
pub fn escaped(text: &str, chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(chars * 2));
    for c in text.chars().take(chars) {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The opening of a `width` × `height` document with a plain background; close it with `</svg>`.
pub fn open(width: u32, height: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"13\">\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#fbfaf6\"/>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_break_the_document() {
        assert_eq!(escaped("<b a=\"x\">&'", 40), "&lt;b a=&quot;x&quot;&gt;&amp;&apos;");
        assert_eq!(escaped("tab\there\u{0}", 40), "tab here ");
        assert_eq!(escaped("éèêë", 2), "éè");
        assert!(open(10, 20).starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"20\""));
    }
}
