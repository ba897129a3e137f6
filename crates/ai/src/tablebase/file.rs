//! One table on disk: a header naming the game and the material, the SHA-256 of the values,
//! then one byte per position ([`super::value`]). The bytes depend only on the game and the
//! material, so two generations give identical files; loading checks everything the header
//! promises and refuses a damaged file with one line saying what is wrong.

use std::fs;
use std::path::{Path, PathBuf};

use ludus_engine::{write_atomically, Material};
use sha2::{Digest, Sha256};

use super::TablebaseError;

/// The first bytes of every table file, with the format's version in the last byte.
const MAGIC: &[u8; 8] = b"LUDUSTB\x01";

/// The file name of `material`'s table for the game `game`: `GAME-3v2.ltb`.
pub fn file_name(game: &str, material: Material) -> String {
    format!("{game}-{material}.ltb")
}

/// The table's path in `dir`.
pub(crate) fn path(dir: &Path, game: &str, material: Material) -> PathBuf {
    dir.join(file_name(game, material))
}

/// The header and the values, as written.
fn encode(game: &str, material: Material, values: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(values.len() + 64);
    bytes.extend_from_slice(MAGIC);
    bytes.push(game.len() as u8);
    bytes.extend_from_slice(game.as_bytes());
    bytes.extend_from_slice(&[material.mover, material.other]);
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&Sha256::digest(values));
    bytes.extend_from_slice(values);
    bytes
}

/// Writes the table atomically (a crash leaves the old file or none); returns its size in
/// bytes.
pub(crate) fn write(
    dir: &Path,
    game: &str,
    material: Material,
    values: &[u8],
) -> Result<u64, TablebaseError> {
    let path = path(dir, game, material);
    let bytes = encode(game, material, values);
    write_atomically(&path, &bytes).map_err(|e| TablebaseError::Io(e.to_string()))?;
    Ok(bytes.len() as u64)
}

/// Reads and checks the table of `material` for `game` with `size` positions: `Ok(None)` when
/// the file does not exist.
pub(crate) fn read(
    dir: &Path,
    game: &str,
    material: Material,
    size: u64,
) -> Result<Option<Vec<u8>>, TablebaseError> {
    let path = path(dir, game, material);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(TablebaseError::Io(format!(
                "cannot read '{}': {e}",
                path.display()
            )))
        }
    };
    let damaged = |reason: String| TablebaseError::Damaged {
        path: path.display().to_string(),
        reason,
    };
    decode(bytes, game, material, size)
        .map(Some)
        .map_err(damaged)
}

/// The values of a file's bytes, or why they are not a good table of `material`.
fn decode(
    mut bytes: Vec<u8>,
    game: &str,
    material: Material,
    size: u64,
) -> Result<Vec<u8>, String> {
    let header = MAGIC.len() + 1 + game.len() + 2 + 8 + 32;
    if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a ludus tablebase file of this version".to_string());
    }
    let mut at = MAGIC.len();
    let name_len = usize::from(bytes[at]);
    at += 1;
    if bytes.get(at..at + name_len) != Some(game.as_bytes()) {
        return Err(format!("not a table of the game '{game}'"));
    }
    at += name_len;
    if bytes[at..at + 2] != [material.mover, material.other] {
        let found = Material {
            mover: bytes[at],
            other: bytes[at + 1],
        };
        return Err(format!("holds the material {found}, expected {material}"));
    }
    at += 2;
    let count = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
    at += 8;
    let stored: [u8; 32] = bytes[at..at + 32].try_into().unwrap_or_default();
    at += 32;
    let found = (bytes.len() - at) as u64;
    if count != size || found != size {
        return Err(format!(
            "expected {size} positions, the header says {count} and the file holds {found}"
        ));
    }
    let values = bytes.split_off(at);
    if Sha256::digest(&values)[..] != stored {
        return Err("checksum mismatch (the values were changed or cut)".to_string());
    }
    Ok(values)
}
