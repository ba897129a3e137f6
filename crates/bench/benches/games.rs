//! Criterion benchmarks of every registered game: one random playout from the start, move
//! generation at the start, and perft over two turns. `ludus bench GAME` gives the headline
//! playouts/s; these give stable, comparable timings per commit (`cargo bench -p ludus-bench`).

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_engine::{perft, random_playout, Game, Heuristic};
use ludus_games::{dispatch, GameVisitor, GAMES};
use rand::rngs::SmallRng;
use rand::SeedableRng;

struct BenchGame<'a>(&'a mut Criterion);

impl GameVisitor for BenchGame<'_> {
    type Output = ();
    fn visit<G: Game + Heuristic>(self) {
        let id = G::INFO.id;
        let start = G::new(&G::Options::default(), 0);
        let mut rng = SmallRng::seed_from_u64(1);
        let mut buffer = Vec::new();
        self.0.bench_function(&format!("{id}/playout"), |b| {
            b.iter(|| {
                let mut state = start.clone();
                random_playout(&mut state, &mut rng, &mut buffer, u64::MAX)
            });
        });
        self.0.bench_function(&format!("{id}/legal_actions"), |b| {
            b.iter(|| {
                start.legal_actions(&mut buffer);
                buffer.len()
            });
        });
        self.0
            .bench_function(&format!("{id}/perft2"), |b| b.iter(|| perft(&start, 2)));
    }
}

fn all_games(c: &mut Criterion) {
    for info in GAMES {
        dispatch(info.id, BenchGame(c)).expect("registered games dispatch");
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = all_games
}
criterion_main!(benches);
