//! Passwords: hashed with Argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane), stored
//! as a PHC string that carries its own salt and parameters, and checked in constant time by
//! the `argon2` crate. A hash takes tens of milliseconds of one core and 19 MiB on purpose:
//! the callers run it on a blocking thread, a few at a time (`People::hashing`).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// OWASP's first Argon2id choice: m = 19 MiB, t = 2, p = 1.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn hasher() -> Argon2<'static> {
    // The parameters are constants within Argon2's ranges, so `Params::new` cannot refuse them.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) of `password` with a fresh
/// random salt.
pub fn hash(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no random source for a salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| format!("the password could not be hashed: {e}"))
}

/// Whether `password` matches the stored PHC string `stored` (false for a damaged one).
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|parsed| {
        hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
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
}
