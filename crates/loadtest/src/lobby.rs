//! The lobby under load (`--lobby L`): L sockets on `/api/lobby/ws` stay open through the run,
//! the even ones signed in (each as its own account, as long as there are accounts), the odd
//! ones anonymous. Each counts what it hears and keeps which seeks it saw come (a `seek`
//! frame, or the list the server sends first and again to a socket that fell behind) and go
//! (`unseek`); a signed-in one also passes its `started` frames' tokens to the seekers.
//!
//! At the end every seek of the run is withdrawn or taken, then one last seek (the marker) is
//! posted and withdrawn: a socket that heard the marker's `unseek` has heard everything before
//! it, since the server sends the lobby's frames in order. Then each socket must have seen
//! every seek of the run come and go; one still open there is a stale seek, an error.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{stream, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use super::people::People;
use super::Plan;

/// Lobby sockets opened at once.
const OPENING: usize = 64;

/// How long the sockets may take to hear the marker's `unseek` after it was sent.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// What the lobby sockets heard, for the report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LobbyReport {
    /// Lobby sockets (`--lobby`).
    pub sockets: u64,
    /// Of them, signed in.
    pub signed_in: u64,
    /// Frames received, over all sockets, from opening to the end.
    pub frames: u64,
    /// Frames received while the games were played.
    pub frames_during_play: u64,
    /// `frames_during_play` per second of play, over all sockets.
    pub frames_per_s: f64,
    /// `seek` frames received.
    pub seek_frames: u64,
    /// `unseek` frames received.
    pub unseek_frames: u64,
    /// Whole lists (`seeks`) received after the first: a socket that fell behind.
    pub resyncs: u64,
    /// Of them, received while the games were played (not while they were set up).
    pub resyncs_during_play: u64,
    /// `started` frames received (signed-in sockets).
    pub started_frames: u64,
    /// `started` frames the signed-in sockets should have received: one per seat of each
    /// game made whose account had a socket open.
    pub started_expected: u64,
    /// Seeks the run posted (the games' seeks, the background ones, the marker).
    pub seeks_of_run: u64,
    /// Sockets that saw every seek of the run come and go.
    pub sockets_complete: u64,
    /// Over all sockets, seeks of the run a socket did not see come and go (it fell behind).
    pub missed: u64,
    /// Of them, seeks posted while the games were played.
    pub missed_during_play: u64,
    /// `unseek` frames of a seek the socket had not seen open.
    pub unmatched: u64,
    /// Over all sockets, seeks of the run still shown open after the end: an error.
    pub stale: u64,
    /// Every socket heard the marker's `unseek` (else `stale` and `missed` are not known).
    pub drained: bool,
    /// Sockets the server closed during the run.
    pub closed: u64,
}

/// The lobby's sockets while they listen.
#[derive(Debug)]
pub struct Lobby {
    watchers: Vec<JoinHandle<Heard>>,
    signed_in: u64,
    /// Frames count as "during play" while set.
    playing: Arc<AtomicBool>,
    /// Seeks the run had posted when the play began.
    posted_before_play: AtomicUsize,
    marker: watch::Sender<Option<String>>,
    stop: watch::Sender<bool>,
}

/// What one socket heard.
#[derive(Debug, Default)]
struct Heard {
    frames: u64,
    during_play: u64,
    seek_frames: u64,
    unseek_frames: u64,
    lists: u64,
    lists_during_play: u64,
    started: u64,
    unmatched: u64,
    /// Seeks seen open (in a list or a `seek` frame).
    seen: HashSet<String>,
    /// Seeks seen go after being seen open.
    gone: HashSet<String>,
    /// Seeks open as this socket knows.
    open: HashSet<String>,
    /// It heard the marker's `unseek`.
    drained: bool,
    /// The server closed it.
    closed: bool,
}

/// A lobby frame as read here; the seeks' other fields are skipped.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    seeks: Option<Vec<SeekId>>,
    seek: Option<SeekId>,
    id: Option<String>,
    game: Option<String>,
    seat: Option<usize>,
    token: Option<String>,
}

#[derive(Deserialize)]
struct SeekId {
    id: String,
}

