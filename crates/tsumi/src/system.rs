//! Readings of this process and its machine (Linux `/proc`; neutral values elsewhere): the
//! memory available for a table, the virtual-memory limit, resident memory and CPU time.

/// The memory a table may take, in bytes: `MemAvailable` of /proc/meminfo (Linux), and
/// under a virtual-memory limit (`ulimit -v`, as clusters set) at most half of the limit
/// (the rest is for the thread stacks, reserved whole, and the program); `None` if neither
/// is known.
#[must_use]
pub fn available_memory_bytes() -> Option<u64> {
    let free = proc_kib_field("/proc/meminfo", "MemAvailable:");
    match (free, address_space_limit_bytes()) {
        (Some(f), Some(l)) => Some(f.min(l / 2)),
        (f, l) => f.or(l.map(|l| l / 2)),
    }
}

/// The soft limit of the process's virtual memory (`ulimit -v`, `RLIMIT_AS`) in bytes, from
/// /proc/self/limits; `None` when unlimited or unknown.
#[must_use]
pub fn address_space_limit_bytes() -> Option<u64> {
    std::fs::read_to_string("/proc/self/limits")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
}

/// Resident set size of this process and its peak, in bytes (Linux; zeros elsewhere).
#[must_use]
pub fn resident_memory() -> (u64, u64) {
    let field = |name| proc_kib_field("/proc/self/status", name).unwrap_or(0);
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU time of this process (user and system, all threads), in seconds (Linux; 0 elsewhere).
#[must_use]
pub fn cpu_seconds() -> f64 {
    // Fields 14 and 15 of /proc/self/stat, in clock ticks of 1/100 s (USER_HZ); the command
    // name (field 2) may hold spaces, so count from its closing parenthesis.
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) as f64 / 100.0
}

/// A "Name: N kB" line of a /proc file, in bytes (Linux), or `None`.
fn proc_kib_field(path: &str, name: &str) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}
