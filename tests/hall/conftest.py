"""The hall's store under test: every test of a `store` runs on both backends, SQLite (a file in the test's
temp folder) and Redis (Debian's redis-server, one per test process, emptied before each test)."""
import pytest

from deploy.redis_server import RedisServer, RedisServerError, find_redis_server
from harness.browser import browser_required
from posviz.hall.redis_store import RedisStore
from posviz.hall.sqlite_store import SqliteStore


@pytest.fixture(scope="session")
def redis_server():
    try:
        find_redis_server()
    except RedisServerError as e:
        if browser_required():          # CI: .ci/run installs it; missing there is a failure
            pytest.fail(str(e))
        pytest.skip(str(e))
    with RedisServer() as r:
        yield r


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = SqliteStore(tmp_path / "hall.sqlite3")
    else:
        server = request.getfixturevalue("redis_server")
        s = RedisStore(server.url)
        s.r.flushdb()
    yield s
    s.close()
