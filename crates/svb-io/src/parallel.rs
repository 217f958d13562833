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
    mut tasks: Vec<T>,
    size_and_order: impl Fn(&T) -> (usize, usize),
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
