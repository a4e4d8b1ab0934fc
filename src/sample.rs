//! The statement's sample: two boards and their answers, the example that
//! the documentation, the problem package and the tests start from.

use crate::board::Board;
use crate::parser::parse_all;

/// The sample input, as the statement gives it.
pub const INPUT: &str = include_str!("../examples/sample.txt");

/// The sample output, as the statement gives it.
pub const OUTPUT: &str = "AC\n2\nDDHH\n2\n";

/// The first sample board, as a judge-input line.
pub const FIRST_BOARD: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";

/// The first sample board as 24 digits written together, as `show` takes
/// it.
pub const FIRST_BOARD_COMPACT: &str = "111132323132231222312133";

/// The second sample board as 24 digits written together.
pub const SECOND_BOARD_COMPACT: &str = "111111112222222233333333";

/// The sample boards.
pub fn boards() -> Vec<Board> {
    parse_all(INPUT.as_bytes()).expect("the sample is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_the_samples_boards() {
        let boards = boards();
        assert_eq!(INPUT.lines().next(), Some(FIRST_BOARD));
        let parse = |text: &str| text.parse::<Board>().unwrap();
        assert_eq!(parse(FIRST_BOARD), boards[0]);
        assert_eq!(parse(FIRST_BOARD_COMPACT), boards[0]);
        assert_eq!(parse(SECOND_BOARD_COMPACT), boards[1]);
        assert_eq!(boards.len(), 2);
    }
}
