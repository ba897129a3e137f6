//! The input thread: terminal events become messages on the loop's channel.

use std::sync::mpsc::Sender;
use std::thread;

use ratatui::crossterm::event::{self, Event, KeyEventKind, MouseButton, MouseEventKind};

use super::msg::Msg;

/// Starts a thread that reads terminal events and sends them as messages until the channel
/// closes or reading fails.
pub fn spawn(messages: Sender<Msg>) {
    let _ = thread::Builder::new()
        .name("ludus-input".into())
        .spawn(move || {
            while let Ok(event) = event::read() {
                let msg = match event {
                    Event::Key(key) if key.kind != KeyEventKind::Release => Msg::Key(key),
                    Event::Mouse(mouse)
                        if matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left)) =>
                    {
                        Msg::Mouse(mouse)
                    }
                    Event::Resize(w, h) => Msg::Resize(w, h),
                    _ => continue,
                };
                if messages.send(msg).is_err() {
                    break;
                }
            }
        });
}
