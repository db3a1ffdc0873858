import pytest

from tests.support.stores import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """Every store test runs on SQLite and on PostgreSQL."""
    return request.param


@pytest.fixture
async def store(database):
    store = await database.open()
    yield store
    await store.close()
