//! Binding, serving and stopping: the server `ludus serve` runs, and a background server for
//! tests and tools that need one on a free port.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::oneshot;

use crate::hub::Hub;
use crate::people::People;
use crate::sqlite::{Damaged, SqliteStore};
use crate::{api, Config};

/// A server bound to its address, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    hub: Arc<Hub>,
    damaged: Vec<Damaged>,
    warnings: Vec<String>,
}

/// Why [`Server::bind`] failed: the database, the address, the configuration or the random
/// source.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    /// The database could not be opened: one line naming the file and the cause (not a
    /// database, newer than this build, a directory, not writable, ...).
    #[error("{0}")]
    Database(String),
    /// The address could not be listened on (taken, not local, not an address).
    #[error("cannot listen: {0}")]
    Listen(io::Error),
    /// An allowed origin or host in the configuration is not one: what is wrong and what was
    /// expected.
    #[error(transparent)]
    Config(#[from] crate::api::AccessError),
    /// The operating system gives no random bytes, so no token could be made.
    #[error("cannot start: {0}")]
    Random(#[from] crate::tokens::NoRandomSource),
}

impl From<BindError> for io::Error {
    fn from(error: BindError) -> io::Error {
        match error {
            BindError::Database(message) => io::Error::other(message),
            BindError::Listen(error) => error,
            BindError::Config(error) => io::Error::new(io::ErrorKind::InvalidInput, error),
            BindError::Random(error) => io::Error::other(error),
        }
    }
}

/// The sign-in and sign-up limits `config` sets.
fn throttle(config: &Config) -> crate::people::Throttle {
    crate::people::Throttle::new(
        config.sign_in_failures,
        config.sign_ins_per_client,
        config.signups_per_hour,
    )
}

impl Server {
    /// Binds `addr` (`127.0.0.1:0` picks a free port). With `config.db` it opens the
    /// database first and takes up every stored game where it stopped (see
    /// [`Server::damaged`] for those the rules refused, [`Server::warnings`] for what else
    /// opening it found). An allowed origin or host that is not one ([`crate::check_origin`],
    /// [`crate::check_host`]) fails before anything is opened.
    pub async fn bind(addr: impl ToSocketAddrs, config: Config) -> Result<Server, BindError> {
        api::check_access(&config)?;
        crate::tokens::check_random_source()?;
        let secure = config.secure_cookies();
        let (hub, damaged, warnings) = match config.db.clone() {
            None => {
                let people = People::open(None, secure, throttle(&config))
                    .map_err(|e| BindError::Database(e.to_string()))?;
                (Hub::new(config, Arc::new(people)), Vec::new(), Vec::new())
            }
            Some(path) => {
                let (store, damaged) =
                    SqliteStore::open(&path, config.max_games, config.max_games_in_progress)
                        .map_err(|e| BindError::Database(e.0))?;
                let store = Arc::new(store);
                // The accounts write through the games' writer: one writer for the file.
                let people = People::open(Some(&path), secure, throttle(&config))
                    .map_err(|e| BindError::Database(format!("database {}: {e}", path.display())))?
                    .with_sink(Arc::clone(&store) as Arc<dyn crate::people::Sink>);
                let warnings = store.warnings().to_vec();
                let hub = Hub::with_store(config, store, Arc::new(people));
                (hub, damaged, warnings)
            }
        };
        let listener = TcpListener::bind(addr).await.map_err(BindError::Listen)?;
        for game in hub.store.games() {
            game.start(&hub).await;
        }
        tokio::spawn(crate::live::ticker(Arc::clone(&hub)));
        tokio::spawn(crate::live::sweeper(Arc::clone(&hub)));
        tokio::spawn(crate::pairing::sweeper(Arc::clone(&hub)));
        Ok(Server {
            listener,
            hub,
            damaged,
            warnings,
        })
    }

    /// What opening the database found besides the games the rules refused, one line
    /// each: a torn write-ahead log and the games that may have lost their last decisions,
    /// damaged pages, a games table read only in part.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The stored games the rules refused when the database was opened, skipped and left
    /// unchanged in it.
    pub fn damaged(&self) -> &[Damaged] {
        &self.damaged
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The page's URL, `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        self.local_addr().map_or_else(
            |_| "http://127.0.0.1/".to_string(),
            |a| format!("http://{a}/"),
        )
    }

    /// Serves until `shutdown` completes, then stops every search, tells the sockets, and
    /// finishes the requests in flight; then the store finishes its writes and leaves its
    /// database file complete on its own ([`crate::store::Store::close`]).
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> io::Result<()> {
        let store = Arc::clone(&self.hub.store);
        let hub = Arc::clone(&self.hub);
        let local = self.listener.local_addr().ok();
        let signal = async move {
            shutdown.await;
            hub.close();
        };
        let router = api::router(Arc::clone(&self.hub), local);
        crate::net::serve(self.listener, router, &self.hub.config, signal).await;
        // After the last request in flight: every acknowledged write is in the checkpoint.
        store.close().map_err(|e| io::Error::other(e.0))
    }
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM. The handlers are installed when this is called
/// (inside a runtime), not when the future is first polled: a server that says where it
/// listens only after calling it cannot be killed by a signal sent at once (a serving loop
/// busy accepting connections may poll its shutdown future late).
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        // Without a handler the server runs until killed, as it would without this.
        let until = |kind| {
            let stream = signal(kind).ok();
            async move {
                match stream {
                    Some(mut stream) => {
                        stream.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            }
        };
        let (interrupt, terminate) = (
            until(SignalKind::interrupt()),
            until(SignalKind::terminate()),
        );
        async move {
            tokio::select! {
                () = interrupt => {},
                () = terminate => {},
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// A server running on its own thread and runtime, stopped when dropped.
#[derive(Debug)]
pub struct BackgroundServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl BackgroundServer {
    /// Starts a server on `127.0.0.1:0` with `config`. May be called from inside another
    /// runtime (an async test): the server's runtime lives on its own thread.
    pub fn start(config: Config) -> io::Result<BackgroundServer> {
        let (ready, bound) = std::sync::mpsc::channel::<io::Result<SocketAddr>>();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("ludus-server".into())
            .spawn(move || serve_in_thread(config, &ready, stopped))?;
        let addr = bound
            .recv()
            .map_err(|_| io::Error::other("the server thread ended before binding"))??;
        Ok(BackgroundServer {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// The server thread: its own runtime, bound, serving until `stopped`.
fn serve_in_thread(
    config: Config,
    ready: &std::sync::mpsc::Sender<io::Result<SocketAddr>>,
    stopped: oneshot::Receiver<()>,
) {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    let server = match runtime.block_on(Server::bind("127.0.0.1:0", config)) {
        Ok(server) => server,
        Err(error) => {
            let _ = ready.send(Err(error.into()));
            return;
        }
    };
    let _ = ready.send(server.local_addr());
    let shutdown = async {
        let _ = stopped.await;
    };
    // An I/O error of the listener ends the thread; clients then fail to connect.
    let _ = runtime.block_on(server.run(shutdown));
    runtime.shutdown_background();
}

impl Drop for BackgroundServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
