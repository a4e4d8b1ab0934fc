//! Pictures of the board for `show`: terminal text (with optional ANSI
//! colour) and SVG.
//!
//! # Overview
//!
//! A [`Frame`] is one picture: a board, and the move that led to it when it
//! is a step of a replay. [`replay`] gives the frames of a board and a move
//! sequence; [`text`] draws frames as the '#' shape for a terminal, with
//! the centre framed, one colour per digit when asked, and the cells of the
//! moved line in brackets; [`svg`] draws rows of frames as an SVG image.
//!
//! ```text
//!             A       B
//!             1       1
//!             1       1
//!           ┌───────────┐
//! H   3   2 │ 3   2   3 │ 1   3   C
//!           │ 2       2 │
//! G   3   1 │ 2   2   2 │ 3   1   D
//!           └───────────┘
//!             2       1
//!             3       3
//!             F       E
//! ```
//!
//! Rendering is pure: the same frames give the same bytes, and the caller
//! decides about colour (the command line follows `NO_COLOR` and whether
//! standard output is a terminal).

use std::fmt::Write;

use rotation_game::geometry::CELL_POSITIONS;
use rotation_game::pattern_database;
use rotation_game::{Board, Digit, Move, MoveSequence};

use crate::repeat::compact;

/// One picture: a board, and the step of a replay that led to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The board drawn.
    pub board: Board,
    /// The move just played, its number (1-based) and the number of moves
    /// in the replay; `None` for the starting board.
    pub step: Option<Step>,
}

/// A step of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move played.
    pub played: Move,
    /// Its number in the sequence, 1-based.
    pub number: usize,
    /// The length of the sequence.
    pub of: usize,
}

/// The starting board, then the board after each move of `moves`.
pub fn replay(board: &Board, moves: &MoveSequence) -> Vec<Frame> {
    let mut frames = vec![Frame {
        board: *board,
        step: None,
    }];
    let mut current = *board;
    for (index, &played) in moves.as_slice().iter().enumerate() {
        current = current.apply(played);
        frames.push(Frame {
            board: current,
            step: Some(Step {
                played,
                number: index + 1,
                of: moves.len(),
            }),
        });
    }
    frames
}

/// What a move does, in words.
pub fn describe(m: Move) -> &'static str {
    const WORDS: [&str; 8] = [
        "left column up",
        "right column up",
        "upper row right",
        "lower row right",
        "right column down",
        "left column down",
        "lower row left",
        "upper row left",
    ];
    WORDS[m.index()]
}

/// The caption under a picture: the centre, and how far the board is from
/// solved.
fn caption(board: &Board) -> String {
    match board.uniform_centre() {
        Some(digit) => format!("centre: {digit} (solved)"),
        None => match pattern_database::optimal_length(board).moves() {
            1 => String::from("centre: mixed, 1 move from solved"),
            length => format!("centre: mixed, {length} moves from solved"),
        },
    }
}

/// The title above a picture.
fn title(frame: &Frame) -> String {
    match frame.step {
        None => format!("board {}", compact(&frame.board)),
        Some(step) => format!(
            "after {} ({} of {}): {}",
            step.played,
            step.number,
            step.of,
            describe(step.played)
        ),
    }
}

/// ANSI colour code of each digit: red, green, blue.
const ANSI_COLOURS: [u8; 3] = [31, 32, 34];

/// Text columns of the picture: labels, 7 cell columns four apart, labels.
const TEXT_WIDTH: usize = 33;

/// The text column of cell column `column`.
const fn text_column(column: usize) -> usize {
    4 + 4 * column
}

/// Draws frames for a terminal, each as a title, the picture and a caption,
/// separated by blank lines; with `colour`, digits are coloured with ANSI
/// escapes.
pub fn text(frames: &[Frame], colour: bool) -> String {
    let mut out = String::new();
    for (index, frame) in frames.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&title(frame));
        out.push('\n');
        draw_text(&mut out, frame, colour);
        out.push_str(&caption(&frame.board));
        out.push('\n');
    }
    out
}

