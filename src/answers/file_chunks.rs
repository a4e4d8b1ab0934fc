//! The several-thread pipeline for judge input in a regular file: every
//! solving thread reads, parses, solves and formats chunks of its own.
//!
//! # Overview
//!
//! Judge input written the canonical way, each case one line of 24 digits
//! separated by single spaces ([`canonical_line_sets`]), can be cut into
//! chunks without reading it: a chunk of whole lines is whole cases, and
//! the case and line numbers of its first line follow from its offset. So
//! the pool's threads take chunks [`CHUNK_BYTES`] apart, a window of them
//! at a time ([`ordered_windows`]), each reads its own with positioned
//! reads, a block of [`BLOCK_LINES`] lines at a time, and parses and
//! answers it *assuming* that the input up to it is canonical. The
//! calling thread writes the chunks' answers in input order, and keeps
//! each chunk that met the assumption while every chunk before it did:
//! such a chunk starts where the previous one ended, at a line start
//! between cases, so its boards and case numbers are what the sequential
//! reader gives.
//!
//! At the first chunk that does not meet it (anything else in it: other
//! whitespace, a bad value, the terminating `0`, the input ending inside a
//! line, a read error), the writer stops and hands the rest of the file,
//! from that chunk's first byte, to the sequential [`CaseReader`], resumed
//! with the line and case numbers reached so far ([`CaseReader::resume`]).
//! Everything from there on, answers, errors, their positions and
//! messages, is the sequential reading's.
//!
//! Reading a regular file past the end of its judge input has no effect,
//! so the threads read ahead freely, at most two windows of chunks beyond
//! the writer.

use std::fs::File;
use std::io::{self, Read, Seek, Write};

use crate::answers::ordered_windows::{Stage, ordered_windows};
use crate::answers::{
    Answering, Answers, BATCH_CASES, BATCHES_PER_THREAD, CaseError, SolveOptions, SolveSummary,
    write_answers,
};
use crate::board::Board;
use crate::parser::{CANONICAL_LINE, CaseReader, canonical_line_sets};

/// Bytes per chunk: a batch of canonical lines (a window holds
/// [`BATCHES_PER_THREAD`] chunks per thread).
const CHUNK_BYTES: usize = BATCH_CASES * CANONICAL_LINE;

/// Canonical lines a thread reads, parses and answers at once: a chunk is
/// worked on a block at a time, so that its input and its boards stay in
/// the core's cache between reading and answering, and only its answers,
/// about a quarter of its input, are held until they are written.
const BLOCK_LINES: usize = 512;

/// Bytes per block.
const BLOCK_BYTES: usize = BLOCK_LINES * CANONICAL_LINE;

const _: () = assert!(CHUNK_BYTES.is_multiple_of(BLOCK_BYTES));

/// How reading a chunk ended.
#[derive(Clone, Copy)]
enum ChunkEnd {
    /// The chunk is full; the file may hold more.
    Full,
    /// The file ended in or right after the chunk.
    EndOfFile,
    /// Reading failed; the fallback reads the chunk again and reports it.
    Failed,
}

