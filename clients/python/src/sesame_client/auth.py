"""``SesameAuth``: sends sesamed's ID token as ``Authorization: Bearer ...`` with requests or
httpx, and on a 401 asks for a fresh token (forced refresh) and retries once.

    import requests
    from sesame_client.auth import SesameAuth
    requests.get("https://api.example.com/me", auth=SesameAuth())

    import httpx
    httpx.get("https://api.example.com/me", auth=SesameAuth())    # also httpx.AsyncClient

Neither library is a dependency: this module imports httpx only to subclass ``httpx.Auth``
when httpx is installed (``pip install 'sesame-client[httpx]'`` or ``[requests]``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, AsyncGenerator, Generator, Optional

from ._async import AsyncSesame
from ._sync import Sesame

if TYPE_CHECKING:
    _Base = object
else:
    try:
        from httpx import Auth as _Base
    except ImportError:
        _Base = object


class SesameAuth(_Base):
    """An auth object for ``requests`` (``auth=``) and ``httpx`` (``auth=``, sync and async).

    ``sesame`` is the client to ask (a default ``Sesame()`` when None); ``min_validity`` is
    passed to ``id_token`` (the daemon's default when None).
    """

    def __init__(self, sesame: Optional[Sesame] = None, *, min_validity: Optional[int] = None) -> None:
        self.sesame = sesame or Sesame()
        self.min_validity = min_validity
        self._async: Optional[AsyncSesame] = None

    def __repr__(self) -> str:
        return f"SesameAuth({self.sesame!r})"

    def _header(self, force_refresh: bool) -> str:
        return "Bearer " + self.sesame.id_token(self.min_validity, force_refresh=force_refresh).token

    async def _async_header(self, force_refresh: bool) -> str:
        if self._async is None:
            self._async = AsyncSesame(self.sesame.socket_path, timeout=self.sesame.timeout)
        token = await self._async.id_token(self.min_validity, force_refresh=force_refresh)
        return "Bearer " + token.token

    # requests: called with the PreparedRequest; a response hook retries a 401 once.

    def __call__(self, request: Any) -> Any:
        request.headers["Authorization"] = self._header(False)
        request.register_hook("response", self._retry_requests)
        return request

    def _retry_requests(self, response: Any, **kwargs: Any) -> Any:
        if response.status_code != 401 or getattr(response.request, "_sesame_retried", False):
            return response
        _ = response.content  # read it, so the connection can be reused
        response.close()
        retry = response.request.copy()
        retry._sesame_retried = True
        retry.headers["Authorization"] = self._header(True)
        if hasattr(retry.body, "seek") and getattr(response.request, "_body_position", None) is not None:
            retry.body.seek(response.request._body_position)
        again = response.connection.send(retry, **kwargs)
        again.history.append(response)
        again.request = retry
        return again

    # httpx: the flows of httpx.Auth.

    def sync_auth_flow(self, request: Any) -> Generator[Any, Any, None]:
        request.headers["Authorization"] = self._header(False)
        response = yield request
        if response.status_code == 401:
            response.read()
            request.headers["Authorization"] = self._header(True)
            yield request

    async def async_auth_flow(self, request: Any) -> AsyncGenerator[Any, Any]:
        request.headers["Authorization"] = await self._async_header(False)
        response = yield request
        if response.status_code == 401:
            await response.aread()
            request.headers["Authorization"] = await self._async_header(True)
            yield request
