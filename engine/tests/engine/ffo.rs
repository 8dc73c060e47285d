//! The FFO endgame test positions #40–#49 (Marc Tastet's suite for the French Othello Federation, as published
//! with their exact scores and best moves), shared by `tests/engine/othello_ffo.rs` and `examples/othello_ffo.rs`.

/// Number, board (a1..h8 row by row, `X` black, `O` white, `-` empty), side to move, exact final disc
/// difference for the side to move, best moves.
pub const FFO: [(u32, &str, &str, i32, &[&str]); 10] = [
    (
        40,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
        "X",
        38,
        &["a2"],
    ),
    (
        41,
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-",
        "X",
        0,
        &["h4"],
    ),
    (
        42,
        "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--",
        "X",
        6,
        &["g2"],
    ),
    (
        43,
        "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-",
        "O",
        -12,
        &["c7", "g3"],
    ),
    (
        44,
        "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--",
        "O",
        -14,
        &["d2", "b8"],
    ),
    (
        45,
        "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO--",
        "X",
        6,
        &["b2"],
    ),
    (
        46,
        "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-",
        "X",
        -8,
        &["b3"],
    ),
    (
        47,
        "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX--",
        "O",
        4,
        &["g2"],
    ),
    (
        48,
        "-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX-",
        "O",
        28,
        &["f6"],
    ),
    (
        49,
        "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O---",
        "X",
        16,
        &["e1"],
    ),
];
