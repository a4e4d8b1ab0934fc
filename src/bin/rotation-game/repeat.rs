//! Command lines printed for the user to run again: drawing a board with
//! `show`, repeating a campaign.

use rotation_game::{Board, MoveSequence};

/// The board as 24 digits without spaces, the form `show` takes.
pub fn compact(board: &Board) -> String {
    board
        .values()
        .iter()
        .map(|&value| char::from(b'0' + value))
        .collect()
}

/// The `rotation-game show` command that draws `board` and, when there are
/// any, the steps of `moves`.
pub fn show_command(board: &Board, moves: &MoveSequence) -> String {
    if moves.is_empty() {
        format!("rotation-game show {}", compact(board))
    } else {
        format!(
            "rotation-game show {} --moves {}",
            compact(board),
            moves.letters()
        )
    }
}

/// `text` quoted for a POSIX shell, when it needs it.
pub fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-=:,+@%".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rotation_game::sample::FIRST_BOARD_COMPACT;

    #[test]
    fn the_show_command_names_the_moves_only_when_there_are_some() {
        let board: Board = FIRST_BOARD_COMPACT.parse().unwrap();
        assert_eq!(
            show_command(&board, &MoveSequence::new()),
            "rotation-game show 111132323132231222312133"
        );
        let moves = MoveSequence::from_letters(b"AC").unwrap();
        assert_eq!(
            show_command(&board, &moves),
            "rotation-game show 111132323132231222312133 --moves AC"
        );
    }
}
