"""GitHub clients: the App (JWT) and its installations (tokens reused until they expire), a workflow's own token
(the GitHub Action), errors translated."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import httpx
from githubkit import AppAuthStrategy, AppInstallationAuthStrategy, GitHub, TokenAuthStrategy
from githubkit.cache import BaseCacheStrategy, MemCacheStrategy, RedisCacheStrategy
from githubkit.exception import GitHubException, RateLimitExceeded, RequestFailed, RequestTimeout
from githubkit.retry import RetryChainDecision, RetryServerError
from githubkit.typing import RetryOption

from app.egress.transport import guarded_transport, refused_cause
from app.errors import GitHubError

USER_AGENT = "ToolChoice-App"
# Per-request timeout; githubkit retries server errors itself (waits 1 s, 4 s, 9 s) on top of this.
REQUEST_TIMEOUT_S = 20.0
# Installation tokens and App JWTs are cached under this Redis key prefix (shared by all workers).
TOKEN_CACHE_PREFIX = "toolchoice:githubkit"
# A rate limit that lifts within this many seconds is waited out inside the job; a longer one ends the attempt
# and the queue tries again once GitHub's wait is over (a worker never sleeps for an hour on one call).
MAX_INLINE_WAIT_S = 30.0


class GitHubApiError(GitHubError):
    """A GitHub call that failed; `transient` says whether trying again later may succeed."""

    def __init__(
        self, message: str, *, status: int | None = None, transient: bool = False, retry_after_s: float | None = None
    ) -> None:
        self.status = status
        self.transient = transient
        self.retry_after_s = retry_after_s  # GitHub's Retry-After (or rate-limit reset), when it named one
        super().__init__(message)


def _rate_limit_retry(exc: GitHubException, retry_count: int) -> RetryOption:
    """Wait out a short rate limit once, as GitHub asks; githubkit's own rule would wait any length."""
    if isinstance(exc, RateLimitExceeded) and retry_count < 1:
        wait = exc.retry_after.total_seconds()
        if wait <= MAX_INLINE_WAIT_S:
            return RetryOption(True, timedelta(seconds=max(wait, 1.0)))  # a zero wait would make githubkit sleep 60 s
    return RetryOption(False)


# Rate limits as above; server errors (5xx) three more times after 1, 4 and 9 s (githubkit's rule).
RETRY_POLICY = RetryChainDecision(_rate_limit_retry, RetryServerError())


def _is_transient(status: int | None) -> bool:
    return status is None or status >= 500 or status in (403, 429)


@contextmanager
def translated(what: str) -> Iterator[None]:
    """Turn githubkit/httpx failures into GitHubApiError naming `what` was being done."""
    try:
        yield
    except RateLimitExceeded as exc:
        wait = max(exc.retry_after.total_seconds(), 0.0)
        raise GitHubApiError(
            f"GitHub's rate limit stopped the call to {what} (GitHub asks to wait {wait:.0f} s)",
            status=exc.response.status_code,
            transient=True,
            retry_after_s=wait,
        ) from exc
    except RequestFailed as exc:
        status = exc.response.status_code
        detail = ""
        try:
            body = exc.response.json()
            detail = str(body.get("message", "")) if isinstance(body, dict) else ""
        except Exception:  # a non-JSON error body; the status says enough
            detail = ""
        # 403 is transient only for rate limits (GitHub says so in the message).
        transient = _is_transient(status) and (status != 403 or "rate limit" in detail.lower())
        raise GitHubApiError(
            f"GitHub answered {status} to {what}{': ' + detail if detail else ''}", status=status, transient=transient
        ) from exc
    except RequestTimeout as exc:
        raise GitHubApiError(f"GitHub did not answer in time to {what}", transient=True) from exc
    except (GitHubException, httpx.TransportError) as exc:
        refused = refused_cause(exc)
        if refused is not None:  # a private address: the same next time, so no retry
            raise GitHubApiError(f"GitHub request refused ({what}): {refused}", transient=False) from exc
        raise GitHubApiError(f"GitHub request failed ({what}): {exc}", transient=True) from exc


