//! Work on rayon shared by the readers and writers: which pool runs it ([`Threads`]), tasks
//! of unequal size spread over the workers largest first ([`run_largest_first`]), and
//! [`encode_in_order`](crate::encode_in_order).

/// How a batch decode finds its threads: the current rayon pool (the global one unless a
/// pool's `install` is running) or a given pool.
#[derive(Clone, Copy, Debug, Default)]
pub enum Threads<'p> {
    /// The current rayon pool.
    #[default]
    Current,
    /// This pool.
    Pool(&'p rayon::ThreadPool),
}

impl Threads<'_> {
    /// Runs `f` on these threads: in the given pool, or on the calling thread's current pool.
    pub fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Threads::Current => f(),
            Threads::Pool(p) => p.install(f),
        }
    }
}

/// Runs `work` on every task on the current rayon pool, largest first (`size_and_order`
/// gives a task's size and its place in the batch), each worker taking the next task as it
/// frees up, so unequal tasks still share the cores evenly. Returns the error of the first
/// failing task in batch order, the same on every run.
pub fn run_largest_first<T: Send, E: Send>(
    mut tasks: Vec<T>, size_and_order: impl Fn(&T) -> (usize, usize),
    work: impl Fn(T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let workers = rayon::current_num_threads().min(tasks.len());
    if workers <= 1 {
        // In batch order, so the first error is the first failing task's.
        return tasks.into_iter().try_for_each(work);
    }
    tasks.sort_by_key(|t| core::cmp::Reverse(size_and_order(t).0));
    let order: Vec<usize> = tasks.iter().map(|t| size_and_order(t).1).collect();
    let queue = std::sync::Mutex::new(tasks.into_iter().zip(order).rev().collect::<Vec<_>>());
    let failed = std::sync::Mutex::new(None::<(usize, E)>);
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let Some((task, at)) = next else { break };
                if let Err(e) = work(task) {
                    let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
                    if f.as_ref().is_none_or(|(first, _)| at < *first) {
                        *f = Some((at, e));
                    }
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// The end of the window of items that starts at `start` (of `len`): at most `max_items`
/// items, and, counting `size(i)` of each, at most `max_size` in all, but always at least one
/// item (a single item larger than `max_size` is a window of its own). The one rule every
/// reader, converter and front end cuts its batches of reads by, so that memory holds a
/// window whatever the file's size.
///
/// ```
/// let sizes = [3u64, 3, 3, 10, 1, 1];
/// let ends: Vec<usize> = std::iter::successors(Some(0), |&s| {
///     (s < sizes.len()).then(|| svb_io::window_end(s, sizes.len(), usize::MAX, 6, |i| sizes[i]))
/// })
/// .skip(1)
/// .collect();
/// assert_eq!(ends, [2, 3, 4, 6]);
/// ```
pub fn window_end(
    start: usize, len: usize, max_items: usize, max_size: u64, size: impl Fn(usize) -> u64,
) -> usize {
    let last = len.min(start.saturating_add(max_items.max(1)));
    let mut total = 0u64;
    let mut end = start;
    while end < last {
        total = total.saturating_add(size(end));
        if end > start && total > max_size {
            break;
        }
        end += 1;
    }
    end
}

/// The consecutive windows of `0..len` by [`window_end`].
///
/// ```
/// let w = svb_io::windows(5, usize::MAX, 10, |_| 4);
/// assert_eq!(w, [0..2, 2..4, 4..5]);
/// ```
pub fn windows(
    len: usize, max_items: usize, max_size: u64, size: impl Fn(usize) -> u64,
) -> Vec<core::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < len {
        let end = window_end(start, len, max_items, max_size, &size);
        out.push(start..end);
        start = end;
    }
    out
}

/// Takes items from `next` and hands them to `consume` in order, making item k+1 (on the
/// current rayon pool) while item k is consumed: a decode overlapping the write of what was
/// decoded before it, with two items in memory at most. Stops at the first error of either.
///
/// ```
/// let mut items = (1..=4).map(|i| i * 10);
/// let mut seen = Vec::new();
/// svb_io::pipeline(|| Ok::<_, String>(items.next()), |x| {
///     seen.push(x);
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!(seen, [10, 20, 30, 40]);
/// ```
pub fn pipeline<T: Send, E: Send>(
    mut next: impl FnMut() -> Result<Option<T>, E> + Send,
    mut consume: impl FnMut(T) -> Result<(), E> + Send,
) -> Result<(), E> {
    let mut pending = next()?;
    while let Some(item) = pending {
        let (made, consumed) = rayon::join(&mut next, || consume(item));
        consumed?;
        pending = made?;
    }
    Ok(())
}

/// Buffers that go round a [`pipeline`]: the step that makes an item takes one
/// ([`take`](Recycler::take)), the step that consumes it hands it back
/// ([`give`](Recycler::give)), so that once the first two items are made, items are made in
/// memory already allocated (and already paged in) instead of fresh allocations.
///
/// ```
/// let buffers = svb_io::Recycler::<Vec<u8>>::default();
/// let mut b = buffers.take();
/// b.extend_from_slice(b"first item");
/// let capacity = b.capacity();
/// b.clear();
/// buffers.give(b);
/// assert_eq!(buffers.take().capacity(), capacity);
/// ```
#[derive(Debug, Default)]
pub struct Recycler<T> {
    free: std::sync::Mutex<Vec<T>>,
}

impl<T: Default> Recycler<T> {
    /// A buffer handed back before, or a new one.
    pub fn take(&self) -> T {
        self.free().pop().unwrap_or_default()
    }

    /// Hands `buffer` back for a later [`take`](Recycler::take).
    pub fn give(&self, buffer: T) {
        self.free().push(buffer);
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<T>> {
        // A panic elsewhere leaves the list of buffers as valid as it was.
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What the threads of the current pool keep, together, of each kind of scratch buffer
/// between uses ([`keep_per_thread`]).
const KEPT_BY_ALL: usize = 64 << 20;

/// The most bytes one thread keeps of a scratch buffer between uses (a record's inflated
/// bytes, a positioned read, a read's samples): 64 MiB shared among the current rayon pool's
/// threads, 1 MiB each at least. What the threads keep is then bounded however many there
/// are: 16 threads each keeping the buffers of the last 2-million-sample read they decoded
/// held 300 MB. A larger buffer is freed after its use and made again for the next.
///
/// ```
/// assert!(svb_io::keep_per_thread() >= 1 << 20);
/// ```
pub fn keep_per_thread() -> usize {
    (KEPT_BY_ALL / rayon::current_num_threads().max(1)).max(1 << 20)
}

/// Runs `f` on this thread's scratch buffer `key` (a `thread_local!` `RefCell<Vec<T>>`), then
/// frees its allocation when it grew past what a thread keeps ([`trim_scratch`]).
///
/// ```
/// std::thread_local! {
///     static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
/// }
/// let n = svb_io::with_scratch(&SCRATCH, |buf| {
///     buf.clear();
///     buf.extend_from_slice(b"abc");
///     buf.len()
/// });
/// assert_eq!(n, 3);
/// ```
pub fn with_scratch<T: 'static, R>(
    key: &'static std::thread::LocalKey<std::cell::RefCell<Vec<T>>>,
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    key.with_borrow_mut(|buf| {
        let r = f(buf);
        trim_scratch(buf);
        r
    })
}

/// Frees `buf`'s allocation when it is larger than a thread keeps between uses
/// ([`keep_per_thread`]): what a thread-local scratch buffer is given after each use.
///
/// ```
/// let mut buf = vec![0u8; 512 << 20];
/// svb_io::trim_scratch(&mut buf);
/// assert_eq!(buf.capacity(), 0);
/// let mut small = vec![0u8; 1000];
/// svb_io::trim_scratch(&mut small);
/// assert_eq!(small.len(), 1000);
/// ```
pub fn trim_scratch<T>(buf: &mut Vec<T>) {
    if buf.capacity().saturating_mul(std::mem::size_of::<T>()) > keep_per_thread() {
        *buf = Vec::new();
    }
}
