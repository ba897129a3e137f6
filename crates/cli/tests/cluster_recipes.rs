//! The cluster recipes of `docs/CLUSTER.md`, kept as files in `docs/cluster/`: the Slurm
//! script run as Slurm runs a task re-submitted alone, and the Kubernetes manifests checked
//! for the limits that keep a failed tournament from waiting for a day.

use std::path::{Path, PathBuf};
use std::process::Command;

fn recipe(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/cluster")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(recipe(name)).unwrap()
}

/// `sbatch --array=2 arena.sbatch` after a failure: Slurm sets a task count of 1 for that
/// job, and the script still plays shard 2 of 4.
#[test]
fn a_slurm_task_run_alone_plays_its_shard_of_the_whole_count() {
    // Removed when the test ends, also when it fails.
    let dir = tempfile::TempDir::with_prefix("ludus-sbatch-").unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_ludus")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("bash")
        .arg(recipe("arena.sbatch"))
        .current_dir(dir.path())
        .env("PATH", path)
        .env("SLURM_ARRAY_TASK_ID", "2")
        .env("SLURM_ARRAY_TASK_COUNT", "1")
        .env("SLURM_CPUS_PER_TASK", "1")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let shard = std::fs::read_to_string(dir.path().join("shards/shard-2.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(shard.lines().next().unwrap()).unwrap();
    assert_eq!(header["shard"], "2/4", "{header}");
}

#[test]
fn kubernetes_jobs_have_deadlines_a_claim_and_a_wait_that_sees_failure() {
    for job in ["arena-job.yaml", "merge-job.yaml"] {
        let text = read(job);
        assert!(text.contains("activeDeadlineSeconds:"), "{job}");
        assert!(text.contains("claimName: ludus-results"), "{job}");
    }
    let claim = read("results-pvc.yaml");
    assert!(claim.contains("kind: PersistentVolumeClaim"));
    assert!(claim.contains("name: ludus-results"));
    assert!(claim.contains("ReadWriteMany"));
    let run = read("run-k8s.sh");
    assert!(
        run.contains("--for=condition=failed job/ludus-arena"),
        "{run}"
    );
    // The script is valid shell.
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(recipe("run-k8s.sh"))
        .status()
        .unwrap();
    assert!(syntax.success());
}
