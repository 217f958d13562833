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
    items: &[T],
    encode: impl Fn(&T) -> Result<R, E> + Sync,
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
