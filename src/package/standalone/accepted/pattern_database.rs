//! The Rotation Game: an exact solution with a pattern database, in one file
//! of Rust that builds with plain `rustc` (edition 2021, std only).
//!
//! For one digit, what matters is the set of eight cells its tiles occupy.
//! A breadth-first search from the centre over such sets gives, for every
//! set, the exact number of moves that bring all eight tiles into the
//! centre: 735,471 sets, stored in a table indexed by the set's 24-bit mask
//! (16 MiB, computed at start-up in a few tens of milliseconds). A board is
//! solved when one digit fills the centre, so its optimal length is the
//! least of its three digits' distances; a move changes each distance by
//! at most one, and so the optimal length too.
//!
//! The answer then needs no search: from the board, play the first move, in
//! order A..H, that lowers the optimal length by one, until it is 0. Every
//! move of a shortest sequence lowers the length by one, so this is the
//! lexicographically smallest shortest sequence.

use std::io::{self, Read, Write};

/// The seven cells each move rotates: the first cell takes the tile of the
/// second, ..., the last takes the first's.
const LINES: [[u32; 7]; 8] = [
    [0, 2, 6, 11, 15, 20, 22],
    [1, 3, 8, 12, 17, 21, 23],
    [10, 9, 8, 7, 6, 5, 4],
    [19, 18, 17, 16, 15, 14, 13],
    [23, 21, 17, 12, 8, 3, 1],
    [22, 20, 15, 11, 6, 2, 0],
    [13, 14, 15, 16, 17, 18, 19],
    [4, 5, 6, 7, 8, 9, 10],
];

/// The eight centre cells as a mask.
const CENTRE: u32 = 1 << 6 | 1 << 7 | 1 << 8 | 1 << 11 | 1 << 12 | 1 << 15 | 1 << 16 | 1 << 17;

/// Marks a set the search has not reached (no set of eight cells).
const UNREACHED: u8 = u8::MAX;

/// Where the cells of each byte of a mask go under each move: a move maps a
/// set to the union of the images of its three bytes.
struct Moves {
    by_byte: Vec<[[u32; 256]; 3]>,
}

impl Moves {
    fn new() -> Moves {
        let mut by_byte = vec![[[0u32; 256]; 3]; 8];
        for (line, table) in LINES.iter().zip(by_byte.iter_mut()) {
            for (position, bytes) in table.iter_mut().enumerate() {
                for (byte, image) in bytes.iter_mut().enumerate() {
                    let set = (byte as u32) << (8 * position);
                    let mut moved = set;
                    for i in 0..7 {
                        let (to, from) = (line[i], line[(i + 1) % 7]);
                        moved &= !(1 << to);
                        moved |= ((set >> from) & 1) << to;
                    }
                    *image = moved;
                }
            }
        }
        Moves { by_byte }
    }

    fn apply(&self, play: usize, set: u32) -> u32 {
        let table = &self.by_byte[play];
        table[0][(set & 0xff) as usize]
            | table[1][((set >> 8) & 0xff) as usize]
            | table[2][(set >> 16) as usize]
    }
}

/// The exact distance of every set of eight cells from the centre, by mask.
fn distances(moves: &Moves) -> Vec<u8> {
    let mut distance = vec![UNREACHED; 1 << 24];
    let mut queue = vec![CENTRE];
    distance[CENTRE as usize] = 0;
    let mut next = 0;
    while next < queue.len() {
        let set = queue[next];
        next += 1;
        let reached = distance[set as usize] + 1;
        for play in 0..8 {
            let moved = moves.apply(play, set);
            if distance[moved as usize] == UNREACHED {
                distance[moved as usize] = reached;
                queue.push(moved);
            }
        }
    }
    distance
}

/// The optimal length of the board whose digits 1, 2 and 3 occupy `sets`.
fn optimal_length(distance: &[u8], sets: &[u32; 3]) -> u8 {
    sets.iter().map(|&set| distance[set as usize]).min().unwrap_or(0)
}

/// Appends the answer for the board with digits on `sets` to `out`.
fn solve(moves: &Moves, distance: &[u8], mut sets: [u32; 3], out: &mut String) {
    let mut remaining = optimal_length(distance, &sets);
    if remaining == 0 {
        out.push_str("No moves needed");
    }
    while remaining > 0 {
        for play in 0..8 {
            let next = sets.map(|set| moves.apply(play, set));
            if optimal_length(distance, &next) == remaining - 1 {
                out.push((b'A' + play as u8) as char);
                sets = next;
                remaining -= 1;
                break;
            }
        }
    }
    let digit = sets.iter().position(|&set| set == CENTRE).unwrap_or(0) + 1;
    out.push('\n');
    out.push_str(&digit.to_string());
    out.push('\n');
}

fn main() {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .expect("the input is readable text");
    let moves = Moves::new();
    let distance = distances(&moves);
    let mut values = input.split_ascii_whitespace();
    let mut out = String::new();
    while let Some(first) = values.next() {
        if first == "0" {
            break;
        }
        let mut sets = [0u32; 3];
        for (cell, value) in std::iter::once(first).chain(values.by_ref().take(23)).enumerate() {
            let digit: usize = value.parse().expect("a value 1, 2 or 3");
            sets[digit - 1] |= 1 << cell;
        }
        solve(&moves, &distance, sets, &mut out);
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("standard output is writable");
}