def call(what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a githubkit method; the response is used through `.json()` (plain data, no model parsing)."""
    with translated(what):
        return fn(*args, **kwargs)


# GitHub's largest page; lists of a pull request's files stop at 3,000 (30 pages).
PER_PAGE = 100
MAX_PAGES = 30


def paginate(
    what: str, fn: Callable[..., Any], *args: Any, max_pages: int | None = MAX_PAGES, **kwargs: Any
) -> Iterator[Any]:
    """The items of a paginated list endpoint, page after page, until a short page or `max_pages` (None: all)."""
    for page in itertools.count(1) if max_pages is None else range(1, max_pages + 1):
        items = call(what, fn, *args, per_page=PER_PAGE, page=page, **kwargs).json()
        yield from items
        if len(items) < PER_PAGE:
            return


class _SharedTransport(httpx.BaseTransport):
    """One connection pool for every client of the process. githubkit builds an httpx client per request and
    closes it afterwards; a fresh default client costs ~90 ms (TLS context), and closing must not close the pool."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self._inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._inner.handle_request(request)

    def close(self) -> None:  # the pool outlives the per-request clients
        return None


class GitHubApp:
    """Builds githubkit clients for the App and its installations; the transport is injectable for tests."""

    def __init__(
        self,
        *,
        app_id: int,
        private_key: str,
        base_url: str = "https://api.github.com",
        transport: httpx.BaseTransport | None = None,
        redis: Any | None = None,
    ) -> None:
        self.app_id = app_id
        self._private_key = private_key
        self._base_url = base_url
        # Every connection is checked against private networks (app/egress/); GitHub Enterprise on an
        # internal host is let through by naming it in TOOLCHOICE_ALLOW_HOSTS.
        self._transport = _SharedTransport(transport or guarded_transport())
        # Tokens in Redis survive RQ's forked work horses and are shared by workers; without Redis they live
        # in this object (one per process). Keyed by API URL too: one App id may exist on several GitHub hosts.
        self._cache: BaseCacheStrategy = (
            RedisCacheStrategy(client=redis, prefix=f"{TOKEN_CACHE_PREFIX}:{base_url}")
            if redis is not None
            else MemCacheStrategy()
        )
        self._installations: dict[int, GitHub[Any]] = {}

    def _client(self, auth: Any) -> GitHub[Any]:
        return GitHub(
            auth,
            base_url=self._base_url,
            user_agent=USER_AGENT,
            timeout=REQUEST_TIMEOUT_S,
            transport=self._transport,
            cache_strategy=self._cache,
            http_cache=False,
            auto_retry=RETRY_POLICY,
        )

    def as_app(self) -> GitHub[Any]:
        """A client authenticated with the App's JWT (for /app and installation lookups)."""
        return self._client(AppAuthStrategy(str(self.app_id), self._private_key))

    def for_installation(self, installation_id: int) -> GitHub[Any]:
        """A client authenticated as one installation; the same client (and token) is reused per process."""
        client = self._installations.get(installation_id)
        if client is None:
            auth = AppInstallationAuthStrategy(str(self.app_id), self._private_key, installation_id)
            client = self._installations[installation_id] = self._client(auth)
        return client


def token_client(
    token: str, *, base_url: str = "https://api.github.com", transport: httpx.BaseTransport | None = None
) -> GitHub[Any]:
    """A client authenticated with a token a workflow is given (GITHUB_TOKEN), for the GitHub Action."""
    return GitHub(
        TokenAuthStrategy(token),
        base_url=base_url,
        user_agent=USER_AGENT,
        timeout=REQUEST_TIMEOUT_S,
        transport=_SharedTransport(transport or httpx.HTTPTransport()),
        http_cache=False,
    )
