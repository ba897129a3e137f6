//! What people may type for themselves: a name (3–20 letters, digits, `_` or `-`, starting
//! with a letter or digit: it appears in links and lists, so nothing that needs escaping or
//! looks like another name), a password (8–128 characters, NIST SP 800-63B's bounds; no rule
//! on kinds of characters), and a profile's text (shown as text, never as HTML).

/// The longest profile text, in characters.
pub const MAX_ABOUT: usize = 400;

/// Checks a name; the error says what is wrong and what was expected.
pub fn check_name(name: &str) -> Result<(), String> {
    let count = name.chars().count();
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let expected = "expected 3 to 20 letters, digits, _ or -, starting with a letter or digit";
    if !(3..=20).contains(&count) {
        return Err(format!("a name of {count} characters: {expected}"));
    }
    if !name.chars().all(allowed) || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(format!("the name has characters not allowed: {expected}"));
    }
    Ok(())
}

/// Checks a new password.
pub fn check_password(password: &str) -> Result<(), String> {
    let count = password.chars().count();
    if (8..=128).contains(&count) {
        Ok(())
    } else {
        Err(format!(
            "a password of {count} characters: expected 8 to 128 characters"
        ))
    }
}

/// Checks a profile's text.
pub fn check_about(about: &str) -> Result<(), String> {
    let count = about.chars().count();
    if count > MAX_ABOUT {
        return Err(format!(
            "a profile text of {count} characters: expected at most {MAX_ABOUT}"
        ));
    }
    if about.chars().any(|c| c.is_control() && c != '\n') {
        return Err("the profile text has control characters: expected plain text".to_string());
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
            assert!(check_name(bad).unwrap_err().contains("expected"), "{bad}");
        }
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_about(&"x".repeat(401)).is_err());
        assert!(check_about("<b>hi</b>\nthere").is_ok());
        assert!(check_about("bell\u{7}").is_err());
    }
}
