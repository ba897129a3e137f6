//! The floor under `longgame`'s server CPU per move: what the kernel alone charges a server
//! that does nothing but take one small frame from the mover's socket and write one frame of
//! the same size as a move's delta to each of the game's sockets, over loopback TCP, with
//! blocking sockets (one `recv` and one `send` a socket, no event loop, no WebSocket, no
//! game). No server can spend less a move on this machine with one system call a socket, so
//! `docs/SCALING.md` sets the 30 µs goal beside this figure.
//!
//! ```sh
//! cargo run -p ludus-server --features bench-examples --example fanout_floor --release -- MOVES SOCKETS BYTES
//! cargo run -p ludus-server --features bench-examples --example fanout_floor --release -- 20000 4 1482
//! ```
//!
//! The "server" is one thread of this process, the clients the main thread (as in
//! `longgame`); the server's CPU is its own thread's `schedstat` (the scheduler's count, in
//! nanoseconds), split into user and system time by its `stat` (in clock ticks, so coarse
//! below a second).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::thread;

/// Bytes of a move as a client sends it (`{"type":"move","move":"...","seq":N}`).
const MOVE_BYTES: usize = 48;

/// The calling thread's CPU so far: nanoseconds in all (`schedstat`), and clock ticks in user
/// and system mode (`stat`'s fields 14 and 15).
fn thread_cpu() -> (u64, u64, u64) {
    let ran = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis, from field 3 on.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse().ok()).unwrap_or(0);
    (ran, tick(11), tick(12))
}

/// Serves `moves` moves on `sockets`: reads the mover's frame, writes `bytes` bytes to every
/// socket; answers its CPU over the moves after the first hundred (the warm-up).
fn serve(mut sockets: Vec<TcpStream>, moves: u64, bytes: usize) -> (u64, u64, u64) {
    let frame = vec![b'x'; bytes];
    let mut incoming = [0u8; MOVE_BYTES];
    let mut start = (0, 0, 0);
    for turn in 0..moves {
        if turn == 100 {
            start = thread_cpu();
        }
        let mover = (turn % sockets.len() as u64) as usize;
        sockets[mover].read_exact(&mut incoming).expect("a move");
        for socket in &mut sockets {
            socket.write_all(&frame).expect("sent");
        }
    }
    let end = thread_cpu();
    (end.0 - start.0, end.1 - start.1, end.2 - start.2)
}

fn main() -> ExitCode {
    let args: Result<Vec<u64>, _> = std::env::args().skip(1).map(|a| a.parse()).collect();
    let (moves, seats, bytes) = match args.as_deref() {
        Ok([moves, seats, bytes])
            if *moves > 100 && (1..=64).contains(seats) && (1..=1 << 20).contains(bytes) =>
        {
            (*moves, *seats as usize, *bytes as usize)
        }
        _ => {
            eprintln!(
                "fanout_floor: expected MOVES (above 100) SOCKETS (1 to 64) BYTES (1 to 1048576), \
                 e.g. 20000 4 1482"
            );
            return ExitCode::FAILURE;
        }
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = listener.local_addr().expect("its address");
    let mut clients: Vec<TcpStream> = (0..seats)
        .map(|_| TcpStream::connect(addr).expect("connected"))
        .collect();
    let accepted: Vec<TcpStream> = (0..seats)
        .map(|_| listener.accept().expect("accepted").0)
        .collect();
    // The server's sockets answer at once, as `ludus serve`'s do (`net/mod.rs`).
    for socket in clients.iter().chain(&accepted) {
        socket.set_nodelay(true).expect("no delay");
    }
    let server = thread::spawn(move || serve(accepted, moves, bytes));
    let mut frame = vec![0u8; bytes];
    for turn in 0..moves {
        let mover = (turn % seats as u64) as usize;
        clients[mover]
            .write_all(&[b'm'; MOVE_BYTES])
            .expect("move sent");
        for client in &mut clients {
            client.read_exact(&mut frame).expect("a frame");
        }
    }
    let (ns, user, system) = server.join().expect("the server thread");
    let measured = (moves - 100) as f64;
    let ticks = (user + system).max(1) as f64;
    println!(
        "{seats} sockets, {bytes} bytes a frame: server CPU {:.1} µs per move ({:.0} % in the kernel), over {} moves",
        ns as f64 / 1e3 / measured,
        100.0 * system as f64 / ticks,
        moves - 100
    );
    ExitCode::SUCCESS
}
