//! The fixed geometry of the '#' board: its 24 cells, the eight lines the
//! moves rotate, and the eight centre cells.
//!
//! # Overview
//!
//! ```text
//!         0     1
//!         2     3
//!   4  5  6  7  8  9 10
//!        11    12
//!  13 14 15 16 17 18 19
//!        20    21
//!        22    23
//! ```
//!
//! Cells are numbered top to bottom, left to right, exactly as in the problem
//! statement. A set of cells is a `u32` whose bit `i` stands for cell `i`;
//! only the low [`CELL_COUNT`] bits are ever set.
//!
//! This file is self-contained (it uses nothing else from the crate) because
//! the build script includes it to generate the pattern database; keep it so.

/// Number of cells on the board.
pub const CELL_COUNT: usize = 24;

/// Every cell of the board, as a cell set.
pub const ALL_CELLS: u32 = (1 << CELL_COUNT) - 1;

/// Number of cells in one line.
pub const LINE_LENGTH: usize = 7;

/// The line each move rotates, indexed by move (A = 0 … H = 7).
///
/// For a line `c0 c1 … c6`, the move gives `c0` the value of `c1`, `c1` the
/// value of `c2`, and so on up to `c5`, which takes `c6`'s; `c6` takes the old
/// value of `c0`. Lines come in opposite pairs (A/F, B/E, C/H, D/G): the same
/// cells in reverse order, so each move of a pair undoes the other.
pub const LINES: [[u8; LINE_LENGTH]; 8] = [
    [0, 2, 6, 11, 15, 20, 22],
    [1, 3, 8, 12, 17, 21, 23],
    [10, 9, 8, 7, 6, 5, 4],
    [19, 18, 17, 16, 15, 14, 13],
    [23, 21, 17, 12, 8, 3, 1],
    [22, 20, 15, 11, 6, 2, 0],
    [13, 14, 15, 16, 17, 18, 19],
    [4, 5, 6, 7, 8, 9, 10],
];

/// Row and column of each cell on a 7×7 grid (rows top to bottom, columns
/// left to right, 0 to 6): the vertical lines are columns 2 and 4, the
/// horizontal ones rows 2 and 4, and the centre is the 3×3 block of rows and
/// columns 2 to 4, less its middle.
pub const CELL_POSITIONS: [(u8, u8); CELL_COUNT] = [
    (0, 2),
    (0, 4),
    (1, 2),
    (1, 4),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (3, 2),
    (3, 4),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 4),
    (4, 5),
    (4, 6),
    (5, 2),
    (5, 4),
    (6, 2),
    (6, 4),
];

/// The eight centre cells, in increasing order.
pub const CENTRE_CELLS: [u8; 8] = [6, 7, 8, 11, 12, 15, 16, 17];

/// The centre cells as a cell set.
pub const CENTRE: u32 = cell_set_of(&CENTRE_CELLS);

/// The cell set holding exactly the given cells.
pub const fn cell_set_of(cells: &[u8]) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < cells.len() {
        set |= 1 << cells[i];
        i += 1;
    }
    set
}

/// Applies move `move_index` to a cell set, one bit at a time.
///
/// This is the definition every faster form is tested against: the cell
/// `line[i]` receives the membership of `line[i + 1]`, and `line[6]` that of
/// `line[0]`.
pub const fn rotate_line_slow(set: u32, move_index: usize) -> u32 {
    let line = &LINES[move_index];
    let mut result = set;
    let mut i = 0;
    while i < LINE_LENGTH {
        let from = line[(i + 1) % LINE_LENGTH];
        let to = line[i];
        result &= !(1 << to);
        result |= ((set >> from) & 1) << to;
        i += 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_runs_along_one_row_or_column_of_the_grid() {
        for line in LINES {
            let places = line.map(|cell| CELL_POSITIONS[usize::from(cell)]);
            for pair in places.windows(2) {
                let ((row, column), (next_row, next_column)) = (pair[0], pair[1]);
                let steps = (row.abs_diff(next_row), column.abs_diff(next_column));
                assert!(steps == (0, 1) || steps == (1, 0), "{line:?}");
            }
        }
        for cell in CENTRE_CELLS {
            let (row, column) = CELL_POSITIONS[usize::from(cell)];
            assert!((2..=4).contains(&row) && (2..=4).contains(&column));
        }
    }
}
