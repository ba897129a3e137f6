//! What people may type for themselves: a name (3–20 letters, digits, `_` or `-`, starting
//! with a letter or digit: it appears in links and lists, so nothing that needs escaping or
//! looks like another name), a password (8–128 characters, NIST SP 800-63B's bounds; no rule
//! on kinds of characters), and a profile's text (shown as text, never as HTML).

/// The longest profile text, in characters.
pub const MAX_ABOUT: usize = 400;

/// What is wrong with a typed name, password or profile text, and what was expected.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TextError {
    /// A name too short or too long (its length in characters).
    #[error("a name of {0} characters: {NAME_EXPECTED}")]
    NameLength(usize),
    /// A name with a character outside the allowed ones, or starting with `_` or `-`.
    #[error("the name has characters not allowed: {NAME_EXPECTED}")]
    NameCharacters,
    /// A password too short or too long (its length in characters).
    #[error("a password of {0} characters: expected 8 to 128 characters")]
    PasswordLength(usize),
    /// A profile text too long (its length in characters).
    #[error("a profile text of {0} characters: expected at most {MAX_ABOUT}")]
    AboutLength(usize),
    /// A profile text with control characters other than line breaks.
    #[error("the profile text has control characters: expected plain text")]
    AboutControl,
}

const NAME_EXPECTED: &str =
    "expected 3 to 20 letters, digits, _ or -, starting with a letter or digit";

impl From<TextError> for crate::error::ApiError {
    fn from(error: TextError) -> Self {
        crate::error::ApiError::unprocessable(error.to_string())
    }
}

/// Checks a name.
///
/// # Errors
/// [`TextError::NameLength`] or [`TextError::NameCharacters`].
pub fn check_name(name: &str) -> Result<(), TextError> {
    let count = name.chars().count();
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !(3..=20).contains(&count) {
        return Err(TextError::NameLength(count));
    }
    if !name.chars().all(allowed) || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(TextError::NameCharacters);
    }
    Ok(())
}

/// Checks a new password.
///
/// # Errors
/// [`TextError::PasswordLength`] outside 8 to 128 characters.
pub fn check_password(password: &str) -> Result<(), TextError> {
    let count = password.chars().count();
    if (8..=128).contains(&count) {
        Ok(())
    } else {
        Err(TextError::PasswordLength(count))
    }
}

/// Checks a profile's text.
///
/// # Errors
/// [`TextError::AboutLength`] or [`TextError::AboutControl`].
pub fn check_about(about: &str) -> Result<(), TextError> {
    let count = about.chars().count();
    if count > MAX_ABOUT {
        return Err(TextError::AboutLength(count));
    }
    if about.chars().any(|c| c.is_control() && c != '\n') {
        return Err(TextError::AboutControl);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_plain_and_start_with_a_letter_or_digit() {
        for good in ["ana", "Bob_2", "x-y", "12345678901234567890"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "ab",
            "<script>",
            "a b",
            "_ana",
            "Ã©lan",
            "123456789012345678901",
            "",
        ] {
            assert!(
                check_name(bad)
                    .unwrap_err()
                    .to_string()
                    .contains("expected"),
                "{bad}"
            );
        }
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_about(&"x".repeat(401)).is_err());
        assert!(check_about("<b>hi</b>\nthere").is_ok());
        assert!(check_about("bell\u{7}").is_err());
    }
}
