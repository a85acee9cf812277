"""An OpenAI-compatible embeddings API (`POST {base_url}/embeddings`): OpenAI itself, or a server
that speaks its protocol (vLLM, Ollama, LiteLLM, text-embeddings-inference, a company gateway).

The key is read from the environment variable the config names, at open, and only ever goes into
the Authorization header: no error message, log line or repr carries it. Rate limits (429), server
errors (5xx), timeouts and dropped connections are retried with exponential back-off and jitter,
as long as `Retry-After` asks when the server says.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field, field_validator

from ..errors import EmbedderError
from ..options import StrictOptions
from . import EmbedderType
from .vectors import unit_rows

_RETRIED = {408, 409, 429, 500, 502, 503, 504}


class OpenAIOptions(StrictOptions):
    base_url: str = "https://api.openai.com/v1"
    """Up to the API's version: requests go to `{base_url}/embeddings`."""
    model: str = "text-embedding-3-small"
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the key (the key itself never goes in a config); "" sends none."""
    dimensions: int | None = Field(None, ge=1)
    """Asked of the API (text-embedding-3 models can shorten their vectors); otherwise learnt from
    the first answer."""
    batch_size: int = Field(64, ge=1, le=2048)
    timeout_s: float = Field(60, gt=0)
    retries: int = Field(5, ge=0)
    backoff_s: float = Field(1.0, ge=0)
    """The first wait before a retry; each next one doubles, with jitter, capped at 60 s."""

    @field_validator("base_url")
    @classmethod
    def _http(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"{url!r} is not an http:// or https:// URL")
        return url.rstrip("/")


@dataclass
class OpenAIEmbedder:
    options: OpenAIOptions
    _key: str = field(repr=False)
    _dimensions: int | None = None
    _session: Any = field(default=None, repr=False)

    @property
    def name(self) -> str:
        size = f":{self.options.dimensions}" if self.options.dimensions else ""
        return f"openai:{self.options.model}{size}"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self.embed(["dimensions"])  # the API says its size in the first answer
        assert self._dimensions is not None
        return self._dimensions

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        size = self.options.batch_size
        parts = [self._batch(list(texts[i : i + size])) for i in range(0, len(texts), size)]
        if not parts:
            return np.zeros((0, self.dimensions), np.float32)
        return unit_rows(np.concatenate(parts))

    def _batch(self, texts: list[str]) -> Any:
        import numpy as np

        body: dict[str, Any] = {"model": self.options.model, "input": texts, "encoding_format": "float"}
        if self.options.dimensions:
            body["dimensions"] = self.options.dimensions
        answer = self._post(body)
        try:
            rows = sorted(answer["data"], key=lambda d: d["index"])
            matrix = np.array([row["embedding"] for row in rows], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise self._error(f"answered with no list of embeddings in `data` ({exc!r})") from exc
        if matrix.ndim != 2 or len(matrix) != len(texts):
            raise self._error(f"answered {len(rows)} embeddings for {len(texts)} texts")
        if self._dimensions is None:
            self._dimensions = matrix.shape[1]
        elif matrix.shape[1] != self._dimensions:
            raise self._error(f"answered {matrix.shape[1]} dimensions, earlier {self._dimensions}")
        return matrix

    def _post(self, body: dict[str, Any]) -> Any:
        import requests

        if self._session is None:
            self._session = requests.Session()
        url = f"{self.options.base_url}/embeddings"
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        for attempt in range(self.options.retries + 1):
            last = attempt == self.options.retries
            try:
                response = self._session.post(url, json=body, headers=headers, timeout=self.options.timeout_s)
            except (requests.Timeout, requests.ConnectionError) as exc:
                if last:
                    what = "timed out" if isinstance(exc, requests.Timeout) else "could not be reached"
                    raise self._error(f"{url} {what} ({type(exc).__name__}), {attempt + 1} tries") from None
                self._wait(attempt, None)
                continue
            if response.status_code == 200:
                try:
                    return response.json()
                except ValueError:
                    raise self._error(f"{url} answered 200 with a body that is not JSON") from None
            if response.status_code in _RETRIED and not last:
                self._wait(attempt, response.headers.get("Retry-After"))
                continue
            raise self._error(_refusal(url, response, attempt + 1))
        raise AssertionError("unreachable")

    def _wait(self, attempt: int, retry_after: str | None) -> None:
        delay = min(60.0, self.options.backoff_s * 2**attempt) * (0.5 + random.random() / 2)
        if retry_after:
            try:
                delay = max(delay, min(float(retry_after), 300.0))
            except ValueError:
                pass  # an HTTP date: the back-off is close enough
        time.sleep(delay)

    def _error(self, message: str) -> EmbedderError:
        return EmbedderError(message, subject=f"embedder openai ({self.options.model})")


def _refusal(url: str, response: Any, tries: int) -> str:
    try:
        detail = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        detail = response.text[:200]
    hint = {
        401: "; check the key in the variable api_key_env names",
        403: "; the key may not use this model",
        404: "; check base_url (up to /v1) and model",
    }.get(response.status_code, "")
    after = f" after {tries} tries" if tries > 1 else ""
    return f"{url} answered {response.status_code}{after}: {detail}{hint}"


def open_openai(options: OpenAIOptions) -> OpenAIEmbedder:
    key = ""
    if options.api_key_env:
        key = os.environ.get(options.api_key_env, "")
        if not key:
            raise EmbedderError(
                f"the environment variable {options.api_key_env} is not set (it should hold the "
                'API key); set it, or api_key_env: "" for a server that takes none',
                subject="embedder.api_key_env",
            )
    return OpenAIEmbedder(options, key, options.dimensions)


openai = EmbedderType(name="openai", open=open_openai, options=OpenAIOptions)
