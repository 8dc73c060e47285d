//! Session tokens on the wire: 256 random bits, sent back by browsers in an `HttpOnly` cookie and by other
//! clients as a bearer token (or in the WebSocket `hello`). The store keeps only their SHA-256.

use std::time::Duration;

use axum::http::{header, HeaderMap, HeaderValue};

/// The session cookie's name.
pub const COOKIE_NAME: &str = "gomoku_session";

/// A fresh session token: 256 bits from the operating system's generator, URL-safe base64 (43 characters).
pub fn new_token() -> String {
    crate::identity::new_token()
}

/// The only form in which a token is stored. The same function as the WebSocket `hello` uses, so a login
/// token resumes there too.
pub fn hash(token: &str) -> Vec<u8> {
    crate::identity::hash_token(token)
}

/// The session token a request carries: `Authorization: Bearer …` first (an explicit choice beats an
/// ambient cookie), else the session cookie.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    bearer(headers).or_else(|| cookie(headers))
}

/// The session token of a WebSocket upgrade request. A bearer token counts as it is (a browser page cannot set
/// headers on a WebSocket, so it comes from a deliberate client). The cookie counts only when the request comes
/// from this site's own pages (`Origin` absent, as from non-browser clients, or naming the `Host` asked for):
/// browsers send cookies on WebSocket handshakes that other sites' pages start, and `SameSite=Lax` does not stop
/// a sibling subdomain, so without this check any such page could play under the visitor's account.
pub fn for_upgrade(headers: &HeaderMap) -> Option<String> {
    bearer(headers).or_else(|| {
        if crate::http::origin::origin_is_host(headers) {
            cookie(headers)
        } else {
            None
        }
    })
}

/// The token of an `Authorization: Bearer …` header, if it carries a plausible one.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && plausible(token)).then(|| token.to_owned())
}

/// The token of the session cookie, if the request carries a plausible one.
pub fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.trim_matches('"').to_owned())
        .filter(|t| plausible(t))
}

/// Whether the request carries a session cookie at all, plausible or not (whether there is one to clear).
pub fn has_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, _)| name == COOKIE_NAME)
}

/// Whether the request reached the site over HTTPS, as a TLS-terminating proxy says (`X-Forwarded-Proto: https`
/// or `Forwarded: …proto=https`) or the browser's `Origin` shows. Trusting these headers is safe for this one
/// purpose: they can only make the cookie stricter (`Secure`), and a client that lies gets a cookie its own
/// plain-HTTP connection will not send back.
pub fn over_https(headers: &HeaderMap) -> bool {
    let text = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_ascii_lowercase)
            .collect::<Vec<_>>()
    };
    let forwarded_proto = text(header::HeaderName::from_static("x-forwarded-proto"))
        .iter()
        .flat_map(|v| {
            v.split(',')
                .map(str::trim)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .any(|proto| proto == "https");
    let forwarded = text(header::FORWARDED).iter().any(|v| {
        v.split([';', ','])
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(k, v)| k.trim() == "proto" && v.trim().trim_matches('"') == "https")
    });
    let origin = text(header::ORIGIN)
        .iter()
        .any(|o| o.starts_with("https://"));
    forwarded_proto || forwarded || origin
}

