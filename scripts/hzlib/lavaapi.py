# SPDX-License-Identifier: GPL-2.0-only
"""A LAVA server's XML-RPC API, as lavacli (1.2) calls it, with the
standard library alone.

The endpoint is URL/RPC2.  A user authenticates with HTTP Basic auth,
the user name and an API token (lavacli puts them in the URI,
http://USER:TOKEN@HOST/RPC2; xmlrpc.client turns that into the header).
lava-server answers a token it does not know with HTTP 401 "Invalid
token" before any method runs (linaro_django_xmlrpc/views.py), and a
method that needs a user, called without one, with the fault 401
"Authentication with user and token required for this API."

The methods used (lava-server 2023.01):

- system.version(), system.whoami(): the server, and who we are;
- scheduler.devices.list(show_all), scheduler.devices.show(hostname):
  hostname, type (device_type in show), health, state, tags;
- scheduler.jobs.submit(definition): the new job's id (a list for a
  multinode job); scheduler.jobs.show(id): state (Submitted, Scheduling,
  Scheduled, Running, Canceling, Finished), health (Unknown, Complete,
  Incomplete, Canceled), device, failure_comment;
  scheduler.jobs.cancel(id);
- scheduler.jobs.logs(id, start, end): (finished, Binary) where the
  Binary is output.yaml's lines start..end, as the server stores them
  (each `- {dt, lvl, msg}`; "[]" while there is no log yet);
- results.get_testjob_results_csv(id): every case of the job, one CSV
  row each (job, suite, result, ..., name): read by the csv module,
  where the YAML form would need a YAML parser.

Every failure is a LavaApiError that says what happened in words: the
server unreachable, the token refused (with the server's own text), a
fault (its text).  Identities are lavacli's (~/.config/lavacli.yaml).
"""
from __future__ import annotations

import csv
import http.client
import io
import os
import re
import socket
import xmlrpc.client
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

TIMEOUT_S = 20.0        # one call; lavacli's default too


class LavaApiError(Exception):
    pass


@dataclass
class Identity:
    """Where the server is and who we are to it."""
    uri: str
    username: str | None = None
    token: str | None = None
    name: str = ""          # the lavacli identity, or "" for --url

    def described(self) -> str:
        who = f" as {self.username}" if self.username else " (no user)"
        return (f"identity {self.name!r}: " if self.name else "") + self.uri + who


# --- lavacli's configuration -------------------------------------------------

def config_path() -> Path:
    """Where lavacli keeps its identities ($XDG_CONFIG_HOME, else
    ~/.config; lavacli's load_config())."""
    base = os.environ.get("XDG_CONFIG_HOME") or "~/.config"
    return Path(os.path.expanduser(base)) / "lavacli.yaml"