/// Opens `count` lobby sockets and waits for each one's first list; fails with one line when
/// one cannot be opened.
pub async fn open(plan: &Plan, people: &Arc<People>, count: u64) -> anyhow::Result<Lobby> {
    let signed = |index: u64| index % 2 == 0 && (index / 2) < people.accounts.len() as u64;
    let playing = Arc::new(AtomicBool::new(false));
    let (marker, marker_rx) = watch::channel(None);
    let (stop, stop_rx) = watch::channel(false);
    let opened: Vec<_> = stream::iter(0..count)
        .map(|index| {
            let member = signed(index).then_some((index / 2) as usize);
            async move { (index, connect(plan, people, member).await) }
        })
        .buffer_unordered(OPENING)
        .collect()
        .await;
    let mut watchers = Vec::with_capacity(opened.len());
    for (index, socket) in opened {
        let socket =
            socket.map_err(|e| anyhow::anyhow!("cannot open lobby socket {index}: {e}"))?;
        if signed(index) {
            people.accounts[(index / 2) as usize]
                .listening
                .store(true, Ordering::Relaxed);
        }
        watchers.push(tokio::spawn(listen(
            socket,
            Arc::clone(people),
            Arc::clone(&playing),
            marker_rx.clone(),
            stop_rx.clone(),
        )));
    }
    Ok(Lobby {
        watchers,
        signed_in: (0..count).filter(|&i| signed(i)).count() as u64,
        playing,
        posted_before_play: AtomicUsize::new(0),
        marker,
        stop,
    })
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One lobby socket, signed in as `member` if given, after its first frame (the list).
async fn connect(
    plan: &Plan,
    people: &People,
    member: Option<usize>,
) -> Result<(Socket, String), String> {
    let url = plan.target.ws_url("/api/lobby/ws");
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    if let Some(member) = member {
        for (name, value) in people.accounts[member].headers() {
            request.headers_mut().insert(name, value.clone());
        }
    }
    let (mut socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| e.to_string())?;
    // Nothing the load test posts may come before the socket listens: wait for the list.
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => return Ok((socket, text.to_string())),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("closed before its first frame".to_string()),
        }
    }
}

/// Reads one socket until it hears the marker's `unseek`, is stopped, or is closed.
async fn listen(
    (mut socket, first): (Socket, String),
    people: Arc<People>,
    playing: Arc<AtomicBool>,
    marker: watch::Receiver<Option<String>>,
    mut stop: watch::Receiver<bool>,
) -> Heard {
    let mut heard = Heard::default();
    heard.read(&first, &people, &playing, &marker);
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            _ = stop.changed() => break,
        };
        match frame {
            Some(Ok(Message::Text(text))) => {
                if heard.read(text.as_str(), &people, &playing, &marker) {
                    heard.drained = true;
                    break;
                }
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => {
                heard.closed = true;
                break;
            }
            Some(Ok(_)) => {}
        }
    }
    let _ = socket.close(None).await;
    heard
}

impl Heard {
    /// Counts one frame; `true` when it is the marker's `unseek`.
    fn read(
        &mut self,
        text: &str,
        people: &People,
        playing: &AtomicBool,
        marker: &watch::Receiver<Option<String>>,
    ) -> bool {
        self.frames += 1;
        if playing.load(Ordering::Relaxed) {
            self.during_play += 1;
        }
        let Ok(frame) = serde_json::from_str::<Frame>(text) else {
            return false;
        };
        match frame.kind.as_str() {
            "seeks" => {
                self.lists += 1;
                if playing.load(Ordering::Relaxed) {
                    self.lists_during_play += 1;
                }
                self.open = frame
                    .seeks
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| s.id)
                    .collect();
                self.seen.extend(self.open.iter().cloned());
            }
            "seek" => {
                self.seek_frames += 1;
                if let Some(seek) = frame.seek {
                    self.seen.insert(seek.id.clone());
                    self.open.insert(seek.id);
                }
            }
            "unseek" => {
                self.unseek_frames += 1;
                let id = frame.id.unwrap_or_default();
                let last = marker.borrow().as_deref() == Some(id.as_str());
                if self.open.remove(&id) {
                    self.gone.insert(id);
                } else {
                    self.unmatched += 1;
                }
                return last;
            }
            "started" => {
                self.started += 1;
                if let (Some(game), Some(seat), Some(token)) = (frame.game, frame.seat, frame.token)
                {
                    people.mailbox.deliver((game, seat), token);
                }
            }
            _ => {}
        }
        false
    }
}

