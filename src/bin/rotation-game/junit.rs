//! JUnit XML reports, which CI systems (GitHub Actions reporters, GitLab,
//! Jenkins, Azure Pipelines) display natively.
//!
//! The layout is the common JUnit schema (Ant's `junit.xsd`, which
//! Jenkins' xUnit plugin and GitLab read): `<testsuites>` holding one
//! `<testsuite>` (its required attributes `name`, `tests`, `failures`,
//! `errors`, `skipped`, `time`, `timestamp` and `hostname`), holding
//! `<properties>` and one `<testcase>` (`name`, `classname`, `time`) per
//! run or file, each failing one with a `<failure message="…" type="…">` whose
//! text is the detail.

use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A test suite: one campaign, or one folder judged.
pub struct Suite {
    /// Its name.
    pub name: String,
    /// Name and value pairs, such as the seed and the limits.
    pub properties: Vec<(String, String)>,
    /// Its test cases, in order.
    pub cases: Vec<Case>,
    /// When it started.
    pub started: SystemTime,
}

/// A test case: one run, or one file.
pub struct Case {
    /// Its name.
    pub name: String,
    /// Its class name (CI systems group cases by it).
    pub classname: String,
    /// Its time.
    pub time: Duration,
    /// Its failure, if it failed.
    pub failure: Option<CaseFailure>,
}

/// Why a test case failed.
pub struct CaseFailure {
    /// The failure's type: the verdict's code.
    pub kind: String,
    /// A one-line message.
    pub message: String,
    /// The detail, as the element's text.
    pub detail: String,
}

/// The program's file name, for JUnit class names (CI systems group by
/// them): `a.out` for `./build/a.out --fast`.
pub fn program_file_name(program: &str) -> String {
    let first = program.split_whitespace().next().unwrap_or(program);
    Path::new(first).file_name().map_or_else(
        || first.to_owned(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Text made safe for XML: the five special characters escaped, and the
/// characters XML 1.0 does not allow (control characters other than tab,
/// line feed and carriage return) replaced by U+FFFD.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' | '\n' | '\r' => escaped.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                escaped.push('\u{FFFD}')
            }
            c => escaped.push(c),
        }
    }
    escaped
}

/// `2025-12-01T04:35:19`: a time in UTC as the schema's `timestamp` wants
/// it (ISO 8601 without a time zone). A clock set before 1970 or after
/// 9999, which RFC 3339 cannot write, gives the nearest time it can.
pub fn timestamp(time: SystemTime) -> String {
    // 9999-12-31T23:59:59, the last second of RFC 3339's four-digit years.
    let last = SystemTime::UNIX_EPOCH + Duration::from_secs(253_402_300_799);
    let time = time.clamp(SystemTime::UNIX_EPOCH, last);
    let mut rfc3339 = humantime::format_rfc3339_seconds(time).to_string();
    // RFC 3339 ends in `Z` (UTC); the schema's `xs:dateTime` takes none.
    rfc3339.pop();
    rfc3339
}

/// This machine's name, for the `hostname` attribute.
fn hostname() -> String {
    hostname_from(std::fs::read_to_string("/proc/sys/kernel/hostname"))
}

/// The name the kernel's hostname file holds (`read`, its contents), or
/// `localhost` when it cannot be read or is blank.
fn hostname_from(read: io::Result<String>) -> String {
    read.ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

fn seconds(time: Duration) -> String {
    format!("{:.6}", time.as_secs_f64())
}

/// Writes one `<testcase>`, with its `<failure>` if it failed.
fn write_case(out: &mut dyn Write, case: &Case) -> io::Result<()> {
    let head = format!(
        r#"    <testcase name="{}" classname="{}" time="{}""#,
        escape(&case.name),
        escape(&case.classname),
        seconds(case.time)
    );
    let Some(failure) = &case.failure else {
        return writeln!(out, "{head}/>");
    };
    writeln!(out, "{head}>")?;
    writeln!(
        out,
        r#"      <failure message="{}" type="{}">{}</failure>"#,
        escape(&failure.message),
        escape(&failure.kind),
        escape(&failure.detail)
    )?;
    writeln!(out, "    </testcase>")
}

/// Writes `suite` as a JUnit XML document.
pub fn write(out: &mut dyn Write, suite: &Suite) -> io::Result<()> {
    let tests = suite.cases.len();
    let failures = suite
        .cases
        .iter()
        .filter(|case| case.failure.is_some())
        .count();
    let time = seconds(suite.cases.iter().map(|case| case.time).sum());
    let name = escape(&suite.name);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{name}" tests="{tests}" failures="{failures}" errors="0" skipped="0" time="{time}">"#
    )?;
    writeln!(
        out,
        r#"  <testsuite name="{name}" tests="{tests}" failures="{failures}" errors="0" skipped="0" time="{time}" timestamp="{}" hostname="{}">"#,
        timestamp(suite.started),
        escape(&hostname())
    )?;
    writeln!(out, "    <properties>")?;
    for (property, value) in &suite.properties {
        writeln!(
            out,
            r#"      <property name="{}" value="{}"/>"#,
            escape(property),
            escape(value)
        )?;
    }
    writeln!(out, "    </properties>")?;
    for case in &suite.cases {
        write_case(out, case)?;
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_name_is_the_program_file_without_folder_or_arguments() {
        assert_eq!(program_file_name("./build/a.out --fast"), "a.out");
        assert_eq!(program_file_name("python3 solve.py"), "python3");
        assert_eq!(program_file_name("mine"), "mine");
        assert_eq!(program_file_name("/"), "/");
    }

    #[test]
    fn special_and_forbidden_characters_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\t"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}\t"
        );
        assert_eq!(
            escape("\u{1f}\u{20}\n\r\u{FFFE}\u{FFFF}\u{FFFD}é"),
            "\u{FFFD} \n\r\u{FFFD}\u{FFFD}\u{FFFD}é"
        );
    }

    #[test]
    fn the_host_is_the_kernels_hostname_or_localhost() {
        assert_eq!(hostname_from(Ok("judge-7\n".to_owned())), "judge-7");
        assert_eq!(hostname_from(Ok(" \n".to_owned())), "localhost");
        assert_eq!(
            hostname_from(Err(io::ErrorKind::NotFound.into())),
            "localhost"
        );
        let here = hostname_from(std::fs::read_to_string("/proc/sys/kernel/hostname"));
        assert_eq!(hostname(), here);
    }

    #[test]
    fn timestamps_are_utc_civil_dates() {
        let at = |seconds| timestamp(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970-01-01T00:00:00");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00");
        assert_eq!(at(1_764_563_719), "2025-12-01T04:35:19");
        let before_1970 = SystemTime::UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(timestamp(before_1970), "1970-01-01T00:00:00");
        assert_eq!(at(300_000_000_000), "9999-12-31T23:59:59");
    }
}
