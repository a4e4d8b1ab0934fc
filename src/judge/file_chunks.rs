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
//! reads, and parses and answers it *assuming* that the input up to it is
//! canonical. The calling thread writes the chunks' answers in input order, and keeps each chunk that met the assumption while every
//! chunk before it did: such a chunk starts where the previous one ended,
//! at a line start between cases, so its boards and case numbers are what
//! the sequential reader gives.
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
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use crate::board::Board;
use crate::judge::ordered_windows::{Stage, ordered_windows};
use crate::judge::{
    Answering, BATCH_CASES, BATCHES_PER_THREAD, CaseError, Slot, SolveOptions, SolveSummary,
    write_answers,
};
use crate::parser::{CANONICAL_LINE, CaseReader, canonical_line_sets};

/// Bytes per chunk: a batch of canonical lines (a window holds
/// [`BATCHES_PER_THREAD`] chunks per thread).
const CHUNK_BYTES: usize = BATCH_CASES * CANONICAL_LINE;

/// How reading a chunk ended.
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
    bytes: Vec<u8>,
    end: ChunkEnd,
    /// Whether it met the assumption (whole canonical lines, read without
    /// error); then `slot` holds its boards and their answers.
    clean: bool,
    slot: Slot,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            offset: 0,
            bytes: Vec::with_capacity(CHUNK_BYTES),
            end: ChunkEnd::Full,
            clean: false,
            slot: Slot::new(),
        }
    }

    /// Parses the chunk as canonical lines and, when it is, answers them.
    fn answer(&mut self, answering: Answering<'_>) {
        self.clean = false;
        if matches!(self.end, ChunkEnd::Failed) || !self.bytes.len().is_multiple_of(CANONICAL_LINE)
        {
            return;
        }
        let batch = &mut self.slot.batch;
        batch.boards.clear();
        batch.errors.clear();
        for line in self.bytes.chunks_exact(CANONICAL_LINE) {
            let line = line.try_into().expect("CANONICAL_LINE bytes");
            let Some(cells_of) = canonical_line_sets(line) else {
                return;
            };
            batch.boards.push(Board::from_cell_sets_unchecked(cells_of));
        }
        // Under the assumption every line before this chunk is one case.
        batch.first_case = (self.offset / CANONICAL_LINE as u64) as usize + 1;
        self.clean = true;
        answering.batch(&self.slot.batch, &mut self.slot.answers);
    }
}

/// A regular file's judge input, from byte `start` of the file, read in
/// chunks by position.
pub(super) struct FileChunks<'a> {
    /// The file, behind a lock: a positioned read is a seek and a read.
    file: Mutex<&'a File>,
    start: u64,
}

impl<'a> FileChunks<'a> {
    /// The judge input of `file` from its current position, when it is a
    /// regular file that can say where it is.
    pub(super) fn new(file: &'a File) -> Option<FileChunks<'a>> {
        let regular = file.metadata().is_ok_and(|metadata| metadata.is_file());
        let start = regular.then(|| (&*file).stream_position().ok()).flatten()?;
        Some(FileChunks {
            file: Mutex::new(file),
            start,
        })
    }

    /// Reads the chunk at `chunk.offset`: [`CHUNK_BYTES`] bytes, fewer at
    /// the end of the file.
    fn read(&self, chunk: &mut Chunk) {
        chunk.bytes.clear();
        chunk.end = ChunkEnd::Full;
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if file
            .seek(SeekFrom::Start(self.start + chunk.offset))
            .is_err()
        {
            chunk.end = ChunkEnd::Failed;
            return;
        }
        match (&mut *file)
            .take(CHUNK_BYTES as u64)
            .read_to_end(&mut chunk.bytes)
        {
            Ok(read) if read < CHUNK_BYTES => chunk.end = ChunkEnd::EndOfFile,
            Ok(_) => {}
            Err(_) => chunk.end = ChunkEnd::Failed,
        }
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
        let pool = super::solving_pool(options)?;
        let mut stage = ChunkStage {
            next_offset: 0,
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
        ordered_windows(&pool, &mut stage, &|chunk: &mut Chunk| {
            self.read(chunk);
            chunk.answer(answering);
        })?;
        let written = stage.written;
        if !written.fall_back {
            return Ok(());
        }
        let rest = FileFrom {
            file: self.file.into_inner().unwrap_or_else(|p| p.into_inner()),
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
    window_chunks: usize,
    written: Written,
    output: &'a mut W,
    answering: Answering<'a>,
    report: &'a mut dyn FnMut(&CaseError),
    summary: &'a mut SolveSummary,
}

impl<W: Write> Stage<Chunk> for ChunkStage<'_, W> {
    /// The next chunks: always more, as only reading them finds the end.
    fn take_window(&mut self, free: &mut Vec<Chunk>) -> (Vec<Chunk>, bool) {
        let window = (0..self.window_chunks)
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
        let stop = self.answering.stops_the_run(&chunk.slot.answers);
        write_answers(&chunk.slot.answers, self.output, self.report, self.summary)?;
        self.written.offset += chunk.bytes.len() as u64;
        self.written.case += chunk.slot.batch.boards.len();
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
        let mut file = self.file;
        file.seek(SeekFrom::Start(self.position))?;
        let read = file.read(buffer)?;
        self.position += read as u64;
        Ok(read)
    }
}