impl Lobby {
    /// From now on frames count as heard during the play.
    pub fn start_playing(&self, people: &People) {
        self.posted_before_play
            .store(people.posted().len(), Ordering::Relaxed);
        self.playing.store(true, Ordering::Relaxed);
    }

    /// After the play: withdraws the background seeks, sends the marker, waits for every
    /// socket to hear it (at most [`DRAIN_TIMEOUT`]) and compares what each heard with the
    /// seeks the run posted. `started_expected` comes from the games made.
    pub async fn finish(
        self,
        plan: &Plan,
        people: &People,
        elapsed_s: f64,
        started_expected: u64,
    ) -> (LobbyReport, Vec<String>) {
        self.playing.store(false, Ordering::Relaxed);
        let errors = self.end_seeks(plan, people).await;
        let stop = self.stop;
        let stopper = tokio::spawn(async move {
            tokio::time::sleep(DRAIN_TIMEOUT).await;
            let _ = stop.send(true);
        });
        let mut heard = Vec::with_capacity(self.watchers.len());
        for watcher in self.watchers {
            heard.push(watcher.await.unwrap_or_default());
        }
        stopper.abort();
        let report = LobbyReport {
            sockets: heard.len() as u64,
            signed_in: self.signed_in,
            started_expected,
            ..LobbyReport::default()
        };
        let before_play = self.posted_before_play.load(Ordering::Relaxed);
        (
            compare(report, &heard, people, elapsed_s, before_play),
            errors,
        )
    }

    /// Withdraws the background seeks, then posts and withdraws the marker; the errors.
    async fn end_seeks(&self, plan: &Plan, people: &People) -> Vec<String> {
        let mut errors = Vec::new();
        if let Err(e) = people.cancel_background(plan).await {
            errors.push(e);
        }
        match people.post_seek(plan, 0, plan.games[0]).await {
            Ok(id) => {
                self.marker.send_replace(Some(id.clone()));
                if let Err(e) = people.cancel_seek(plan, 0, &id).await {
                    errors.push(e);
                }
            }
            Err(e) => errors.push(e),
        }
        errors
    }
}

/// Adds up what the sockets heard into `report`, against the seeks the run posted.
fn compare(
    mut report: LobbyReport,
    heard: &[Heard],
    people: &People,
    elapsed_s: f64,
    before_play: usize,
) -> LobbyReport {
    let posted = people.posted();
    let left_open: HashSet<String> = people.left_open().into_iter().collect();
    report.seeks_of_run = posted.len() as u64;
    report.drained = heard.iter().all(|h| h.drained);
    for h in heard {
        report.frames += h.frames;
        report.frames_during_play += h.during_play;
        report.seek_frames += h.seek_frames;
        report.unseek_frames += h.unseek_frames;
        report.resyncs += h.lists.saturating_sub(1);
        report.resyncs_during_play += h.lists_during_play;
        report.started_frames += h.started;
        report.unmatched += h.unmatched;
        report.closed += u64::from(h.closed);
        let missed: Vec<usize> = posted
            .iter()
            .enumerate()
            .filter(|(_, id)| !left_open.contains(*id))
            .filter(|(_, id)| !(h.seen.contains(*id) && h.gone.contains(*id)))
            .map(|(index, _)| index)
            .collect();
        let missed_in_play = missed.iter().filter(|&&i| i >= before_play).count();
        let missed = missed.len() as u64;
        report.missed += missed;
        report.missed_during_play += missed_in_play as u64;
        report.sockets_complete += u64::from(missed == 0 && h.drained);
        if h.drained {
            report.stale += posted
                .iter()
                .filter(|id| h.open.contains(*id) && !left_open.contains(*id))
                .count() as u64;
        }
    }
    report.frames_per_s = report.frames_during_play as f64 / elapsed_s.max(1e-9);
    report
}
