//! "Did you mean": the known name a mistyped one most likely meant, by edit
//! distance; the one rule for every such hint (unknown request fields, builder
//! input members).

/// The name among `names` that `key` most likely meant (at most two edits away), for
/// "did you mean" hints; the one rule for them. ASCII letter case counts least: `customerIP`
/// means `customerIp`, not `customerId`.
pub(crate) fn closest<'a>(key: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let folded = key.to_ascii_lowercase();
    names
        .map(|name| (edit_distance(&folded, &name.to_ascii_lowercase()), edit_distance(key, name), name))
        .min()
        .filter(|(distance, _, _)| *distance <= 2)
        .map(|(_, _, name)| name)
}

/// Levenshtein distance in characters, for "did you mean" hints: one row of
/// the table at a time, `row[j]` the distance of what of `a` is read so far to
/// the first `j` characters of `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let mut row: Vec<usize> = (0..=b.chars().count()).collect();
    for (i, ca) in a.chars().enumerate() {
        // The distance of one character less of `a` to the first j characters of `b`.
        let mut diagonal = i;
        row[0] = i + 1;
        for (j, cb) in b.chars().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[row.len() - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-row Levenshtein distance is the full table's.
    #[test]
    fn edit_distance_is_the_full_tables() {
        fn full_table(a: &str, b: &str) -> usize {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let mut table = vec![vec![0; b.len() + 1]; a.len() + 1];
            for (i, row) in table.iter_mut().enumerate() {
                row[0] = i;
            }
            table[0] = (0..=b.len()).collect();
            for i in 1..=a.len() {
                for j in 1..=b.len() {
                    let substitution = table[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                    table[i][j] = substitution.min(table[i - 1][j] + 1).min(table[i][j - 1] + 1);
                }
            }
            table[a.len()][b.len()]
        }
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "amount",
            "amout",
            "customerIp",
            "customerIP",
            "payment_id",
            "paymentid",
            "é",
            "éa",
            "ИВАН",
            "иван",
        ];
        for a in words {
            for b in words {
                assert_eq!(edit_distance(a, b), full_table(a, b), "{a} {b}");
            }
        }
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("amout", "amount"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