/// Appends one picture, eleven lines, to `out`.
fn draw_text(out: &mut String, frame: &Frame, colour: bool) {
    // Text rows: labels, cell rows 0–1, top border, rows 2–4, bottom
    // border, rows 5–6, labels.
    const ROW_OF_CELL_ROW: [usize; 7] = [1, 2, 4, 5, 6, 8, 9];
    let mut grid = vec![vec![String::from(" "); TEXT_WIDTH]; 11];
    let mut put = |row: usize, column: usize, text: &str| grid[row][column] = text.to_owned();
    for (letter, row, column) in [
        ("A", 0, text_column(2)),
        ("B", 0, text_column(4)),
        ("F", 10, text_column(2)),
        ("E", 10, text_column(4)),
        ("H", 4, 0),
        ("C", 4, TEXT_WIDTH - 1),
        ("G", 6, 0),
        ("D", 6, TEXT_WIDTH - 1),
    ] {
        put(row, column, letter);
    }
    let (left, right) = (text_column(2) - 2, text_column(4) + 2);
    for column in left..=right {
        put(3, column, "─");
        put(7, column, "─");
    }
    for (row, (top, bottom)) in [(3, ("┌", "┐")), (7, ("└", "┘"))] {
        put(row, left, top);
        put(row, right, bottom);
    }
    for row in 4..=6 {
        put(row, left, "│");
        put(row, right, "│");
    }
    let moved = frame.step.map_or(&[][..], |step| &step.played.line()[..]);
    for (cell, &(row, column)) in CELL_POSITIONS.iter().enumerate() {
        let digit = frame.board.digit_at(cell);
        let text_row = ROW_OF_CELL_ROW[usize::from(row)];
        let x = text_column(usize::from(column));
        put(text_row, x, &digit_text(digit, colour));
        if moved.contains(&(cell as u8)) {
            put(text_row, x - 1, "[");
            put(text_row, x + 1, "]");
        }
    }
    for row in grid {
        let line: String = row.concat();
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn digit_text(digit: Digit, colour: bool) -> String {
    if colour {
        format!("\x1b[1;{}m{digit}\x1b[0m", ANSI_COLOURS[digit.index()])
    } else {
        digit.to_string()
    }
}

/// SVG fill colour of each digit.
const SVG_COLOURS: [&str; 3] = ["#e45756", "#54a24b", "#4c78a8"];

/// Size of a cell in the SVG, in pixels.
const CELL: usize = 36;

/// Width and height of one picture in the SVG, title and caption included.
const PANEL_WIDTH: usize = 11 * CELL;
const PANEL_HEIGHT: usize = 11 * CELL;

/// Draws rows of frames (one row per board, say) as an SVG image: the same
/// pictures as [`text`], with the moved line outlined.
pub fn svg(rows: &[Vec<Frame>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let width = columns * PANEL_WIDTH;
    let height = rows.len().max(1) * PANEL_HEIGHT;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="14">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    for (row, frames) in rows.iter().enumerate() {
        for (column, frame) in frames.iter().enumerate() {
            draw_svg_panel(&mut out, frame, column * PANEL_WIDTH, row * PANEL_HEIGHT);
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Appends one picture whose top left corner is at (`x0`, `y0`).
fn draw_svg_panel(out: &mut String, frame: &Frame, x0: usize, y0: usize) {
    // The board, 7 cells wide, centred in the panel; rows start below the
    // title and the top labels.
    let cell_x = |column: usize| x0 + 2 * CELL + column * CELL;
    let cell_y = |row: usize| y0 + 2 * CELL + row * CELL;
    let centre_x = |column: usize| cell_x(column) + CELL / 2;
    let baseline = |row: usize| cell_y(row) + CELL / 2 + 5;
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}">{}</text>"#,
        x0 + CELL / 2,
        y0 + CELL * 2 / 3,
        title(frame)
    );
    for (letter, x, y) in [
        ('A', centre_x(2), cell_y(0) - 8),
        ('B', centre_x(4), cell_y(0) - 8),
        ('F', centre_x(2), cell_y(7) + 20),
        ('E', centre_x(4), cell_y(7) + 20),
        ('H', cell_x(0) - 14, baseline(2)),
        ('C', cell_x(7) + 14, baseline(2)),
        ('G', cell_x(0) - 14, baseline(4)),
        ('D', cell_x(7) + 14, baseline(4)),
    ] {
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{y}" text-anchor="middle">{letter}</text>"#
        );
    }
    let moved = frame.step.map_or(&[][..], |step| &step.played.line()[..]);
    for (cell, &(row, column)) in CELL_POSITIONS.iter().enumerate() {
        let digit = frame.board.digit_at(cell);
        let (x, y) = (cell_x(usize::from(column)), cell_y(usize::from(row)));
        let (stroke, stroke_width) = if moved.contains(&(cell as u8)) {
            ("black", 3)
        } else {
            ("white", 1)
        };
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{}" stroke="{stroke}" stroke-width="{stroke_width}"/>"#,
            SVG_COLOURS[digit.index()]
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" fill="white">{digit}</text>"#,
            x + CELL / 2,
            y + CELL / 2 + 5
        );
    }
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="2" stroke-dasharray="6 3"/>"#,
        cell_x(2) - 3,
        cell_y(2) - 3,
        3 * CELL + 6,
        3 * CELL + 6
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}">{}</text>"#,
        x0 + CELL / 2,
        cell_y(7) + CELL + 10,
        caption(&frame.board)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rotation_game::sample::FIRST_BOARD_COMPACT;

    fn sample() -> Board {
        FIRST_BOARD_COMPACT.parse().unwrap()
    }

    #[test]
    fn replay_ends_where_the_moves_lead() {
        let moves = MoveSequence::from_letters(b"AC").unwrap();
        let frames = replay(&sample(), &moves);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[2].board, sample().apply_all(moves.as_slice()));
        assert_eq!(frames[2].step.map(|s| (s.number, s.of)), Some((2, 2)));
    }

    #[test]
    fn every_cell_is_drawn_where_its_digit_is() {
        let board = sample();
        let picture = text(&replay(&board, &MoveSequence::new()), false);
        let digits: String = picture
            .lines()
            .skip(1)
            .take(11)
            .flat_map(|line| line.chars().filter(char::is_ascii_digit))
            .collect();
        assert_eq!(digits, compact(&board));
    }

    #[test]
    fn colour_is_only_there_when_asked() {
        let frames = replay(&sample(), &MoveSequence::new());
        assert!(!text(&frames, false).contains('\x1b'));
        assert!(text(&frames, true).contains("\x1b[1;31m1\x1b[0m"));
    }

    /// The `<text>` elements of `svg` as (x, y, text).
    fn svg_texts(svg: &str) -> Vec<(usize, usize, String)> {
        let attribute = |element: &str, name: &str| -> usize {
            let start = element.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            let end = start + element[start..].find('"').unwrap();
            element[start..end].parse().unwrap()
        };
        svg.lines()
            .filter(|line| line.starts_with("<text "))
            .map(|line| {
                let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
                (attribute(line, "x"), attribute(line, "y"), text.to_owned())
            })
            .collect()
    }

    #[test]
    fn the_svg_has_a_panel_per_frame_and_each_label_in_line_with_its_seven_cells() {
        let moves = MoveSequence::from_letters(b"AC").unwrap();
        let rows = vec![
            replay(&sample(), &MoveSequence::new()),
            replay(&sample(), &moves),
        ];
        let picture = svg(&rows);
        let size = format!(
            r#"width="{}" height="{}""#,
            3 * PANEL_WIDTH,
            2 * PANEL_HEIGHT
        );
        assert!(picture.lines().next().unwrap().contains(&size), "{picture}");
        let texts = svg_texts(&picture);
        for (x, y, text) in &texts {
            assert!(
                *x < 3 * PANEL_WIDTH && *y < 2 * PANEL_HEIGHT,
                "{text} at {x}, {y}"
            );
        }
        let digits: Vec<(usize, usize)> = texts
            .iter()
            .filter(|(_, _, text)| text.len() == 1 && text.as_bytes()[0].is_ascii_digit())
            .map(|&(x, y, _)| (x, y))
            .collect();
        assert_eq!(digits.len(), 4 * 24);
        let labels: Vec<&(usize, usize, String)> = texts
            .iter()
            .filter(|(_, _, text)| text.len() == 1 && ("A"..="H").contains(&text.as_str()))
            .collect();
        assert_eq!(labels.len(), 4 * 8);
        for (x, y, letter) in labels {
            let in_line = if "ABEF".contains(letter.as_str()) {
                digits
                    .iter()
                    .filter(|digit| digit.0 == *x && digit.1 / PANEL_HEIGHT == y / PANEL_HEIGHT)
                    .count()
            } else {
                digits
                    .iter()
                    .filter(|digit| digit.1 == *y && digit.0 / PANEL_WIDTH == x / PANEL_WIDTH)
                    .count()
            };
            assert_eq!(in_line, 7, "{letter} at {x}, {y}");
        }
    }

    #[test]
    fn the_moved_line_is_bracketed() {
        let moves = MoveSequence::from_letters(b"C").unwrap();
        let picture = text(&replay(&sample(), &moves), false);
        let after = picture.split("after C").nth(1).unwrap();
        let row = after.lines().find(|line| line.starts_with('H')).unwrap();
        assert_eq!(row.matches('[').count(), 7, "{row}");
    }
}
