"""The API does what its OpenAPI schema says: Schemathesis against ``/api/schema/``.

The production shape (tests/faults/harness.py: its own Redis, uvicorn, a worker and beat) serves
the demo data from the test database; ``st run`` then tests every operation twice, anonymously
and with a director's API token, with every check Schemathesis has (no server error, status
codes, content types, headers and bodies as documented, schema-violating requests refused,
schema-valid ones accepted, ...). ``schemathesis.toml`` says which statuses count as a refusal
and as an acceptance (422: a rule no schema can state).

Bounded: ``SCHEMATHESIS_MAX_EXAMPLES`` cases per operation and phase (default 25) from a fixed
``SCHEMATHESIS_SEED``, so a CI failure replays; set another seed to look further.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from accounts.models import User
from accounts.services import api_token_create
from tests.faults.harness import ROOT, Stack, database_url

MAX_EXAMPLES = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25")
SEED = os.environ.get("SCHEMATHESIS_SEED", "20261122")
ST = Path(sys.executable).with_name("st")


@pytest.fixture
def demo_stack(transactional_db, tmp_path):
    call_command("seed_demo", verbosity=0)
    stack = Stack(
        tmp_path / "stack",
        database_url(),
        web_workers=1,
        env={
            "THROTTLE_CHALLENGES": "100000/m",
            "THROTTLE_TOKEN_FAILURES": "100000/m",
            "LOG_LEVEL": "WARNING",
        },
    )
    stack.start()
    yield stack
    stack.stop()


def schemathesis(stack: Stack, report: Path, *options: str) -> tuple[int, str]:
    command = [
        str(ST),
        "--config-file",
        str(ROOT / "schemathesis.toml"),
        "run",
        f"{stack.base_url}/api/schema/",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        MAX_EXAMPLES,
        "--seed",
        SEED,
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--report",
        "junit",
        "--report-dir",
        str(report),
        "--no-color",
    ]
    command += options
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout + done.stderr


def readable(output: str) -> str:
    """The run's failures and summary, each line cut short (a case can carry a 1 MiB body)."""
    start = output.find("FAILURES")
    text = output[start:] if start >= 0 else output[-6000:]
    return "\n".join(line[:300] for line in text.splitlines())


def summary(output: str) -> str:
    match = re.search(r"Test cases:\s*\n\s*(.+)", output)
    return match.group(1).strip() if match else "(no summary)"


#: Revoking a token can revoke the one the run uses (its id is in GET /me/tokens/): that
#: operation gets a pass of its own, after every other one has had the token.
REVOKE = "^/api/v1/me/tokens/\\{token_id\\}/$"


def test_the_api_keeps_to_its_schema_anonymous_and_with_a_token(demo_stack, tmp_path):
    alice = User.objects.get(username="alice")  # a club admin: director of the demo events
    _, key = api_token_create(user=alice, name="schemathesis")
    token = ("--header", f"Authorization: Token {key}")
    passes = {
        "anonymous": (),
        "token": (*token, "--exclude-path-regex", REVOKE),
        "token, revoking tokens": (*token, "--include-path-regex", REVOKE),
    }
    for who, options in passes.items():
        code, output = schemathesis(demo_stack, tmp_path / who.replace(" ", "_"), *options)
        print(f"schemathesis {who}: {summary(output)}")
        assert code == 0, f"schemathesis ({who}) found failures:\n{readable(output)}"
