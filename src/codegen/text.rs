//! Writing program text: a line builder, and the comments every dialect opens with (the title,
//! the scenario's description, how to run the program, and the caveats: what of the scenario it
//! cannot express). The three dialects differ only in their comment marker and, for Java, in
//! how a comment is made safe.

/// A small line builder (writing to a `String` cannot fail; no `unwrap` needed).
#[derive(Default)]
pub(crate) struct Text {
    out: String,
}

impl Text {
    pub(crate) fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    pub(crate) fn blank(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// Ends the text with exactly `n` empty lines (Python wants two between top-level blocks).
    pub(crate) fn blank_lines(&mut self, n: usize) {
        while self.out.ends_with("\n\n") {
            self.out.pop();
        }
        if !self.out.is_empty() {
            for _ in 0..n {
                self.out.push('\n');
            }
        }
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    pub(crate) fn lines<S: AsRef<str>>(&mut self, lines: impl IntoIterator<Item = S>) {
        for l in lines {
            self.line(l);
        }
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// Text for a line comment: control characters (newlines included) become spaces.
pub(crate) fn comment_text(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// Word-wraps `text` into comment lines of at most `width` characters after `prefix`.
pub(crate) fn wrap_comment(prefix: &str, text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in comment_text(text).split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(format!("{prefix}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{prefix}{line}"));
    }
    lines
}

/// Characters of comment text per line, after the marker.
const COMMENT_WIDTH: usize = 96;

/// How a dialect writes line comments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comments {
    /// `//`, `#` or `--`.
    pub(crate) marker: &'static str,
    /// Whether backslashes are doubled: javac turns `\u000a` into a line break even inside a
    /// comment, which would let a description end the comment; `\\u000a` is not an escape.
    pub(crate) double_backslashes: bool,
}

pub(crate) const JAVA_COMMENTS: Comments = Comments { marker: "//", double_backslashes: true };
pub(crate) const PYTHON_COMMENTS: Comments = Comments { marker: "#", double_backslashes: false };
pub(crate) const SQL_COMMENTS: Comments = Comments { marker: "--", double_backslashes: false };

impl Comments {
    /// `text` as comment lines, each starting with `prefix` (the marker and what follows it).
    fn wrap(&self, prefix: &str, text: &str) -> Vec<String> {
        if self.double_backslashes {
            wrap_comment(prefix, &text.replace('\\', "\\\\"), COMMENT_WIDTH)
        } else {
            wrap_comment(prefix, text, COMMENT_WIDTH)
        }
    }

    /// The program's opening comment: `title`, the scenario's `description` (if any), the lines
    /// on how to run it (`run`, written after the marker as they are), and the `caveats` under
    /// "Differences from what Tidemark shows:" (if any).
    pub(crate) fn header(&self, t: &mut Text, title: &str, description: &str, run: &[String], caveats: &[String]) {
        let m = self.marker;
        t.line(format!("{m} {title}"));
        if !description.is_empty() {
            t.line(m);
            t.lines(self.wrap(&format!("{m} "), description));
        }
        t.line(m);
        for line in run {
            t.line(format!("{m} {line}"));
        }
        if !caveats.is_empty() {
            t.line(m);
            self.list(t, "Differences from what Tidemark shows:", caveats);
        }
    }

    /// A titled list: `title`, then each item as `- ` and its text, wrapped lines indented.
    pub(crate) fn list(&self, t: &mut Text, title: &str, items: &[String]) {
        let m = self.marker;
        t.line(format!("{m} {title}"));
        let (first, rest) = (format!("{m} - "), format!("{m}   "));
        for item in items {
            for (i, line) in self.wrap(&rest, item).into_iter().enumerate() {
                t.line(if i == 0 { line.replacen(&rest, &first, 1) } else { line });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Comments cannot be broken out of by the description.
    #[test]
    fn comments_are_one_line_each() {
        let lines = wrap_comment("// ", "a\nb */ c\r\nd", 80);
        assert_eq!(lines, vec!["// a b */ c d".to_string()]);
        assert_eq!(wrap_comment("# ", "aaa bbb ccc", 7), vec!["# aaa bbb".to_string(), "# ccc".to_string()]);
    }

    /// A header: title, description, run lines, then the caveats as a list whose wrapped lines
    /// are indented under the item; Java's comments double backslashes.
    #[test]
    fn headers_list_the_caveats() {
        let mut t = Text::default();
        let long = "word ".repeat(30);
        JAVA_COMMENTS.header(&mut t, "Title.", "a \\u000a b", &["run it".into()], &[long.trim().into()]);
        let text = t.finish();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..5], ["// Title.", "//", "// a \\\\u000a b", "//", "// run it"]);
        assert_eq!(lines[5..7], ["//", "// Differences from what Tidemark shows:"]);
        assert!(lines[7].starts_with("// - word word"), "{text}");
        assert!(lines[8].starts_with("//   word"), "{text}");
        let mut t = Text::default();
        SQL_COMMENTS.header(&mut t, "T", "", &[], &[]);
        assert_eq!(t.finish(), "-- T\n--\n");
    }
}
