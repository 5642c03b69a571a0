//! A thread with a large stack for a search: df-pn recurses once per ply, and Go lines under
//! positional superko run to hundreds of plies, deeper than a default 2 MiB thread stack
//! holds. A stack is virtual memory: only the pages a search touches become resident.

/// Why [`run_with_stack`] returned no result.
#[derive(Debug, thiserror::Error)]
pub enum StackThreadError {
    /// The system refused the thread or its stack (e.g. under `ulimit -v`).
    #[error("cannot start a thread with a {} MiB stack: {source}", .stack_bytes >> 20)]
    Spawn {
        /// The stack asked for, in bytes.
        stack_bytes: usize,
        /// The system's error.
        source: std::io::Error,
    },
    /// The work panicked (its message was printed by the panic hook).
    #[error("the thread panicked")]
    Panicked,
}

/// Runs `work` on a thread named `name` with a stack of `stack_bytes` and returns its
/// result, joining the thread before it returns (so `work` may borrow from the caller).
///
/// # Errors
/// [`StackThreadError::Spawn`] when the thread cannot be started,
/// [`StackThreadError::Panicked`] when `work` panicked.
///
/// # Examples
/// ```
/// let sum = gosolve::stack::run_with_stack("sum", 64 << 20, || (0..1000u32).sum::<u32>());
/// assert_eq!(sum.unwrap(), 499_500);
/// ```
pub fn run_with_stack<T: Send>(
    name: &str,
    stack_bytes: usize,
    work: impl FnOnce() -> T + Send,
) -> Result<T, StackThreadError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(stack_bytes)
            .spawn_scoped(scope, work)
            .map_err(|source| StackThreadError::Spawn {
                stack_bytes,
                source,
            })?
            .join()
            .map_err(|_| StackThreadError::Panicked)
    })
}
