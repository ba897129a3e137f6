//! The live connection lost and found again: a server of its own (on a temporary database) is
//! stopped under the page, which says it is reconnecting; a move clicked meanwhile is kept, and
//! sent with the `seq` it was decided on once a new server on the same port and database is up.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::Client;
use ludus_server::{Config, Server};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::driver::{eval, wait_until, PATIENCE};
use super::online::{clicks_of, create_online, play_clicks, REPLICA_GAME};
use super::page::{click_cell, screenshot};

/// A server on `addr` keeping its games in `db`, and the way to stop it.
struct Running {
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn serve(addr: SocketAddr, db: &Path) -> (SocketAddr, Running) {
    let config = Config {
        db: Some(db.to_path_buf()),
        ..Config::default()
    };
    let started = Instant::now();
    // The port of the stopped server may take a moment to be free again.
    let server = loop {
        match Server::bind(addr, config.clone()).await {
            Ok(server) => break server,
            Err(err) => {
                assert!(
                    started.elapsed() < PATIENCE,
                    "cannot bind {addr} again: {err}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    let bound = server.local_addr().expect("bound address");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (bound, Running { stop, task })
}

impl Running {
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

/// The page says it reconnects; a move clicked now is kept, and the page says so.
async fn clicked_while_disconnected(client: &Client, cells: &[String]) {
    let line = wait_until(
        client,
        "const e = document.querySelector('#connection'); return e && !e.hidden ? e.textContent : null;",
        "the page saying it reconnects",
    )
    .await;
    assert!(
        line.as_str().unwrap_or_default().contains("reconnecting"),
        "{line}"
    );
    for cell in cells {
        click_cell(client, cell).await;
    }
    let kept = wait_until(
        client,
        "return document.querySelector('main').dataset.queued;",
        "the move kept",
    )
    .await;
    assert_eq!(kept, REPLICA_GAME[1]);
    let said = eval(
        client,
        "return document.querySelector('#error').textContent;",
    )
    .await;
    assert!(
        said.as_str().unwrap_or_default().contains("will be sent"),
        "{said}"
    );
}

/// A move clicked while the server is down is kept and played once it is back.
pub async fn move_kept_across_a_restart(client: &Client, scratch: &Path) {
    let db = scratch.join("reconnect.sqlite3");
    let (addr, running) = serve("127.0.0.1:0".parse().expect("address"), &db).await;
    let base = format!("http://{addr}/");
    let clicks = clicks_of(&REPLICA_GAME);
    create_online(
        client,
        &base,
        "replica",
        &[("human", ""), ("human", "")],
        "none",
    )
    .await;
    play_clicks(client, &clicks[0]).await;
    running.stop().await;
    clicked_while_disconnected(client, &clicks[1]).await;
    screenshot(client, "reconnecting").await;
    let (_, running) = serve(addr, &db).await;
    wait_until(
        client,
        "const m = document.querySelector('main'); return m.dataset.connection === 'open' && !m.dataset.queued && Number(m.dataset.seq) === 2;",
        "the kept move played after the reconnection",
    )
    .await;
    let said = eval(client, "return [document.querySelector('#error').textContent, document.querySelector('#connection').hidden];").await;
    assert_eq!(
        said,
        serde_json::json!([
            format!(
                "Your move {} was sent after the reconnection.",
                REPLICA_GAME[1]
            ),
            true
        ])
    );
    running.stop().await;
}
