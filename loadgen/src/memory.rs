//! The server's memory, read from `/proc` (the server runs on the same machine), and finding the server's process
//! from the port it listens on.

use std::fs;

/// Resident memory of a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rss {
    /// Resident now, KiB (`VmRSS`).
    pub rss_kib: u64,
    /// Highest resident so far, KiB (`VmHWM`).
    pub hwm_kib: u64,
}

/// Reads `/proc/PID/status`; `None` when the process is gone or the file unreadable.
pub fn rss(pid: u32) -> Option<Rss> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_status(&status)
}

fn parse_status(status: &str) -> Option<Rss> {
    let field = |name: &str| {
        status.lines().find_map(|l| {
            l.strip_prefix(name)?
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
    };
    Some(Rss {
        rss_kib: field("VmRSS:")?,
        hwm_kib: field("VmHWM:")?,
    })
}

/// The process listening on TCP `port` on this machine: the socket's inode from `/proc/net/tcp{,6}`, then the
/// process holding a descriptor to it. Needs permission to read other processes' `fd` folders (same user).
pub fn find_listener(port: u16) -> Option<u32> {
    let inode = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .find_map(|table| listening_inode(&table, port))?;
    let wanted = format!("socket:[{inode}]");
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(fds) = fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if fs::read_link(fd.path()).is_ok_and(|l| l.to_string_lossy() == wanted) {
                return Some(pid);
            }
        }
    }
    None
}

/// The inode of the socket listening on `port` in a `/proc/net/tcp` table (state `0A` is LISTEN).
fn listening_inode(table: &str, port: u16) -> Option<u64> {
    let want = format!("{port:04X}");
    table.lines().skip(1).find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let local_port = cols.get(1)?.rsplit(':').next()?;
        if local_port == want && *cols.get(3)? == "0A" {
            cols.get(9)?.parse().ok()
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_fields_are_read_in_kib() {
        let s = "Name:\tserver\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t3\n";
        assert_eq!(
            parse_status(s),
            Some(Rss {
                rss_kib: 102_400,
                hwm_kib: 204_800
            })
        );
    }

    #[test]
    fn our_own_memory_is_readable() {
        let me = rss(std::process::id()).unwrap();
        assert!(me.rss_kib > 0 && me.hwm_kib >= me.rss_kib);
    }

    #[test]
    fn a_listening_socket_leads_to_its_process() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        assert_eq!(find_listener(port), Some(std::process::id()));
    }

    #[test]
    fn only_listening_sockets_count() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1\n   1: 0100007F:1F91 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4343 1\n";
        assert_eq!(listening_inode(table, 8080), Some(4242));
        assert_eq!(listening_inode(table, 8081), None);
    }
}