/// Tokens we issue are short URL-safe base64; anything else is not worth a database look-up.
fn plausible(token: &str) -> bool {
    (16..=128).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The `Set-Cookie` value that hands a session to a browser: not readable by scripts (`HttpOnly`), not sent
/// on cross-site subrequests or form posts (`SameSite=Lax`), for the whole site, expiring with the session.
/// `secure` adds `Secure` (set it when the server is reached over HTTPS).
pub fn set_cookie(token: &str, max_age: Duration, secure: bool) -> HeaderValue {
    cookie_header(token, max_age.as_secs(), secure)
}

/// The `Set-Cookie` value that makes a browser forget its session.
pub fn clear_cookie(secure: bool) -> HeaderValue {
    cookie_header("", 0, secure)
}

fn cookie_header(value: &str, max_age_secs: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = format!(
        "{COOKIE_NAME}={value}; Path=/; Max-Age={max_age_secs}; HttpOnly; SameSite=Lax{secure}"
    );
    // Tokens are URL-safe base64, so the text is always a valid header value.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn a_token_has_256_bits_and_is_url_safe() {
        let token = new_token();
        assert_eq!(token.len(), 43);
        assert!(plausible(&token));
        assert_ne!(token, new_token());
        assert_eq!(hash(&token).len(), 32);
    }

    #[test]
    fn a_bearer_token_is_read_and_wins_over_the_cookie() {
        let t1 = new_token();
        let t2 = new_token();
        let h = headers(&[
            (header::AUTHORIZATION, &format!("Bearer {t1}")),
            (header::COOKIE, &format!("{COOKIE_NAME}={t2}")),
        ]);
        assert_eq!(from_headers(&h), Some(t1.clone()));
        let h = headers(&[(header::AUTHORIZATION, &format!("bearer  {t1} "))]);
        assert_eq!(from_headers(&h), Some(t1));
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let t = new_token();
        let h = headers(&[
            (header::COOKIE, "theme=dark"),
            (header::COOKIE, &format!("lang=en; {COOKIE_NAME}={t}; x=y")),
        ]);
        assert_eq!(from_headers(&h), Some(t));
    }

    #[test]
    fn junk_is_no_token() {
        for value in [
            "Basic abc:def",
            "Bearer",
            "Bearer short",
            "Bearer has space inside",
        ] {
            let h = headers(&[(header::AUTHORIZATION, value)]);
            assert_eq!(from_headers(&h), None, "{value}");
        }
        let h = headers(&[(header::COOKIE, &format!("{COOKIE_NAME}=a;b"))]);
        assert_eq!(from_headers(&h), None);
        assert_eq!(from_headers(&HeaderMap::new()), None);
    }

    #[test]
    fn an_upgrade_takes_the_cookie_only_from_its_own_site() {
        let t = new_token();
        let cookie = format!("{COOKIE_NAME}={t}");
        let own = headers(&[
            (header::HOST, "play.example.org:8080"),
            (header::ORIGIN, "http://play.example.org:8080"),
            (header::COOKIE, &cookie),
        ]);
        assert_eq!(for_upgrade(&own), Some(t.clone()));
        let no_origin = headers(&[(header::HOST, "h"), (header::COOKIE, &cookie)]);
        assert_eq!(
            for_upgrade(&no_origin),
            Some(t.clone()),
            "a non-browser client"
        );
        for origin in [
            "https://evil.example.org",
            "http://example.org:8080",
            "null",
        ] {
            let foreign = headers(&[
                (header::HOST, "play.example.org:8080"),
                (header::ORIGIN, origin),
                (header::COOKIE, &cookie),
            ]);
            assert_eq!(for_upgrade(&foreign), None, "{origin}");
        }
        let bearer = headers(&[
            (header::HOST, "play.example.org"),
            (header::ORIGIN, "https://elsewhere.example"),
            (header::AUTHORIZATION, &format!("Bearer {t}")),
        ]);
        assert_eq!(
            for_upgrade(&bearer),
            Some(t),
            "a bearer token is deliberate"
        );
    }

    #[test]
    fn https_is_recognised_from_the_proxy_or_the_origin() {
        for (name, value) in [
            (
                header::HeaderName::from_static("x-forwarded-proto"),
                "https",
            ),
            (
                header::HeaderName::from_static("x-forwarded-proto"),
                "HTTPS, http",
            ),
            (
                header::FORWARDED,
                "for=192.0.2.60;proto=https;by=203.0.113.43",
            ),
            (header::FORWARDED, "for=\"[2001:db8::1]\"; proto=\"https\""),
            (header::ORIGIN, "https://play.example.org"),
        ] {
            assert!(over_https(&headers(&[(name, value)])), "{value}");
        }
        for (name, value) in [
            (header::HeaderName::from_static("x-forwarded-proto"), "http"),
            (header::FORWARDED, "for=192.0.2.60;proto=http"),
            (header::ORIGIN, "http://play.example.org"),
            (header::HOST, "https"),
        ] {
            assert!(!over_https(&headers(&[(name, value)])), "{value}");
        }
        assert!(!over_https(&HeaderMap::new()));
    }

    #[test]
    fn a_cookie_to_clear_is_seen_even_when_its_value_is_junk() {
        let h = headers(&[(header::COOKIE, &format!("x=1; {COOKIE_NAME}=a;b"))]);
        assert!(has_cookie(&h));
        assert_eq!(cookie(&h), None);
        assert!(!has_cookie(&headers(&[(header::COOKIE, "x=1")])));
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_expires_with_the_session() {
        let v = set_cookie("tok", Duration::from_secs(30 * 86_400), false);
        assert_eq!(
            v,
            "gomoku_session=tok; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"
        );
        let v = set_cookie("tok", Duration::from_secs(60), true);
        assert!(v.to_str().unwrap().ends_with("; Secure"));
        assert_eq!(
            clear_cookie(false),
            "gomoku_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
        );
    }
}
