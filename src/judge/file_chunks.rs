//! The several-thread pipeline for judge input in a regular file: every
//! solving thread reads, parses, solves and formats chunks of its own.
//!
//! # Overview
//!
//! Judge input written the canonical way, each case one line of 24 digits
//! separated by single spaces ([`canonical_line_sets`]), can be cut into
//! chunks without reading it: a chunk of whole lines is whole cases, and
//! the case and line numbers of its first line follow from its offset. So
//! the threads take chunks [`CHUNK_BYTES`] apart, each reads its own with
//! positioned reads, and parses and answers it *assuming* that the input up
//! to it is canonical. The calling thread writes the chunks' answers in
//! input order, and keeps each chunk that met the assumption while every
//! chunk before it did: such a chunk starts where the previous one ended,
//! at a line start between cases, so its boards and case numbers are what
//! the sequential reader gives.
//!
//! At the first chunk that does not meet it (anything else in it: other
//! whitespace, a bad value, the terminating `0`, the input ending inside a
//! line, a read error), the writer stops the threads and hands the rest of
//! the file, from that chunk's first byte, to the sequential
//! [`CaseReader`], resumed with the line and case numbers reached so far
//! ([`FileChunks::fall_back`]). Everything from there on, answers, errors,
//! their positions and messages, is the sequential reading's.
//!
//! Reading a regular file past the end of its judge input has no effect,
//! so the threads read ahead freely, at most a window of chunks beyond the
//! writer.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use crate::board::Board;
use crate::judge::{
    Answering, BATCH_CASES, CaseError, Slot, SolveOptions, SolveSummary, write_answers,
};
use crate::parser::{CANONICAL_LINE, CaseReader, canonical_line_sets};

/// Bytes per chunk: a batch of canonical lines.
const CHUNK_BYTES: usize = BATCH_CASES * CANONICAL_LINE;

/// Chunks per thread that may be read ahead of the writer: enough that a
/// thread slowed down (or descheduled) in one chunk rarely holds the others
/// up, few enough that memory stays a few megabytes (about 0.6 MB a chunk
/// with its boards, solutions and output).
const CHUNKS_PER_THREAD: usize = 4;

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

/// Where the writer stopped keeping chunks.
enum Stop {
    /// The run is over.
    Done,
    /// At a chunk that did not meet the assumption: its offset and its
    /// first case's number.
    FallBack { offset: u64, case: usize },
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

    /// Reads chunk `index` into `chunk`: [`CHUNK_BYTES`] bytes, fewer at the
    /// end of the file.
    fn read(&self, index: usize, chunk: &mut Chunk) {
        chunk.offset = (index * CHUNK_BYTES) as u64;
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
        match self.solve_clean_chunks(output, answering, options, report, summary)? {
            Stop::Done => Ok(()),
            Stop::FallBack { offset, case } => {
                let rest = FileFrom {
                    file: self.file.into_inner().unwrap_or_else(|p| p.into_inner()),
                    position: self.start + offset,
                };
                let cases = CaseReader::resume(rest, offset, case as u64, case);
                super::solve_in_parallel(cases, output, answering, options, report, summary)
            }
        }
    }

    /// Answers chunks in parallel and writes them in order, up to the end
    /// of the run or the first chunk that is not clean.
    fn solve_clean_chunks<W: Write>(
        &self,
        output: &mut W,
        answering: Answering<'_>,
        options: SolveOptions,
        report: &mut dyn FnMut(&CaseError),
        summary: &mut SolveSummary,
    ) -> io::Result<Stop> {
        let window = options.threads * CHUNKS_PER_THREAD;
        // Chunks free to be read: a thread takes one before taking the next
        // chunk's index, so that no more than a window of chunks is ahead
        // of the writer.
        let (free_sender, free) = mpsc::sync_channel::<Chunk>(window);
        for _ in 0..window {
            free_sender
                .send(Chunk::new())
                .expect("the channel has room for every chunk");
        }
        let free = Mutex::new(free);
        let (answered_sender, answered) = mpsc::channel::<(usize, thread::Result<Chunk>)>();
        // Set by the writer when it stops, so that no more chunks are read.
        let cancelled = AtomicBool::new(false);
        let next_index = AtomicUsize::new(0);
        thread::scope(|scope| {
            // Owned here, so that leaving the scope early closes the channel
            // and the threads stop.
            let free_sender = free_sender;
            for _ in 0..options.threads {
                let answered_sender = answered_sender.clone();
                let (free, cancelled, next_index) = (&free, &cancelled, &next_index);
                let spawned = thread::Builder::new().spawn_scoped(scope, move || {
                    loop {
                        let taken = free.lock().map(|free| free.recv());
                        let Ok(Ok(mut chunk)) = taken else {
                            return;
                        };
                        if cancelled.load(Ordering::Relaxed) {
                            return;
                        }
                        let index = next_index.fetch_add(1, Ordering::Relaxed);
                        // A panicking solver must not leave the writer
                        // waiting for this chunk: the panic goes to the
                        // writer, which raises it again.
                        let result = panic::catch_unwind(AssertUnwindSafe(|| {
                            self.read(index, &mut chunk);
                            chunk.answer(answering);
                            chunk
                        }));
                        if answered_sender.send((index, result)).is_err() {
                            return;
                        }
                    }
                });
                if let Err(error) = spawned {
                    cancelled.store(true, Ordering::Relaxed);
                    return Err(error);
                }
            }
            drop(answered_sender);
            let written = write_in_order(
                &answered,
                free_sender,
                &cancelled,
                output,
                answering,
                report,
                summary,
            );
            cancelled.store(true, Ordering::Relaxed);
            written
        })
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

/// The writer of [`FileChunks::solve_clean_chunks`]: takes the answered
/// chunks in input order and writes them, giving each back to be read
/// again, until the run ends or a chunk is not clean.
fn write_in_order<W: Write>(
    answered: &mpsc::Receiver<(usize, thread::Result<Chunk>)>,
    free: mpsc::SyncSender<Chunk>,
    cancelled: &AtomicBool,
    output: &mut W,
    answering: Answering<'_>,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<Stop> {
    let mut early: BTreeMap<usize, Chunk> = BTreeMap::new();
    let mut next = 0;
    let mut offset = 0;
    let mut case = 1;
    loop {
        let chunk = match early.remove(&next) {
            Some(chunk) => chunk,
            None => {
                // Every thread holds the sender while it may send; they all
                // stop only once the free chunks run out, which needs this
                // one written first.
                let (index, result) = answered.recv().expect("a chunk taken is a chunk answered");
                match result {
                    Ok(chunk) => {
                        early.insert(index, chunk);
                    }
                    Err(payload) => {
                        cancelled.store(true, Ordering::Relaxed);
                        drop(free);
                        panic::resume_unwind(payload);
                    }
                }
                continue;
            }
        };
        if !chunk.clean {
            return Ok(Stop::FallBack { offset, case });
        }
        let stop = answering.stops_the_run(&chunk.slot.answers);
        write_answers(&chunk.slot.answers, output, report, summary)?;
        if stop || matches!(chunk.end, ChunkEnd::EndOfFile) {
            return Ok(Stop::Done);
        }
        offset += chunk.bytes.len() as u64;
        case += chunk.slot.batch.boards.len();
        next += 1;
        // The threads may have stopped; then nobody takes chunks.
        let _ = free.send(chunk);
    }
}
