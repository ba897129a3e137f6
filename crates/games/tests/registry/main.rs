//! The games' tests over the whole registry, in one test binary: each module was a test file of
//! its own, and each file compiled the generic code it uses for every game again. The per-game
//! files (`tests/<game>.rs`) test their own game only.

mod encoding;
mod one_folder;
mod options;
mod position_line;
mod records;
mod robustness;