/// A chunk of the file, and its answers once a thread has seen it.
struct Chunk {
    /// Offset of its first byte from the start of the judge input.
    offset: u64,
    /// The bytes read of it, which are `cases` canonical lines when it is
    /// clean.
    len: usize,
    end: ChunkEnd,
    /// Whether it met the assumption (whole canonical lines, read without
    /// error); then `answers` holds the answers of its `cases` cases.
    clean: bool,
    cases: usize,
    answers: Answers,
    /// The block being worked on: its bytes ([`BLOCK_BYTES`] long, filled
    /// only by reading) and its boards.
    block: Vec<u8>,
    boards: Vec<Board>,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            offset: 0,
            len: 0,
            end: ChunkEnd::Full,
            clean: false,
            cases: 0,
            answers: Answers::new(),
            block: vec![0; BLOCK_BYTES],
            boards: Vec::with_capacity(BLOCK_LINES),
        }
    }

    /// Reads the chunk a block at a time and answers each block of
    /// canonical lines; the chunk is clean when every block was. Without
    /// `keep_going`, a board the solver refuses ends the chunk, and the
    /// run, there.
    fn answer(&mut self, file: &FileChunks<'_>, answering: Answering<'_>) {
        self.len = 0;
        self.end = ChunkEnd::Full;
        self.clean = false;
        self.cases = 0;
        answering.start(&mut self.answers);
        // Under the assumption every line before this chunk is one case.
        let first_case = (self.offset / CANONICAL_LINE as u64) as usize + 1;
        let mut case = first_case;
        while self.len < CHUNK_BYTES {
            let (read, end) = file.read(self.offset + self.len as u64, &mut self.block);
            self.end = end;
            if matches!(end, ChunkEnd::Failed) || !read.is_multiple_of(CANONICAL_LINE) {
                return;
            }
            self.boards.clear();
            for line in self.block[..read].chunks_exact(CANONICAL_LINE) {
                let line = line.try_into().expect("CANONICAL_LINE bytes");
                let Some(cells_of) = canonical_line_sets(line) else {
                    return;
                };
                self.boards.push(Board::from_cell_sets_unchecked(cells_of));
            }
            self.len += read;
            self.cases += self.boards.len();
            let goes_on = answering.run(&self.boards, &mut case, &mut self.answers);
            if !goes_on || matches!(end, ChunkEnd::EndOfFile) {
                break;
            }
        }
        self.clean = true;
    }
}

/// A regular file's judge input, from byte `start` of the file, read in
/// chunks by position: each thread reads its own with positioned reads
/// (`pread`), which neither share nor move the file's position, so that no
/// thread waits for another's read.
pub(super) struct FileChunks<'a> {
    file: &'a File,
    start: u64,
    /// The judge input's length when it was opened: how many chunks a
    /// window asks for. Reading, not this, finds the end.
    length: u64,
}

impl<'a> FileChunks<'a> {
    /// The judge input of `file` from its current position, when it is a
    /// regular file that can say where it is, on a system with positioned
    /// reads.
    pub(super) fn new(file: &'a File) -> Option<FileChunks<'a>> {
        if !cfg!(any(unix, windows)) {
            return None;
        }
        let metadata = file.metadata().ok().filter(std::fs::Metadata::is_file)?;
        let start = (&*file).stream_position().ok()?;
        Some(FileChunks {
            file,
            start,
            length: metadata.len().saturating_sub(start),
        })
    }

    /// Reads `block.len()` bytes from `offset` of the judge input into
    /// `block`, fewer at the end of the file: how many, and how reading
    /// ended.
    fn read(&self, offset: u64, block: &mut [u8]) -> (usize, ChunkEnd) {
        let mut read = 0;
        while read < block.len() {
            match read_at(
                self.file,
                &mut block[read..],
                self.start + offset + read as u64,
            ) {
                Ok(0) => return (read, ChunkEnd::EndOfFile),
                Ok(more) => read += more,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return (read, ChunkEnd::Failed),
            }
        }
        (read, ChunkEnd::Full)
    }

    /// Solves the file's judge input on `options.threads` threads; see the
    /// [module docs](self).
    pub(super) fn solve<W: Write>(
        self,
        output: &mut W,
        answering: Answering<'_>,
        options: SolveOptions,
        report: &mut dyn FnMut(&CaseError),
        summary: &mut SolveSummary,
    ) -> io::Result<()> {
        let mut stage = ChunkStage {
            next_offset: 0,
            length: self.length,
            window_chunks: options.threads * BATCHES_PER_THREAD,
            written: Written {
                offset: 0,
                case: 1,
                fall_back: false,
            },
            output: &mut *output,
            answering,
            report: &mut *report,
            summary: &mut *summary,
        };
        ordered_windows(options.threads, &mut stage, &|chunk: &mut Chunk| {
            chunk.answer(&self, answering);
        })?;
        let written = stage.written;
        if !written.fall_back {
            return Ok(());
        }
        let rest = FileFrom {
            file: self.file,
            position: self.start + written.offset,
        };
        let cases = CaseReader::resume(rest, written.offset, written.case as u64, written.case);
        super::solve_in_parallel(cases, output, answering, options, report, summary)
    }
}

/// How far the writer of [`ChunkStage`] got.
#[derive(Clone, Copy)]
struct Written {
    /// The offset of the first chunk not written.
    offset: u64,
    /// The number of its first case.
    case: usize,
    /// Whether the writer stopped at a chunk that did not meet the
    /// assumption, so that the sequential reader takes over there.
    fall_back: bool,
}

/// [`FileChunks::solve`]'s windows: the next chunks of the file, read and
/// answered by the pool; written while every chunk before them was clean.
struct ChunkStage<'a, W: Write> {
    next_offset: u64,
    /// [`FileChunks::length`].
    length: u64,
    window_chunks: usize,
    written: Written,
    output: &'a mut W,
    answering: Answering<'a>,
    report: &'a mut dyn FnMut(&CaseError),
    summary: &'a mut SolveSummary,
}

