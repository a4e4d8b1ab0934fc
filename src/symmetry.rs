//! The eight symmetries of the board: the rotations and reflections of the
//! square that carry the '#' onto itself.
//!
//! # Overview
//!
//! Drawn on a 7×7 grid, the board occupies columns 2 and 4 and rows 2 and 4:
//!
//! ```text
//!   . .  0 .  1 . .
//!   . .  2 .  3 . .
//!   4 5  6 7  8 9 10
//!   . . 11 . 12 . .
//!  13 14 15 16 17 18 19
//!   . . 20 . 21 . .
//!   . . 22 . 23 . .
//! ```
//!
//! Each of the eight symmetries of the square (the dihedral group of order
//! 8) maps this set of grid points onto itself, so it permutes the 24 cells.
//! A [`Symmetry`] is such a permutation.
//!
//! # Why distances are invariant
//!
//! Let `g` be a symmetry. It maps the four lines of the board (columns 2 and
//! 4, rows 2 and 4) onto the four lines, and it maps the centre (the 3×3
//! block of rows and columns 2 to 4, less its middle, which is no cell) onto
//! the centre, because both are defined by the grid alone, symmetrically.
//! A move rotates one line by one place in one direction;
//! conjugated by `g` it rotates the image line by one place in the image
//! direction, and since every line can be rotated both ways, that is again a
//! move: for every move `m` there is a move `m'` with `g ∘ m = m' ∘ g`
//! (checked for all 64 pairs by a test).
//!
//! So if moves `m1 … mk` bring a set of cells `S` into the centre, the moves
//! `m1' … mk'` bring `g(S)` into `g(centre) = centre`, and conversely with
//! the inverse symmetry: the [pattern database](crate::pattern_database)
//! distance of `g(S)` equals that of `S`, and a board's optimal length equals
//! that of its image. The census uses this to count each orbit of first-digit
//! sets once.

use crate::geometry::{CELL_COUNT, CELL_POSITIONS};

/// Largest row or column index of the grid.
const GRID_MAX: u8 = 6;

/// A symmetry of the board, as a permutation of its cells.
///
/// Invariant: the permutation maps the centre onto the centre and conjugates
/// every move into a move (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// `image_by_byte[j][b]`: the image of the cells of byte `b` found at byte
    /// position `j` of a cell set.
    image_by_byte: [[u32; 256]; 3],
}

impl Symmetry {
    /// The eight symmetries, the identity first.
    pub fn all() -> [Symmetry; 8] {
        std::array::from_fn(|index| Symmetry::from_grid_map(|row, col| transform(index, row, col)))
    }

    /// The symmetry that moves the cell at `(row, col)` to `map(row, col)`.
    fn from_grid_map(map: impl Fn(u8, u8) -> (u8, u8)) -> Symmetry {
        let image_of_cell: [u32; CELL_COUNT] = std::array::from_fn(|cell| {
            let (row, col) = CELL_POSITIONS[cell];
            let target = map(row, col);
            let image = CELL_POSITIONS
                .iter()
                .position(|&position| position == target)
                .expect("a symmetry of the square maps the '#' onto itself");
            1 << image
        });
        let mut image_by_byte = [[0u32; 256]; 3];
        for (position, table) in image_by_byte.iter_mut().enumerate() {
            for (byte, image) in table.iter_mut().enumerate() {
                *image = (0..8)
                    .filter(|bit| byte & (1 << bit) != 0)
                    .map(|bit| image_of_cell[8 * position + bit])
                    .fold(0, |set, cell| set | cell);
            }
        }
        Symmetry { image_by_byte }
    }

    /// The image of a cell set.
    #[inline]
    pub fn apply_to_cells(&self, set: u32) -> u32 {
        self.image_by_byte[0][(set & 0xff) as usize]
            | self.image_by_byte[1][((set >> 8) & 0xff) as usize]
            | self.image_by_byte[2][((set >> 16) & 0xff) as usize]
    }
}

/// Symmetry number `index` (0..8) of the square, applied to a grid point:
/// the identity, the three rotations, then the four reflections.
fn transform(index: usize, row: u8, col: u8) -> (u8, u8) {
    let (r, c, m) = (row, col, GRID_MAX);
    match index {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        7 => (m - c, m - r),
        _ => unreachable!("the square has eight symmetries"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::EightCells;
    use crate::geometry::CENTRE;
    use crate::moves::Move;
    use crate::pattern_database::distances;
    use crate::rank::{rank, unrank};

    #[test]
    fn symmetries_are_distinct_permutations_fixing_the_centre() {
        let all = Symmetry::all();
        let mut fingerprints = Vec::new();
        for symmetry in &all {
            let images: Vec<u32> = (0..CELL_COUNT)
                .map(|cell| symmetry.apply_to_cells(1 << cell))
                .collect();
            let union = images.iter().fold(0, |set, image| set | image);
            assert_eq!(union, (1 << CELL_COUNT) - 1, "a permutation");
            assert!(images.iter().all(|image| image.count_ones() == 1));
            assert_eq!(symmetry.apply_to_cells(CENTRE), CENTRE, "fixes the centre");
            fingerprints.push(images);
        }
        assert_eq!(fingerprints[0], (0..24).map(|c| 1 << c).collect::<Vec<_>>());
        fingerprints.sort();
        fingerprints.dedup();
        assert_eq!(fingerprints.len(), 8);
    }

    #[test]
    fn every_move_conjugates_into_a_move() {
        for symmetry in Symmetry::all() {
            for m in Move::ALL {
                let conjugate = Move::ALL.into_iter().find(|&other| {
                    (0..CELL_COUNT).all(|cell| {
                        let set = 1 << cell;
                        symmetry.apply_to_cells(m.apply_to_cells(set))
                            == other.apply_to_cells(symmetry.apply_to_cells(set))
                    })
                });
                assert!(conjugate.is_some(), "{m:?}");
            }
        }
    }

    #[test]
    fn distances_are_invariant() {
        let table = distances();
        for symmetry in Symmetry::all() {
            for (index, &distance) in table.iter().enumerate() {
                let image = symmetry.apply_to_cells(unrank(index).mask());
                assert_eq!(table[rank(EightCells::new(image).unwrap())], distance);
            }
        }
    }
}