def yaml_scalar(text: str) -> str:
    """One scalar as yaml.safe_dump writes it: plain, 'single' (a quote
    doubled) or "double" quoted (backslash escapes)."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] == "'":
        return t[1:-1].replace("''", "'")
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1),
                                                                      m.group(1)), t[1:-1])
    return t


def parse_config(text: str) -> dict[str, dict[str, str]]:
    """lavacli.yaml as lavacli writes it (yaml.safe_dump, block style):
    identities at the left margin, each of `key: value` lines indented
    under it.  The small reader for where PyYAML is absent."""
    out: dict[str, dict[str, str]] = {}
    cur: dict[str, str] | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(r"(\S[^:]*|'[^']*'|\"[^\"]*\"):\s*(.*)", line.strip())
        if not m:
            raise LavaApiError(f"{config_path()}: line {no}: not 'key: value'")
        key, val = yaml_scalar(m.group(1)), m.group(2)
        if not line[0].isspace():
            if val not in ("", "{}"):
                raise LavaApiError(f"{config_path()}: line {no}: an identity "
                                   "should be a mapping")
            cur = out.setdefault(key, {})
        elif cur is None:
            raise LavaApiError(f"{config_path()}: line {no}: indented outside an identity")
        else:
            cur[key] = yaml_scalar(val)
    return out


def load_config(path: Path) -> dict[str, dict[str, object]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise LavaApiError(f"cannot read {path}: {e}")
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        return parse_config(text)   # type: ignore[return-value]
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise LavaApiError(f"{path}: not YAML: {e}")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise LavaApiError(f"{path}: not a mapping of identities")
    return data


def identity(name: str, path: Path | None = None) -> Identity:
    """The lavacli identity @name: its uri, username and token."""
    path = path or config_path()
    conf = load_config(path)
    got = conf.get(name)
    if not isinstance(got, dict) or not got.get("uri"):
        known = ", ".join(sorted(str(k) for k in conf)) or "none"
        raise LavaApiError(f"unknown identity {name!r} in {path} (identities: {known}); "
                           "add one with 'lavacli identities add', or give --url "
                           "and --token-file")
    user, token = got.get("username"), got.get("token")
    return Identity(str(got["uri"]), str(user) if user is not None else None,
                    str(token) if token is not None else None, name)


def rpc_uri(url: str) -> str:
    """@url as the XML-RPC endpoint: URL/RPC2 unless it names it."""
    p = urlsplit(url)
    if p.scheme not in ("http", "https") or not p.hostname:
        raise LavaApiError(f"{url!r}: not an http:// or https:// URL of a LAVA server")
    path = p.path.rstrip("/")
    if not path.endswith("/RPC2"):
        path += "/RPC2"
    return urlunsplit((p.scheme, p.netloc, path, "", ""))


def from_url(url: str, token_file: str | None, username: str | None) -> Identity:
    token = None
    if token_file:
        try:
            token = Path(token_file).read_text().strip()
        except OSError as e:
            raise LavaApiError(f"--token-file: {e}")
        if not token:
            raise LavaApiError(f"--token-file {token_file}: empty")
        if not username:
            raise LavaApiError("--token-file: a token is a user's: give --username")
    return Identity(rpc_uri(url), username, token)


# --- the transport -----------------------------------------------------------

class Transport(xmlrpc.client.Transport):
    """http.client with a timeout, and a refused request said with the
    server's own text (lava-server's 401 body is "Invalid token")."""

    def __init__(self, https: bool, timeout: float) -> None:
        super().__init__()
        self.https, self.timeout = https, timeout

    def request(self, host, handler, request_body, verbose=False):  # type: ignore[override]
        chost, headers, _ = self.get_host_info(host)
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(chost, timeout=self.timeout)
        try:
            conn.request("POST", handler, request_body,
                         {"Content-Type": "text/xml", "User-Agent": "hugezero lava run",
                          **dict(headers or [])})
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        if resp.status != 200:
            text = body.decode("utf-8", "replace").strip().splitlines()
            raise xmlrpc.client.ProtocolError(
                chost + handler, resp.status,
                resp.reason + (f": {text[0][:200]}" if text else ""), {})
        p, u = self.getparser()
        p.feed(body)
        p.close()
        return u.close()


def _no_secret(uri: str) -> str:
    p = urlsplit(uri)
    return urlunsplit((p.scheme, p.hostname + (f":{p.port}" if p.port else ""),
                       p.path, "", "")) if p.hostname else uri


class Server:
    """One LAVA server, called as @ident."""

    def __init__(self, ident: Identity, timeout: float = TIMEOUT_S) -> None:
        self.ident = ident
        self.where = _no_secret(ident.uri)
        p = urlsplit(ident.uri)
        netloc = p.hostname or ""
        if p.port:
            netloc += f":{p.port}"
        if ident.username and ident.token:
            netloc = f"{ident.username}:{ident.token}@{netloc}"
        uri = urlunsplit((p.scheme, netloc, p.path, "", ""))
        self.proxy = xmlrpc.client.ServerProxy(
            uri, allow_none=True, transport=Transport(p.scheme == "https", timeout))

    def call(self, method: str, *args: object) -> object:
        fn = self.proxy
        for part in method.split("."):
            fn = getattr(fn, part)
        try:
            return fn(*args)    # type: ignore[operator]
        except xmlrpc.client.Fault as e:
            raise LavaApiError(f"{method}: the server says: {e.faultString} "
                               f"(fault {e.faultCode})")
        except xmlrpc.client.ProtocolError as e:
            if e.errcode == 401:
                raise LavaApiError(f"{self.where} refused the token of user "
                                   f"{self.ident.username!r} ({e.errcode} {e.errmsg})")
            raise LavaApiError(f"{method}: {self.where} answered HTTP {e.errcode} "
                               f"{e.errmsg}")
        except (OSError, http.client.HTTPException) as e:
            why = "no answer within the timeout" if isinstance(e, socket.timeout) else str(e)
            raise LavaApiError(f"cannot reach {self.where}: {why}")
        except xmlrpc.client.ResponseError as e:
            raise LavaApiError(f"{method}: {self.where} did not answer XML-RPC: {e}")

    def version(self) -> str:
        return str(self.call("system.version"))

    def whoami(self) -> str | None:
        who = self.call("system.whoami")
        return str(who) if who else None

    def devices(self) -> list[dict[str, object]]:
        got = self.call("scheduler.devices.list", False)
        return list(got) if isinstance(got, list) else []  # type: ignore[arg-type]

    def device(self, hostname: str) -> dict[str, object]:
        return dict(self.call("scheduler.devices.show", hostname))  # type: ignore[arg-type]

    def submit(self, definition: str) -> str:
        got = self.call("scheduler.jobs.submit", definition)
        if isinstance(got, list):
            if len(got) != 1:
                raise LavaApiError(f"the server made {len(got)} jobs of one: "
                                   "a multinode job is not hugezero's")
            got = got[0]
        return str(got)

    def show(self, job: str) -> dict[str, object]:
        return dict(self.call("scheduler.jobs.show", job))  # type: ignore[arg-type]

    def cancel(self, job: str) -> None:
        self.call("scheduler.jobs.cancel", job)

    def logs(self, job: str, start: int, end: int | None = None) -> tuple[bool, str]:
        """Lines start..end of the job's output.yaml, and whether the job
        has finished."""
        got = self.call("scheduler.jobs.logs", job, start, end)
        finished, data = got  # type: ignore[misc]
        if isinstance(data, xmlrpc.client.Binary):
            data = data.data
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
        return bool(finished), "" if text.strip() == "[]" else text

    def results(self, job: str) -> tuple[str, list[dict[str, str]]]:
        """The job's cases: the CSV as the server gave it, and its rows."""
        text = str(self.call("results.get_testjob_results_csv", job))
        return text, list(csv.DictReader(io.StringIO(text)))
