//! The judges' verdicts on a program's run (AC, WA, PE, TLE, MLE, RTE,
//! OLE), and on a test file, where the jury's own mistake is FAIL.
//!
//! They live below both the judging of runs ([`judging`](crate::judging),
//! Unix only) and the problem package, whose calibration reads the verdicts
//! of runs the binary made: one type for both, on every platform.

use std::fmt;

use serde::Serialize;

/// A judge's verdict, with the judges' names and codes.
///
/// It serializes as its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Verdict {
    /// AC: every case right, within every limit.
    #[serde(rename = "AC")]
    Accepted,
    /// WA: a wrong answer, or too much or too little output.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// PE: output that is not in the judge format: testlib's "wrong output
    /// format", which some judges call a presentation error.
    #[serde(rename = "PE")]
    WrongFormat,
    /// TLE: over the CPU time limit, or the wall-clock limit.
    #[serde(rename = "TLE")]
    TimeLimit,
    /// MLE: over the memory limit.
    #[serde(rename = "MLE")]
    MemoryLimit,
    /// RTE: killed by a signal, or a non-zero exit status.
    #[serde(rename = "RTE")]
    RuntimeError,
    /// OLE: more output than the output limit.
    #[serde(rename = "OLE")]
    OutputLimit,
}

impl Verdict {
    /// Every verdict, accepted first.
    pub const ALL: [Verdict; 7] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::WrongFormat,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::OutputLimit,
    ];

    /// The judges' short code: `AC`, `WA`, `PE`, `TLE`, `MLE`, `RTE`, `OLE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::WrongFormat => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::RuntimeError => "RTE",
            Verdict::OutputLimit => "OLE",
        }
    }

    /// The judges' name, such as `time limit exceeded`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::WrongFormat => "wrong output format",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::OutputLimit => "output limit exceeded",
        }
    }
}

impl fmt::Display for Verdict {
    /// The name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict on one test file: the program's, or the jury's fault.
///
/// It serializes as the verdict's code (`AC`, `WA`, …) or `FAIL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileVerdict {
    /// The program ran and was judged.
    Judged(Verdict),
    /// FAIL: the test file itself is wrong (its input is not judge input,
    /// or its answer is not the right one); the program did not run.
    Fail,
}

impl FileVerdict {
    /// The code: the verdict's (`AC`, `WA`, …), or `FAIL`.
    pub fn code(self) -> &'static str {
        match self {
            FileVerdict::Judged(verdict) => verdict.code(),
            FileVerdict::Fail => "FAIL",
        }
    }

    /// Whether the file was accepted.
    pub fn is_accepted(self) -> bool {
        self == FileVerdict::Judged(Verdict::Accepted)
    }
}

impl fmt::Display for FileVerdict {
    /// The verdict's name, or `judging failure (the test file is wrong)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileVerdict::Judged(verdict) => write!(f, "{verdict}"),
            FileVerdict::Fail => f.write_str("judging failure (the test file is wrong)"),
        }
    }
}

impl Serialize for FileVerdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_have_the_judges_codes_and_names() {
        let codes: Vec<&str> = Verdict::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["AC", "WA", "PE", "TLE", "MLE", "RTE", "OLE"]);
        for verdict in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&verdict).unwrap(),
                format!("\"{}\"", verdict.code())
            );
        }
        assert_eq!(Verdict::TimeLimit.to_string(), "time limit exceeded");
    }

    #[test]
    fn a_file_verdict_is_the_programs_or_the_jurys_fail() {
        let accepted = FileVerdict::Judged(Verdict::Accepted);
        let wrong = FileVerdict::Judged(Verdict::WrongAnswer);
        assert_eq!(
            [accepted, wrong, FileVerdict::Fail].map(|verdict| verdict.to_string()),
            [
                "accepted",
                "wrong answer",
                "judging failure (the test file is wrong)"
            ]
        );
        assert_eq!(
            serde_json::to_string(&[accepted, wrong, FileVerdict::Fail]).unwrap(),
            r#"["AC","WA","FAIL"]"#
        );
        assert!(accepted.is_accepted());
        assert!(!wrong.is_accepted() && !FileVerdict::Fail.is_accepted());
    }
}
