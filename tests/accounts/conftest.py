import pytest

from tests.accounts.factories import UserFactory


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """The production hasher is slow on purpose; these tests hash hundreds of passwords."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _own_limit_counts(monkeypatch):
    """Counts of accounts.limits under keys of this test alone (the cache outlives a test)."""
    import secrets

    from accounts import limits

    monkeypatch.setattr(limits, "KEY_PREFIX", f"test-{secrets.token_hex(6)}")


@pytest.fixture
def user(db):
    return UserFactory(username="alice", email="alice@example.org", display_name="Alice W.")


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def logged_in_user_id(client) -> int | None:
    value = client.session.get("_auth_user_id")
    return int(value) if value is not None else None
