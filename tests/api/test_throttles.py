"""The REST API's throttles count each client by its address as core.client_address reads it:
a made-up X-Forwarded-For does not make a new client, and behind the documented proxy each
client behind it is counted on its own."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/"


@pytest.fixture
def anon_rate(monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "2/minute"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@override_settings(PROXY_COUNT=0)
def test_a_new_forwarded_for_on_each_request_does_not_bypass_the_anonymous_throttle(api, anon_rate):
    statuses = [
        api.get(URL, REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(3)
    ]
    assert statuses == [200, 200, 429]


@override_settings(PROXY_COUNT=1)
def test_behind_one_proxy_the_throttle_counts_the_client_the_proxy_saw(api, anon_rate):
    def get(client_address: str, sent: str = "") -> int:
        chain = f"{sent}, {client_address}" if sent else client_address
        return api.get(URL, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=chain).status_code

    assert [get("203.0.113.7", sent=f"10.0.0.{n}") for n in range(3)] == [200, 200, 429]
    assert get("198.51.100.20") == 200  # another client behind the same proxy
