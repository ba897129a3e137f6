//! Headless Chromium driven over WebDriver: finding the browser and chromedriver, starting one
//! chromedriver for the whole test binary, more sessions on it for other people's browsers (each
//! its own profile, so its own local storage), and the waits and clicks the scenarios share.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::error::{CmdError, ErrorStatus};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

use crate::support::Spawned;

/// How long any wait in a scenario may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running chromedriver and a browser session on it.
pub struct Browser {
    pub client: Client,
    /// chromedriver, killed and reaped when the browser drops, after its `Drop` ended the
    /// session; also when no session could be opened on it and [`Browser::start`] failed
    /// before a [`Browser`] held it.
    _driver: Spawned,
    port: u16,
    chromium: PathBuf,
    session: Option<String>,
    /// Where Chromium saves downloads (the saved records).
    pub downloads: PathBuf,
    _profile: tempfile::TempDir,
    _download_dir: tempfile::TempDir,
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Debian's `/usr/bin/chromium` is a shell wrapper; chromedriver drives the real binary best.
fn chromium_binary() -> Option<PathBuf> {
    let real = Path::new("/usr/lib/chromium/chromium");
    if real.is_file() {
        return Some(real.to_path_buf());
    }
    on_path(&["chromium", "chromium-browser", "google-chrome", "chrome"])
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free local port")
}

impl Browser {
    /// Starts chromedriver and a headless Chromium; `None` (after saying why) when they are not
    /// installed on a developer's machine. In CI (`CI=true`) a missing browser fails the test.
    pub async fn start() -> Option<Browser> {
        let (Some(driver), Some(chromium)) = (on_path(&["chromedriver"]), chromium_binary()) else {
            let message = "browser tests need Chromium and chromedriver \
                           (Debian: apt-get install chromium chromium-driver)";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
            eprintln!("SKIPPED: {message}");
            return None;
        };
        let port = free_port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(Spawned)
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().expect("a temporary profile directory");
        let download_dir = tempfile::tempdir().expect("a temporary download directory");
        let client = connect(port, &chromium, profile.path(), download_dir.path()).await;
        let session = client.session_id().await.ok().flatten();
        Some(Browser {
            client,
            _driver: driver,
            port,
            chromium,
            session,
            downloads: download_dir.path().to_path_buf(),
            _profile: profile,
            _download_dir: download_dir,
        })
    }

    /// Ends the session (Chromium quits) and chromedriver.
    pub async fn stop(mut self) {
        if self.client.clone().close().await.is_ok() {
            self.session = None;
        }
    }

    /// Another person's browser: a second session on the same chromedriver with a profile of its
    /// own, so it holds none of this browser's seat tokens.
    pub async fn another_person(&self) -> Person {
        let profile = tempfile::tempdir().expect("a temporary profile directory");
        let client = connect(self.port, &self.chromium, profile.path(), profile.path()).await;
        let session = client.session_id().await.ok().flatten();
        Person {
            client,
            port: self.port,
            session,
            _profile: profile,
        }
    }
}

/// A browser session beside the first one, ended when dropped (also on a failed scenario).
pub struct Person {
    pub client: Client,
    port: u16,
    session: Option<String>,
    _profile: tempfile::TempDir,
}

impl Person {
    /// Ends the session (its Chromium quits).
    pub async fn stop(mut self) {
        if self.client.clone().close().await.is_ok() {
            self.session = None;
        }
    }
}

impl Drop for Person {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            end_session(self.port, &session);
        }
    }
}

/// Ends a WebDriver session with a plain blocking request (no runtime is needed), so no Chromium
/// outlives the test even after a failed scenario's panic.
fn end_session(port: u16, session: &str) {
    if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let request = format!(
            "DELETE /session/{session} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        if stream.write_all(request.as_bytes()).is_ok() {
            let _ = stream.read_to_end(&mut Vec::new());
        }
    }
}

impl Drop for Browser {
    /// Also on a failed scenario's panic: ends the session; chromedriver stops after it, when
    /// the `_driver` field drops.
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            end_session(self.port, &session);
        }
    }
}

async fn connect(port: u16, chromium: &Path, profile: &Path, downloads: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,900",
    ]
    .into_iter()
    .map(String::from)
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let options = json!({
        "binary": chromium,
        "args": args,
        "prefs": {
            "download.default_directory": downloads,
            "download.prompt_for_download": false,
        },
    });
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    loop {
        match ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            // chromedriver takes a moment to listen after it starts.
            Err(err) => {
                assert!(
                    started.elapsed() < PATIENCE,
                    "no WebDriver session on {url}: {err}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Runs `script` (a function body that returns a value) in the page.
pub async fn eval(client: &Client, script: &str) -> Value {
    client
        .execute(script, Vec::new())
        .await
        .expect("script runs")
}

/// Waits until `script` returns a truthy value; fails the test with `what` after `PATIENCE`.
pub async fn wait_until(client: &Client, script: &str, what: &str) -> Value {
    let started = Instant::now();
    loop {
        let value = client
            .execute(script, Vec::new())
            .await
            .unwrap_or(Value::Null);
        let ready = match &value {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty(),
            Value::Number(_) | Value::Array(_) | Value::Object(_) => true,
        };
        if ready {
            return value;
        }
        assert!(started.elapsed() < PATIENCE, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The element `css`, waiting for it to appear.
pub async fn find(client: &Client, css: &str) -> Element {
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|err| panic!("no element {css}: {err}"))
}

/// Clicks the element `css` as a person would (a real pointer click through WebDriver).
///
/// The page redraws the board on every snapshot; when that happens between finding the element
/// and clicking it, WebDriver refuses (the element is stale, or its new twin is in the way) and
/// the click is tried again on the element as it is now, the same place a person would click.
pub async fn click(client: &Client, css: &str) {
    let mut tries = 0;
    loop {
        let Err(err) = find(client, css).await.click().await else {
            return;
        };
        let redrawn = err.is_stale_element_reference()
            || matches!(&err, CmdError::Standard(e) if e.error == ErrorStatus::ElementClickIntercepted);
        tries += 1;
        assert!(redrawn && tries < 5, "cannot click {css}: {err}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}
