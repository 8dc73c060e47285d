//! Cross-site request forgery: a state-changing request (`POST`, `PUT`, `PATCH`, `DELETE`) that a browser sends
//! from another site's page is refused with 403 before any handler sees it. Browsers say where a request comes
//! from in `Sec-Fetch-Site` (every current one) or `Origin`; a request with neither comes from a client that is
//! not a browser, which no other site can make send anything, so it passes.
//!
//! The same test keeps other sites' pages off the WebSocket (`cross_site_socket`): a socket opened by a page
//! of another site would spend its visitor's budgets (new guests, sockets per address) for that site (#35).

use axum::extract::Request;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The middleware: passes safe methods and same-origin requests on, answers cross-site ones 403
/// `cross_site_request`.
pub async fn same_origin_only(req: Request, next: Next) -> Response {
    if changes_state(req.method()) && !same_origin(req.headers()) {
        return cross_site("requests from other sites may not change anything here");
    }
    next.run(req).await
}

/// The refusal of a WebSocket upgrade that a page of another site asked for (403 `cross_site_request`), or
/// `None` when the upgrade comes from this site's pages or from a client that is not a browser (no `Origin`, no
/// `Sec-Fetch-Site`: bots, tests, the load generator). Browsers always say where a socket's page comes from.
pub(crate) fn cross_site_socket(headers: &HeaderMap) -> Option<Response> {
    (!same_origin(headers))
        .then(|| cross_site("pages of other sites may not open sockets to this server"))
}

fn cross_site(message: &str) -> Response {
    ApiError {
        status: StatusCode::FORBIDDEN,
        code: "cross_site_request",
        message: message.to_owned(),
    }
    .into_response()
}

fn changes_state(method: &Method) -> bool {
    !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

/// Whether the browser (if it is one) says the request comes from this site's own pages. `same-site` is refused
/// too: a sibling subdomain is not necessarily ours.
fn same_origin(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        // `none`: the user did it (typed the address, a bookmark), no page did.
        return site == "same-origin" || site == "none";
    }
    origin_is_host(headers)
}

/// Whether a request's `Origin`, when it has one, names the host the request was sent to (no `Origin`: not a
/// page's request, so nothing to compare). Also the check of WebSocket upgrades that carry a session cookie.
pub(crate) fn origin_is_host(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    // `Origin: null` (sandboxed frames, some redirects) names no site, so it is not ours either.
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    match (origin_host, host) {
        (Some(o), Some(h)) => o.eq_ignore_ascii_case(h.trim()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn sec_fetch_site_decides_when_present() {
        assert!(same_origin(&headers(&[("sec-fetch-site", "same-origin")])));
        assert!(same_origin(&headers(&[("sec-fetch-site", "none")])));
        assert!(!same_origin(&headers(&[("sec-fetch-site", "cross-site")])));
        assert!(!same_origin(&headers(&[("sec-fetch-site", "same-site")])));
        // It wins over an Origin that would match.
        assert!(!same_origin(&headers(&[
            ("sec-fetch-site", "cross-site"),
            ("origin", "http://game.test"),
            ("host", "game.test"),
        ])));
    }

    #[test]
    fn without_sec_fetch_site_the_origin_must_name_the_host() {
        let h = |o: &str| headers(&[("origin", o), ("host", "game.test:8080")]);
        assert!(same_origin(&h("http://game.test:8080")));
        assert!(same_origin(&h("https://GAME.test:8080")));
        assert!(!same_origin(&h("https://evil.test")));
        assert!(!same_origin(&h("http://game.test")));
        assert!(!same_origin(&h("null")));
        assert!(!same_origin(&headers(&[("origin", "http://game.test")])));
    }

    #[test]
    fn a_request_without_either_header_is_not_from_a_browser_page_and_passes() {
        assert!(same_origin(&headers(&[("host", "game.test")])));
    }

    #[test]
    fn a_socket_is_refused_only_to_another_sites_page() {
        let h = |pairs: &[(&'static str, &str)]| {
            let mut all = vec![("host", "game.test")];
            all.extend_from_slice(pairs);
            cross_site_socket(&headers(&all)).map(|r| r.status())
        };
        assert_eq!(h(&[]), None, "not a browser");
        assert_eq!(h(&[("origin", "http://game.test")]), None);
        assert_eq!(h(&[("sec-fetch-site", "same-origin")]), None);
        for foreign in [
            vec![("origin", "https://evil.test")],
            vec![("origin", "null")],
            vec![
                ("sec-fetch-site", "cross-site"),
                ("origin", "https://evil.test"),
            ],
        ] {
            assert_eq!(h(&foreign), Some(StatusCode::FORBIDDEN), "{foreign:?}");
        }
    }

    #[test]
    fn only_state_changing_methods_are_checked() {
        for m in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
            assert!(changes_state(&m), "{m}");
        }
        for m in [Method::GET, Method::HEAD, Method::OPTIONS] {
            assert!(!changes_state(&m), "{m}");
        }
    }
}
