//! The uniform generator against the census: the optimal lengths of many
//! uniformly random boards follow the exact distribution.

use rotation_game::census::{BOARDS_BY_OPTIMAL_LENGTH, TOTAL_BOARDS};
use rotation_game::generator::{Generator, Mode};
use rotation_game::pattern_database;

#[test]
fn uniform_boards_follow_the_census() {
    const SAMPLES: u64 = 40_000;
    let generator = Generator::new(4, Mode::Uniform);
    let mut observed = [0u64; BOARDS_BY_OPTIMAL_LENGTH.len()];
    for index in 0..SAMPLES {
        let length = pattern_database::optimal_length(&generator.board(index));
        observed[usize::from(length.moves())] += 1;
    }
    // Pearson's chi-squared over the lengths, pooling the rare ones (an
    // expected count under 20) into the neighbouring common length.
    let expected: Vec<f64> = BOARDS_BY_OPTIMAL_LENGTH
        .iter()
        .map(|&count| SAMPLES as f64 * count as f64 / TOTAL_BOARDS as f64)
        .collect();
    let common: Vec<usize> = (0..expected.len())
        .filter(|&l| expected[l] >= 20.0)
        .collect();
    let (first, last) = (common[0], *common.last().unwrap());
    let pooled = |range: std::ops::RangeInclusive<usize>| -> (f64, f64) {
        let seen: u64 = observed[range.clone()].iter().sum();
        (seen as f64, expected[range].iter().sum())
    };
    let mut bins = vec![pooled(0..=first)];
    bins.extend((first + 1..last).map(|l| pooled(l..=l)));
    bins.push(pooled(last..=expected.len() - 1));
    let chi_squared: f64 = bins
        .iter()
        .map(|(seen, wanted)| (seen - wanted).powi(2) / wanted)
        .sum();
    // With 8 degrees of freedom (9 bins), the statistic exceeds 35 with
    // probability below 3e-5 for a uniform generator; the seed is fixed, so
    // the test does not flicker.
    assert_eq!(bins.len(), 9);
    assert!(
        chi_squared < 35.0,
        "chi-squared {chi_squared:.1}: {observed:?}"
    );
}
