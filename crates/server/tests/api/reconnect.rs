//! Reconnection at every point of a Qawale turn: two seats play a whole game over
//! WebSockets; before every decision (the stack, then each sowing step) the mover's socket is
//! dropped and opened again with its token (once the opponent's instead). The new socket's
//! first snapshot is exactly the one before the drop (same seq, same partial turn), and a
//! decision sent just before a drop and sent again with the old seq after reconnecting is
//! applied once, never twice.

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{connect, next_of, send, Api, Dice, Socket};

/// The fields a reconnected client redraws from: they must match what it saw before.
fn redrawn(snapshot: &Value) -> Value {
    json!([
        snapshot["seq"],
        snapshot["position"],
        snapshot["moves"],
        snapshot["history"],
        snapshot["legal"],
        snapshot["to_move"],
        snapshot["outcome"],
        snapshot["offer"],
    ])
}

/// Two seats' sockets on one game.
struct Table {
    id: String,
    tokens: [String; 2],
    sockets: [Option<Socket>; 2],
}

impl Table {
    /// Drops seat `index`'s socket and opens it again; when `before` is given, its first
    /// snapshot must be that one.
    async fn drop_and_reconnect(&mut self, api: &Api, index: usize, before: Option<&Value>) {
        drop(self.sockets[index].take());
        let mut socket = connect(api, &self.id, Some(&self.tokens[index])).await;
        let first = next_of(&mut socket, "snapshot").await;
        if let Some(before) = before {
            assert_eq!(
                redrawn(&first["snapshot"]),
                redrawn(before),
                "the same state after reconnecting"
            );
        }
        self.sockets[index] = Some(socket);
    }

    async fn send(&mut self, index: usize, frame: &Value) {
        send(self.sockets[index].as_mut().unwrap(), frame).await;
    }
}

#[tokio::test]
async fn a_dropped_socket_resumes_at_every_point_of_a_qawale_turn() {
    let api = Api::start();
    let game = api.create(&json!({"game": "qawale"})).await;
    let mut table = Table {
        id: game.id.clone(),
        tokens: [game.token(1).to_string(), game.token(2).to_string()],
        sockets: [None, None],
    };
    table.drop_and_reconnect(&api, 0, None).await;
    table.drop_and_reconnect(&api, 1, None).await;
    let mut dice = Dice(15);
    let mut inside_turns = 0;
    for point in 0..400 {
        let before = api.snapshot(&game.id).await;
        if !before["outcome"].is_null() {
            assert!(inside_turns > 0, "drops fell inside turns too");
            return;
        }
        let seq = before["seq"].as_u64().unwrap();
        let mover = before["to_move"].as_u64().unwrap() as usize - 1;
        let history = before["history"].as_array().unwrap();
        if history.last().is_some_and(|t| t["complete"] == false) {
            inside_turns += 1;
        }
        if point == 3 {
            table
                .drop_and_reconnect(&api, 1 - mover, Some(&before))
                .await;
        }
        let decision = json!({"type": "move", "move": dice.legal(&before), "seq": seq});
        if point % 2 == 0 {
            table.drop_and_reconnect(&api, mover, Some(&before)).await;
        } else {
            // Sent, then the connection drops before the answer arrives: the client cannot
            // know whether it was applied, so it sends it again after reconnecting. Applied
            // or not yet, either is right, as long as the resend is not applied too.
            table.send(mover, &decision).await;
            table.drop_and_reconnect(&api, mover, None).await;
        }
        table.send(mover, &decision).await;
        api.wait_for(&game.id, |s| s["seq"].as_u64() >= Some(seq + 1))
            .await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let after = api.snapshot(&game.id).await;
        assert_eq!(
            after["seq"],
            seq + 1,
            "point {point}: applied once, never twice"
        );
    }
    panic!("the game did not end in 400 decisions");
}
