//! An independent reference for perft: boards as strings, whole turns enumerated as walks
//! with plain vectors, sharing no code with the engine.

const LINES: [[usize; 4]; 10] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [3, 6, 9, 12],
];

fn neighbours(square: usize) -> Vec<usize> {
    let (file, rank) = ((square % 4) as i32, (square / 4) as i32);
    [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .iter()
        .map(|(df, dr)| (file + df, rank + dr))
        .filter(|&(f, r)| (0..4).contains(&f) && (0..4).contains(&r))
        .map(|(f, r)| (r * 4 + f) as usize)
        .collect()
}

fn line(board: &[String], colour: char) -> bool {
    LINES
        .iter()
        .any(|l| l.iter().all(|&s| board[s].ends_with(colour)))
}

/// Counts turn sequences over `turns` turns; a finished game is one leaf.
pub fn count(board: &[String], mover: char, turns: u32) -> u64 {
    let placed = board
        .iter()
        .flat_map(|s| s.chars())
        .filter(|&c| c == mover)
        .count();
    if turns == 0 || placed == 8 {
        return 1;
    }
    let mut total = 0;
    for origin in 0..16 {
        if board[origin].is_empty() {
            continue;
        }
        let mut next = board.to_vec();
        let mut stack: Vec<char> = next[origin].chars().collect();
        stack.push(mover);
        next[origin].clear();
        total += sow(&next, &stack, origin, usize::MAX, mover, turns);
    }
    total
}

fn sow(board: &[String], stack: &[char], at: usize, prev: usize, mover: char, turns: u32) -> u64 {
    let Some((&stone, rest)) = stack.split_first() else {
        let other = if mover == 'D' { 'L' } else { 'D' };
        if line(board, mover) || line(board, other) {
            return 1;
        }
        return count(board, other, turns - 1);
    };
    neighbours(at)
        .into_iter()
        .filter(|&n| n != prev)
        .map(|n| {
            let mut next = board.to_vec();
            next[n].push(stone);
            sow(&next, rest, n, at, mover, turns)
        })
        .sum()
}

/// The board of a §6 position string (ranks 4 to 1).
pub fn board(text: &str) -> Vec<String> {
    let mut board = vec![String::new(); 16];
    let ranks: Vec<&str> = text.split(' ').next().unwrap().split('/').collect();
    for (i, rank) in ranks.iter().enumerate() {
        for (file, cell) in rank.split(',').enumerate() {
            board[(3 - i) * 4 + file] = cell.replace('-', "");
        }
    }
    board
}
