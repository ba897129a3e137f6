//! Passwords: hashed with Argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane), stored
//! as a PHC string that carries its own salt and parameters, and checked in constant time
//! (the `argon2` and `password-hash` crates do the hashing, the encoding and the comparison).
//!
//! A hash takes tens of milliseconds of one core and 19 MiB on purpose, so the callers run
//! it on the few hashing threads (`hashers.rs`), and each thread hashes into one block of
//! memory of its own, allocated once: allocating 19 MiB per hash left the allocator holding
//! some 380 MiB after a burst of sign-ups.

use std::cell::RefCell;

use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

use crate::error::ApiError;
use crate::tokens::NoRandomSource;

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// No salt without the operating system's random source.
    #[error(transparent)]
    Random(#[from] NoRandomSource),
    /// Argon2 or the PHC encoding refused the input. (Not a `#[from]`: that error type does
    /// not implement `std::error::Error` without the crate's `std` feature.)
    #[error("{0}")]
    Argon2(argon2::password_hash::Error),
}

impl From<argon2::password_hash::Error> for HashError {
    fn from(error: argon2::password_hash::Error) -> HashError {
        HashError::Argon2(error)
    }
}

impl From<HashError> for ApiError {
    fn from(error: HashError) -> ApiError {
        match error {
            HashError::Random(error) => error.into(),
            HashError::Argon2(error) => ApiError::unavailable(error.to_string()),
        }
    }
}

/// OWASP's first Argon2id choice: m = 19 MiB, t = 2, p = 1.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn params() -> Params {
    // Constants within Argon2's ranges: `Params::new` cannot refuse them.
    Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default()
}

thread_local! {
    /// This thread's Argon2 memory, sized for [`params`] on first use.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// The Argon2id output of `password` with `salt` under `params`, computed in this thread's
/// memory (grown only for parameters bigger than ever seen here).
fn output(password: &str, salt: &Salt<'_>, params: &Params) -> Result<Output, HashError> {
    let mut raw_salt = [0u8; 64];
    let salt = salt.decode_b64(&mut raw_salt)?;
    let hasher = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let length = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    MEMORY.with_borrow_mut(|memory| {
        if memory.len() < params.block_count() {
            memory.resize(params.block_count(), Block::default());
        }
        Output::init_with(length, |out| {
            hasher
                .hash_password_into_with_memory(
                    password.as_bytes(),
                    salt,
                    out,
                    &mut memory[..params.block_count()],
                )
                .map_err(|_| argon2::password_hash::Error::Password)
        })
        .map_err(HashError::from)
    })
}

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) of `password` with a fresh
/// random salt.
pub fn hash(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    crate::tokens::fill_secret(&mut salt)?;
    let salt = SaltString::encode_b64(&salt)?;
    let params = params();
    let output = output(password, &salt.as_salt(), &params)?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params)?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the stored PHC string `stored` (false for a damaged one, or
/// one not made by Argon2id). `Output`'s comparison takes the same time wherever it differs.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    if parsed.algorithm != Algorithm::Argon2id.ident() {
        return false;
    }
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    output(password, &salt, &params).is_ok_and(|computed| computed == expected)
}

/// A hash of no one's password, checked when a name does not exist, so that a sign-in takes
/// as long whether the name exists or not.
pub fn decoy() -> &'static str {
    static DECOY: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| hash("no such account").unwrap_or_default());
    &DECOY
}

#[cfg(test)]
mod tests {
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    use super::*;

    #[test]
    fn a_hash_is_argon2id_with_owasps_parameters_and_a_salt_of_its_own() {
        let (a, b) = (
            hash("correct horse").unwrap(),
            hash("correct horse").unwrap(),
        );
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(!a.contains("correct horse"));
        assert!(verify("correct horse", &a));
        assert!(!verify("correct hors", &a));
        assert!(!verify("correct horse", "not a hash"));
    }

    #[test]
    fn hashes_agree_with_the_crates_own_hasher_both_ways() {
        let ours = hash("tr0ub4dor&3").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        let theirs = Argon2::new(Algorithm::Argon2id, Version::V0x13, params());
        assert!(theirs.verify_password(b"tr0ub4dor&3", &parsed).is_ok());
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let made = theirs
            .hash_password(b"tr0ub4dor&3", &salt)
            .unwrap()
            .to_string();
        assert!(verify("tr0ub4dor&3", &made));
        assert!(!verify("tr0ub4dor&4", &made));
        // Other parameters (a future change of OWASP's advice) still verify.
        let light = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(1024, 1, 1, None).unwrap(),
        );
        let old = light.hash_password(b"old one", &salt).unwrap().to_string();
        assert!(verify("old one", &old));
        // Argon2i is not what this server stores: refused.
        let other = Argon2::new(Algorithm::Argon2i, Version::V0x13, params());
        let argon2i = other.hash_password(b"x", &salt).unwrap().to_string();
        assert!(!verify("x", &argon2i));
    }
}
