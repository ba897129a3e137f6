//! `ludus bench --json` and `ludus perft --json`, run as a script would: one JSON object on
//! stdout whose figures are those the text gives.

use serde_json::Value;

mod support;
use support::ludus;

/// Runs `ludus ARGS`, expecting success, and returns its stdout.
fn run(args: &[&str]) -> String {
    let output = ludus(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn json(args: &[&str]) -> Value {
    let text = run(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON object: {e}\n{text}"))
}

fn number(value: &Value, path: &str) -> f64 {
    value
        .pointer(path)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("{path} is not a number in {value}"))
}

#[test]
fn bench_json_holds_the_playouts_the_fingerprint_and_the_player() {
    let args = [
        "bench",
        "qawale",
        "--seconds",
        "0.05",
        "--search-depth",
        "3",
        "--positions",
        "2",
        "-o",
        "both_lines=draw",
    ];
    let report = json(&[&args[..], &["--json"]].concat());
    assert_eq!(report["game"], "qawale");
    assert_eq!(report["seed"], 1);
    // Every option in force, the given one as given.
    assert_eq!(report["options"]["both_lines"], "draw");
    assert_eq!(report["options"]["first_player"], "dark");
    let games = number(&report, "/playouts/games");
    let decisions = number(&report, "/playouts/decisions");
    let seconds = number(&report, "/playouts/seconds");
    assert!(
        games > 0.0 && decisions >= games && seconds >= 0.05,
        "{report}"
    );
    let rate = number(&report, "/playouts/decisions_per_second");
    assert!(
        (rate - decisions / seconds).abs() <= 1e-6 * rate,
        "{report}"
    );
    let nanos = number(&report, "/playouts/ns_per_decision");
    assert!((nanos * rate - 1e9).abs() <= 1e-3, "{report}");
    let mean = number(&report, "/playouts/mean_decisions");
    assert!(
        (mean * games - decisions).abs() <= 1e-6 * decisions,
        "{report}"
    );
    // The search fingerprint is the text's "Bench: N" (it does not depend on the time).
    let text = run(&args);
    let bench_line = format!("Bench: {}", number(&report, "/search/nodes"));
    assert!(
        text.lines().any(|line| line == bench_line),
        "{bench_line} not in:\n{text}"
    );
    assert_eq!(report["search"]["depth"], 3);
    assert!(
        report.get("agent").is_none(),
        "no --agent, no agent: {report}"
    );
}

#[test]
fn bench_json_says_where_threads_on_one_tree_met_and_only_then() {
    let shared = "ai:mcts:iterations=300,threads=2";
    for (agent, met) in [(shared, true), ("ai:3", false)] {
        let mut args: Vec<&str> = "bench replica --seconds 0.05 --positions 3 --json --agent"
            .split(' ')
            .collect();
        args.push(agent);
        let report = json(&args);
        assert_eq!(report["agent"]["positions"], 3);
        assert!(number(&report, "/agent/median_ms") > 0.0, "{report}");
        assert!(report.get("search").is_none(), "{report}");
        let meetings = &report["agent"]["meetings"];
        if met {
            assert_eq!(report["agent"]["spec"], shared);
            // 300 iterations a thread, two threads, three positions.
            assert_eq!(meetings["iterations"], 1800, "{report}");
            assert_eq!(report["agent"]["nodes_per_decision"].as_f64(), Some(600.0));
            assert_eq!(
                meetings["handovers_by_level"].as_array().map(Vec::len),
                Some(3)
            );
            assert!(number(&report, "/agent/meetings/reads") >= 1.0, "{report}");
        } else {
            assert!(
                meetings.is_null(),
                "one search thread meets nobody: {report}"
            );
        }
    }
}

#[test]
fn perft_json_counts_what_the_text_counts() {
    let text = run(&["perft", "qawale", "--turns", "1", "--divide"]);
    let report = json(&["perft", "qawale", "--turns", "1", "--divide", "--json"]);
    assert_eq!(report["total"], 40);
    assert_eq!(report["turns"], 1);
    let position = run(&["position", "qawale"]);
    assert_eq!(report["position"].as_str(), position.lines().next());
    assert_eq!(report["options"]["both_lines"], "mover_wins");
    // The same decisions with the same counts, in the same order.
    let divide = report["divide"].as_array().expect("a list with --divide");
    let listed: Vec<String> = divide
        .iter()
        .map(|entry| format!("{} {}", entry["decision"].as_str().unwrap(), entry["count"]))
        .collect();
    let printed: Vec<&str> = text.lines().filter(|line| line.contains(' ')).collect();
    assert_eq!(listed, printed);
    let sum: u64 = divide.iter().filter_map(|e| e["count"].as_u64()).sum();
    assert_eq!(sum, 40);
    let plain = json(&["perft", "qawale", "--turns", "2", "--json"]);
    assert_eq!(
        plain["total"].as_u64(),
        run(&["perft", "qawale", "--turns", "2"])
            .trim()
            .parse()
            .ok()
    );
    assert!(
        plain.get("divide").is_none(),
        "no --divide, no list: {plain}"
    );
}
