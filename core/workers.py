"""Which process holds a claimed job, and whether it is gone.

A background job a worker takes (the computer's turn, an analysis) is claimed in the database
under the worker process's name, ``host:pid``. When a worker is killed while it runs a job, the
supervisor (systemd, the fault suite's harness) starts another on the same host; that one, when
ready, looks for the jobs claimed by processes of its host that no longer exist and sends them
again at once, instead of waiting for their claims or heartbeats to run out.
"""

from __future__ import annotations

import os
import socket


def worker_name() -> str:
    """This process's name in a claim: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def this_host() -> str:
    return socket.gethostname()


def gone(claimed_by: str, host: str) -> bool:
    """Whether ``claimed_by`` names a process of ``host`` that no longer exists (a claim of
    another host, or not a process name, is never called gone: it is not ours to judge)."""
    claim_host, _, pid = claimed_by.rpartition(":")
    if claim_host != host or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # someone else's process under that number
    return False
