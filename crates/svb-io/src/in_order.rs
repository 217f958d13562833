//! [`encode_in_order`]: items encoded on rayon's pool and consumed in their order as they
//! complete, so that a writer's output overlaps its compression.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Encodes every item of `items` with `encode` on rayon's current pool and passes the results
/// to `consume` in the items' order, on a thread of its own, while later items still encode.
///
/// Workers take items in order (one shared counter), so results arrive nearly in order and
/// the few that arrive early wait in a small reorder buffer: memory holds about one result
/// per worker beyond what `consume` has taken. The first error, of `encode` or of `consume`,
/// stops the work and is returned (an error of an earlier item wins over a later one).
///
/// ```
/// let words = ["alpha", "beta", "gamma", "delta"];
/// let mut out = String::new();
/// svb_io::encode_in_order(
///     &words,
///     |w| Ok::<_, String>(w.to_uppercase()),
///     |s| {
///         out.push_str(&s);
///         Ok(())
///     },
/// )
/// .unwrap();
/// assert_eq!(out, "ALPHABETAGAMMADELTA");
/// ```
pub fn encode_in_order<T, R, E>(
    items: &[T], encode: impl Fn(&T) -> Result<R, E> + Sync,
    mut consume: impl FnMut(R) -> Result<(), E> + Send,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
    E: Send,
{
    if items.is_empty() {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<R, E>)>();
    std::thread::scope(|s| {
        // The consumer: a thread of its own, so that it runs while every worker encodes
        // (and never waits for a worker slot of a busy pool).
        let consumer = s.spawn(move || {
            let mut early = BTreeMap::new();
            let mut want = 0;
            for (i, r) in rx {
                early.insert(i, r);
                while let Some(r) = early.remove(&want) {
                    consume(r?)?;
                    want += 1;
                }
            }
            Ok(())
        });
        let (encode, next) = (&encode, &next);
        rayon::scope(|rs| {
            for _ in 0..rayon::current_num_threads().min(items.len()) {
                let tx = tx.clone();
                rs.spawn(move |_| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    // A consumer gone (an error) stops the workers.
                    if tx.send((i, encode(item))).is_err() {
                        break;
                    }
                });
            }
        });
        drop(tx);
        consumer.join().expect("the consumer does not panic")
    })
}

#[cfg(test)]
mod tests {
    use super::encode_in_order;

    #[test]
    fn results_arrive_in_order_whatever_each_item_costs() {
        let items: Vec<u64> = (0..500).collect();
        let mut seen = Vec::new();
        encode_in_order(
            &items,
            |&i| {
                // Uneven work: later items often finish first.
                let spins = (i * 7919) % 5000;
                let mut x = i;
                for _ in 0..spins {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
                Ok::<_, String>((i, x))
            },
            |(i, _)| {
                seen.push(i);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, items);
    }

    #[test]
    fn the_first_error_stops_the_work() {
        let items: Vec<u32> = (0..10_000).collect();
        let mut consumed = 0;
        let e = encode_in_order(
            &items,
            |&i| {
                if i == 300 {
                    Err(format!("item {i}"))
                } else {
                    Ok(i)
                }
            },
            |i| {
                assert_eq!(i, consumed);
                consumed += 1;
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(e, "item 300");
        assert_eq!(consumed, 300);

        let e = encode_in_order(
            &items,
            |&i| Ok(i),
            |i| {
                if i == 42 {
                    Err(format!("write {i}"))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(e, "write 42");
        assert_eq!(encode_in_order(&[] as &[u8], |_| Ok::<u8, ()>(0), |_| Ok(())), Ok(()));
    }
}
