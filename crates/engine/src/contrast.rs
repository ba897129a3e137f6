//! The WCAG 2 contrast ratio of two sRGB colours: the one formula both front ends check their
//! colours with (the terminal app's themes and the web page's stylesheet), so that "legible"
//! means the same number in each.

/// The relative luminance of an sRGB colour, from 0 (black) to 1 (white) (WCAG 2).
pub fn relative_luminance([r, g, b]: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// The contrast ratio of two sRGB colours, from 1 (the same) to 21 (black on white), in
/// either order. WCAG AA asks 4.5 for text.
///
/// ```
/// use ludus_engine::contrast::contrast_ratio;
/// assert!((contrast_ratio([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
/// ```
pub fn contrast_ratio(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_match_wcag_examples() {
        assert!((contrast_ratio([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast_ratio([255, 255, 255], [0, 0, 0]) - 21.0).abs() < 1e-9);
        // #777 on white, WebAIM's example of a grey just under AA.
        assert!((contrast_ratio([0x77; 3], [255; 3]) - 4.48).abs() < 0.01);
        assert!((contrast_ratio([0x42; 3], [0x42; 3]) - 1.0).abs() < 1e-12);
        assert!(relative_luminance([0; 3]).abs() < 1e-12);
        assert!((relative_luminance([255; 3]) - 1.0).abs() < 1e-12);
    }
}