impl<W: Write> Stage<Chunk> for ChunkStage<'_, W> {
    /// The next chunks, as many as the file's length when it was opened
    /// still covers, at least one and at most a window: so a file of one
    /// chunk is one window of one chunk, which the calling thread solves
    /// without a pool. Always more, as only reading them finds the end (the
    /// file may have grown).
    fn take_window(&mut self, free: &mut Vec<Chunk>) -> (Vec<Chunk>, bool) {
        let left = self
            .length
            .saturating_sub(self.next_offset)
            .div_ceil(CHUNK_BYTES as u64);
        let size = usize::try_from(left)
            .map_or(self.window_chunks, |left| left.clamp(1, self.window_chunks));
        let window = (0..size)
            .map(|_| {
                let mut chunk = free.pop().unwrap_or_else(Chunk::new);
                chunk.offset = self.next_offset;
                self.next_offset += CHUNK_BYTES as u64;
                chunk
            })
            .collect();
        (window, true)
    }

    fn write(&mut self, chunk: &Chunk) -> io::Result<bool> {
        if !chunk.clean {
            self.written.fall_back = true;
            return Ok(true);
        }
        let stop = self.answering.stops_the_run(&chunk.answers);
        write_answers(&chunk.answers, self.output, self.report, self.summary)?;
        self.written.offset += chunk.len as u64;
        self.written.case += chunk.cases;
        Ok(stop || matches!(chunk.end, ChunkEnd::EndOfFile))
    }
}

/// The judge input from byte `position` of a file on, read by position.
struct FileFrom<'a> {
    file: &'a File,
    position: u64,
}

impl Read for FileFrom<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = read_at(self.file, buffer, self.position)?;
        self.position += read as u64;
        Ok(read)
    }
}

