//! A TCP proxy for benchmarks: 127.0.0.1:PORT forwarded to a server on 127.0.0.1, the bytes
//! of both directions of every connection sharing one [`Link`] of capped bandwidth, and each
//! new connection answered after a delay (a link to a cloud region, in front of a local
//! server such as moto's S3). It runs until the process ends.

use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::link::Link;

/// A running proxy.
pub struct ThrottleProxy {
    port: u16,
    shared: Arc<Shared>,
}

struct Shared {
    link: Link,
    rate: u64,
    /// Bytes sent to the server (uploads) and to the clients (downloads).
    up: AtomicU64,
    down: AtomicU64,
}

impl ThrottleProxy {
    /// Forwards a free port to `target` (a port of 127.0.0.1): `rate` bytes a second over
    /// both directions of all connections, each connection opened after `delay`.
    pub fn start(target: u16, rate: u64, delay: Duration) -> ThrottleProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("bound").port();
        let shared = Arc::new(Shared {
            link: Link::default(),
            rate,
            up: AtomicU64::new(0),
            down: AtomicU64::new(0),
        });
        let accepting = shared.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let shared = accepting.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(delay);
                    if let Ok(server) = TcpStream::connect(("127.0.0.1", target)) {
                        forward(client, server, shared);
                    }
                });
            }
        });
        ThrottleProxy { port, shared }
    }

    /// The address to reach the server through, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Bytes sent to the server so far.
    pub fn bytes_up(&self) -> u64 {
        self.shared.up.load(Ordering::SeqCst)
    }
}

/// Pumps both directions until either side closes.
fn forward(client: TcpStream, server: TcpStream, shared: Arc<Shared>) {
    let (Ok(client2), Ok(server2)) = (client.try_clone(), server.try_clone()) else { return };
    let back = shared.clone();
    let down = std::thread::spawn(move || pump(server2, client2, &back, false));
    pump(client, server, &shared, true);
    let _ = down.join();
}

/// Copies `from` to `to` through the link until `from` ends.
fn pump(mut from: TcpStream, mut to: TcpStream, shared: &Shared, up: bool) {
    use std::io::Read;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if shared.link.send(&mut to, &buf[..n], shared.rate).is_err() {
            break;
        }
        let counter = if up { &shared.up } else { &shared.down };
        counter.fetch_add(n as u64, Ordering::SeqCst);
    }
    let _ = to.shutdown(Shutdown::Write);
}
