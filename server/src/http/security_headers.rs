//! Headers every response carries so a browser holds the page to what it is: a Content-Security-Policy that
//! lets the web client load only its own scripts, styles and sockets (it has no inline script, style or handler)
//! and no site frame it, `nosniff`, no referrer sent elsewhere, and HSTS when the site is served over HTTPS.
//! The browser test `e2e/browser/csp.test.js` checks the client runs under this policy without a violation.

use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use super::client_addr::ClientAddr;

/// The policy: everything from this origin only (`'self'` includes its `ws:`/`wss:` socket), nothing inline,
/// no plugins, no `<base>` tricks, forms only to here, and no framing by anyone.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
frame-ancestors 'none'";

/// HSTS: a year, this host only (subdomains may be other people's).
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// The middleware's state: whether the site is served over HTTPS anyway (`--secure-cookies`).
#[derive(Clone, Copy, Debug)]
pub struct Https(pub bool);

/// The middleware: adds the headers to every response (a handler's own value wins).
pub async fn add(State(Https(always)): State<Https>, req: Request, next: Next) -> Response {
    // A trusted proxy's `X-Forwarded-Proto: https` says this request came over TLS.
    let https = always || ClientAddr::of(req.extensions()).is_some_and(|c| c.https);
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: &'static str| {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    // For browsers older than `frame-ancestors`.
    set(header::X_FRAME_OPTIONS, "DENY");
    set(header::REFERRER_POLICY, "same-origin");
    if https {
        set(header::STRICT_TRANSPORT_SECURITY, STRICT_TRANSPORT_SECURITY);
    }
    response
}
