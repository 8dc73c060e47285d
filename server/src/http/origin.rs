//! Cross-site request forgery: a state-changing request (`POST`, `PUT`, `PATCH`, `DELETE`) that a browser sends
//! from another site's page is refused with 403 before any handler sees it. Browsers say where a request comes
//! from in `Sec-Fetch-Site` (every current one) or `Origin`; a request with neither comes from a client that is
//! not a browser, which no other site can make send anything, so it passes.

use axum::extract::Request;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The middleware: passes safe methods and same-origin requests on, answers cross-site ones 403
/// `cross_site_request`.
pub async fn same_origin_only(req: Request, next: Next) -> Response {
    if changes_state(req.method()) && !same_origin(req.headers()) {
        return ApiError {
            status: StatusCode::FORBIDDEN,
            code: "cross_site_request",
            message: "requests from other sites may not change anything here".to_owned(),
        }
        .into_response();
    }
    next.run(req).await
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
    fn only_state_changing_methods_are_checked() {
        for m in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
            assert!(changes_state(&m), "{m}");
        }
        for m in [Method::GET, Method::HEAD, Method::OPTIONS] {
            assert!(!changes_state(&m), "{m}");
        }
    }
}