/// Reads into `buffer` from byte `offset` of `file` as one positioned
/// read: how many bytes were read, 0 at the end of the file. Unix's is
/// `pread`; Windows' moves the file's position too (only this module reads
/// it); elsewhere there is none, and [`FileChunks::new`] gives no chunks,
/// so that this is never called.
fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<usize> {
    #[cfg(unix)]
    let read = std::os::unix::fs::FileExt::read_at(file, buffer, offset);
    #[cfg(windows)]
    let read = std::os::windows::fs::FileExt::seek_read(file, buffer, offset);
    #[cfg(not(any(unix, windows)))]
    let read = {
        let _ = (file, buffer, offset);
        Err(io::ErrorKind::Unsupported.into())
    };
    read
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;
    use crate::answers::{JudgeFormat, write_answer};
    use crate::generator::{Generator, Mode};
    use crate::parser::format_input;
    use crate::solver::{DescentSolver, Solver};

    const ANSWERING: Answering<'static> = Answering {
        solver: &DescentSolver,
        format: &JudgeFormat,
        keep_going: false,
    };

    /// A file holding `text`, from its start.
    fn file_holding(text: &str) -> File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        file.rewind().unwrap();
        file
    }

    /// The first chunk of `file` once answered.
    fn first_chunk(file: &File) -> Chunk {
        let chunks = FileChunks::new(file).unwrap();
        let mut chunk = Chunk::new();
        chunk.answer(&chunks, ANSWERING);
        chunk
    }

    /// Three boards' canonical lines, without the terminating `0`, and the
    /// judge's answers to them.
    fn three_cases() -> (String, Vec<u8>) {
        let boards = Generator::new(4, Mode::Scramble(3)).boards(3);
        let input = format_input(&boards);
        let lines = input.strip_suffix("0\n").unwrap().to_owned();
        let mut answers = Vec::new();
        for board in &boards {
            write_answer(&mut answers, &DescentSolver.solve(board).unwrap());
        }
        (lines, answers)
    }

    #[test]
    fn a_chunk_of_whole_canonical_lines_is_clean_and_holds_their_answers() {
        let (lines, answers) = three_cases();
        let chunk = first_chunk(&file_holding(&lines));
        assert!(chunk.clean);
        assert!(matches!(chunk.end, ChunkEnd::EndOfFile));
        assert_eq!((chunk.len, chunk.cases), (lines.len(), 3));
        assert_eq!(chunk.answers.output, answers);
    }

    #[test]
    fn a_chunk_with_anything_but_whole_canonical_lines_is_not_clean() {
        let (lines, _) = three_cases();
        // Not whole lines: the end of the input, a space more, a line cut.
        let with_end = lines.clone() + "0\n";
        let two_spaces = lines.replacen(' ', "  ", 1);
        let cut = lines[..lines.len() - 1].to_owned();
        // Whole lines in length, not canonical: a bad value, a tab.
        let bad_value = lines.replacen('1', "7", 1);
        let tab = lines.replacen(' ', "\t", 1);
        for text in [with_end, two_spaces, cut, bad_value, tab] {
            let chunk = first_chunk(&file_holding(&text));
            assert!(!chunk.clean, "{text:?}");
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_read_that_fails_ends_the_chunk_as_failed() {
        // Reading a directory fails (EISDIR), and not by an interruption:
        // reading stops there instead of trying again.
        let folder = tempfile::tempdir().unwrap();
        let file = File::open(folder.path()).unwrap();
        let chunks = FileChunks {
            file: &file,
            start: 0,
            length: CHUNK_BYTES as u64,
        };
        let (read, end) = chunks.read(0, &mut [0; CANONICAL_LINE]);
        assert_eq!(read, 0);
        assert!(matches!(end, ChunkEnd::Failed));
        let mut chunk = Chunk::new();
        chunk.answer(&chunks, ANSWERING);
        assert!(!chunk.clean);
    }

    #[test]
    fn a_clean_chunk_is_written_and_any_other_hands_over_to_the_sequential_reader() {
        let (lines, answers) = three_cases();
        let clean = first_chunk(&file_holding(&lines));
        let not_clean = first_chunk(&file_holding(&(lines.clone() + "0\n")));
        let mut output = Vec::new();
        let mut summary = SolveSummary::default();
        let mut report = |error: &CaseError| panic!("{error}");
        let mut stage = ChunkStage {
            next_offset: 0,
            length: 0,
            window_chunks: 1,
            written: Written {
                offset: 0,
                case: 1,
                fall_back: false,
            },
            output: &mut output,
            answering: ANSWERING,
            report: &mut report,
            summary: &mut summary,
        };
        // The clean chunk ended the file: written, it ends the run.
        assert!(stage.write(&clean).unwrap());
        let written = stage.written;
        assert_eq!((written.offset, written.case), (lines.len() as u64, 4));
        assert!(!written.fall_back);
        assert!(stage.write(&not_clean).unwrap());
        let written = stage.written;
        assert_eq!((written.offset, written.case), (lines.len() as u64, 4));
        assert!(written.fall_back);
        assert_eq!(summary.solved, 3);
        assert_eq!(output, answers);
    }
}
