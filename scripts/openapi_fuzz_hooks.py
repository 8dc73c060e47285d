"""Schemathesis hooks for scripts/openapi-fuzz.sh (issue #37).

`schema_valid_requests_accepted` stands in for schemathesis's own `positive_data_acceptance` (which the script
turns off): a request the OpenAPI document calls valid must not be refused with 400, except for the few refusals
that no JSON Schema can state, each listed here by operation with its reason. Any other 400 to a schema-valid request
(`invalid_query`, `invalid_body`, `unknown_pool`, `unknown_format`, a `.psq` header or size, …) fails the run: the
document would be promising what the server refuses.
"""

import json
import os

import schemathesis

# The signed-in account's session (scripts/openapi-fuzz.sh registers it), sent with every request but those that
# would end it: the session-bound operations are then fuzzed, not only refused.
_TOKEN = os.environ.get("OPENAPI_FUZZ_TOKEN")
_ENDS_SESSION = {"/api/logout", "/api/logout/everywhere"}


@schemathesis.hook
def before_call(context, case, kwargs):
    if _TOKEN and case.operation.path not in _ENDS_SESSION:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {_TOKEN}"}

# The passwords' rules beyond their schema: invisible characters do not count towards the length, the limit is in
# bytes, a password may not be only spaces, nor one of the most common passwords (an embedded list).
_PASSWORD = {"weak_password", "password_too_long", "invalid_password", "common_password"}

SEMANTIC_REFUSALS = {
    # A username's scripts may not mix, a combining mark follows a letter, 2 characters only when all are Chinese,
    # Japanese or Korean, characters must be allowed in identifiers (UTS #39), and no guest, computer or staff name.
    ("POST", "/api/register"): {"invalid_username", "reserved_username"} | _PASSWORD,
    ("POST", "/api/password"): _PASSWORD,
    # A reset code is a secret an operator issued: any code the fuzzer makes up is wrong.
    ("POST", "/api/password/reset"): {"invalid_reset_code"} | _PASSWORD,
    # The stones of a .psq file must be on the board and on distinct points.
    ("POST", "/api/import/psq"): {"off_board", "occupied"},
    # A player cannot follow or block themselves (the fuzzer's account is signed in: its own name is a valid path).
    ("PUT", "/api/me/follows/{name}"): {"self_target"},
    ("PUT", "/api/me/blocks/{name}"): {"self_target"},
    ("DELETE", "/api/me/follows/{name}"): {"self_target"},
    ("DELETE", "/api/me/blocks/{name}"): {"self_target"},
    # Closing an account is confirmed by typing the account's own name.
    ("POST", "/api/me/close"): {"invalid_body"},
    # A report names someone else, with a room or game that exists (the reason and length are in the schema).
    ("POST", "/api/reports"): {"self_target"},
    # A posted position's configuration and actions must be the game's and legal in it.
    ("POST", "/api/analysis/evaluate"): {"invalid_config", "invalid_action", "illegal_action"},
    # An event's name is trimmed and has no control characters; a Swiss needs its rounds and an arena its length
    # (the other kinds ignore them); the start is relative to now; the clock's bounds are the rooms' (the shared
    # TimeControl schema does not carry them), and so are the game's own rules.
    ("POST", "/api/events"): {"invalid_name", "invalid_rounds", "invalid_duration", "invalid_start",
                              "invalid_time_control", "unsupported_board_size", "renju_requires_15x15",
                              "bad_opening_count"},
}


@schemathesis.check
def schema_valid_requests_accepted(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        code = json.loads(response.content).get("code")
    except (ValueError, AttributeError):
        code = None
    allowed = SEMANTIC_REFUSALS.get((case.operation.method.upper(), case.operation.path), set())
    if code not in allowed:
        raise AssertionError(
            f"schema-valid request refused: 400 {code!r} from {case.operation.method.upper()} "
            f"{case.operation.path} (the document allows it; only {sorted(allowed) or 'nothing'} may be refused so)"
        )
    return None
